// The examples a warm-start corpus is made of (warmstart.ts says what each kind is for), as the worlds that train
// in the episode layout build them: an explorer's episode as one sequence, cut to the rollout's budget, with the
// commands the explorer chose itself scored under the constrained-decoding masks of their states; the same with a
// skill block in it; and the analyzer's example, its skill scored under the free-decoding mask.
import { maskWords } from '../backend/backend.ts';
import type { FreeTextCommand } from '../env/environment.ts';
import { CommandTrie, freeDecodingMask } from '../text/command_trie.ts';
import {
  episodeSequence,
  insertSkill,
  SKILL_RESERVE,
  skillSlotLength,
  type EpisodeSequence,
  type EpisodeText,
} from '../text/prompts.ts';
import type { Tokenizer } from '../text/tokenizer.ts';
import { Rng } from '../common/rng.ts';
import type { ScoredSequence } from './batch.ts';
import type { Corpus, WarmStartOptions } from './warmstart.ts';

/** What an explorer did at each step of an episode: the commands listed, the free text taken, the noise draws. */
export interface ExplorerSteps {
  admissible: readonly string[][];
  /** Per step, the free-text command the state took; absent in a world without free text. */
  freeText?: readonly (FreeTextCommand | null)[];
  random: readonly boolean[];
}

export interface ScoredEpisode {
  sequence: ScoredSequence;
  /** Every step fit the budget. */
  complete: boolean;
  /** The sequence with only the scored positions, for a skill block to go into (insertSkill). */
  plain: EpisodeSequence;
}

/** The room of an episode: its tokens besides a skill block, and the length of the skill slot it holds (0: none). */
export interface EpisodeRoom {
  budget: number;
  slot: number;
}

/** An episode's room as the rollout keeps it (rollout.ts): the context less the room of a skill block. */
export function episodeRoom(
  contextLength: number,
  options: Pick<WarmStartOptions, 'maxSkillTokens' | 'skillSlot'>,
): EpisodeRoom {
  return { budget: contextLength - SKILL_RESERVE - options.maxSkillTokens, slot: skillSlotLength(options) };
}

/**
 * The episode as one sequence of at most `room.budget` tokens besides its skill slot (its last steps cut as a
 * rollout cuts them), every command the explorer chose itself scored, and with `scoreRandom` its random ones too.
 */
export function scoredEpisode(
  tok: Tokenizer,
  room: EpisodeRoom,
  full: EpisodeText,
  steps: ExplorerSteps,
  scoreRandom: boolean,
): ScoredEpisode {
  const words = maskWords(tok.vocabSize);
  let kept = full.steps.length;
  let plain = episodeSequence(tok, full, room.slot);
  while (kept > 1 && plain.ids.length > room.budget + room.slot)
    plain = episodeSequence(tok, { ...full, steps: full.steps.slice(0, --kept) }, room.slot);
  const positions: number[] = [];
  const masks = new Uint32Array(plain.commandPositions.length * words);
  let scored = 0;
  let k = 0;
  for (let t = 0; t < kept; t++) {
    const trie = CommandTrie.fromCommands(tok, steps.admissible[t], steps.freeText?.[t] ?? null);
    const m = trie.commandMasks(tok.encode(full.steps[t].action));
    const n = m.length / words;
    if (scoreRandom || !steps.random[t]) {
      positions.push(...plain.commandPositions.subarray(k, k + n));
      masks.set(m, scored * words);
      scored += n;
    }
    k += n;
  }
  const commandPositions = Int32Array.from(positions);
  return {
    sequence: { ids: plain.ids, positions: commandPositions, masks: masks.slice(0, scored * words) },
    complete: kept === full.steps.length,
    plain: { ...plain, commandPositions },
  };
}

/** The episode with the skill block after its task line (or in its slot), the same commands scored: a follow example. */
export function withSkill(tok: Tokenizer, episode: ScoredEpisode, skill: string): ScoredSequence {
  const inserted = insertSkill(tok, episode.plain, skill);
  return { ids: inserted.ids, positions: inserted.commandPositions, masks: episode.sequence.masks };
}

const freeMasks = new WeakMap<Tokenizer, Uint32Array>();

/** The analyzer's sequence as an example: every token of its skill scored under the free-decoding mask. */
export function analyzerExample(tok: Tokenizer, analysis: EpisodeSequence): ScoredSequence {
  const words = maskWords(tok.vocabSize);
  const free = freeMasks.get(tok) ?? freeDecodingMask(tok);
  freeMasks.set(tok, free);
  const masks = new Uint32Array(analysis.commandPositions.length * words);
  for (let j = 0; j < analysis.commandPositions.length; j++) masks.set(free, j * words);
  return { ids: analysis.ids, positions: analysis.commandPositions, masks };
}

type ExampleKind = Corpus['kinds'][number];

/**
 * A world's warm-start corpus as it is built: the loop over the explorer's episodes is the world's, what it keeps
 * is this. The explorer's and the primed explorer's draws are the seed's two streams; an example with nothing to
 * score, or of a kind the run does not train on, is left out.
 */
export class CorpusCollector {
  /** The explorer's draws, and the primed explorer's (a replay with a skill's knowledge). */
  readonly explore: Rng;
  readonly primed: Rng;
  private readonly sequences: ScoredSequence[] = [];
  private readonly kinds: ExampleKind[] = [];
  private readonly focus: number[] = [];
  private wins = 0;
  private episodes = 0;

  constructor(private readonly options: Pick<WarmStartOptions, 'seed' | 'kinds'>) {
    const rng = new Rng(options.seed);
    this.explore = rng.fork('explorer');
    this.primed = rng.fork('primed');
  }

  /** Counts an explorer's episode, won or not: the explorer's success. */
  played(won: boolean): void {
    this.episodes++;
    if (won) this.wins++;
  }

  /** Keeps an example of `kind`, in the focus (the first focusSteps' examples) when `focused`. */
  add(sequence: ScoredSequence, kind: ExampleKind, focused = false): void {
    if (sequence.positions.length === 0 || !this.options.kinds.includes(kind)) return;
    if (focused) this.focus.push(this.sequences.length);
    this.sequences.push(sequence);
    this.kinds.push(kind);
  }

  corpus(): Corpus {
    const counts: Record<ExampleKind, number> = { act: 0, follow: 0, analyze: 0 };
    for (const kind of this.kinds) counts[kind]++;
    const { sequences, kinds, focus } = this;
    return { sequences, kinds, focus, explorerSuccess: this.episodes ? this.wins / this.episodes : 0, counts };
  }
}

/** How the annotator fits a skill to the run: its length in tokens, and the smaller of the two skill budgets. */
export function skillFit(tok: Tokenizer, options: Pick<WarmStartOptions, 'annotatedSkillTokens' | 'maxSkillTokens'>) {
  return {
    length: (text: string) => tok.encode(text).length,
    maxTokens: Math.min(options.annotatedSkillTokens, options.maxSkillTokens),
  };
}
