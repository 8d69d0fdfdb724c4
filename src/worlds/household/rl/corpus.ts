// The household's warm-start corpus (rl/warmstart.ts says what each kind of example is for): the explorer's
// episodes in rooms of a scale, each acted, followed with its annotated skill (the episode again, or a primed
// replay that the skill changes) and analyzed, in the episode layout.
import { Rng } from '../../../common/rng.ts';
import { generateScene } from '../env/generate.ts';
import type { RoomScale } from '../env/scale.ts';
import type { Scene } from '../env/scene.ts';
import { CommandTrie, freeDecodingMask } from '../../../text/command_trie.ts';
import { analyzerSequence, episodeSequence, insertSkill, type EpisodeSequence } from '../../../text/prompts.ts';
import type { Tokenizer } from '../../../text/tokenizer.ts';
import type { ScoredSequence } from '../../../rl/batch.ts';
import { episodeText, SKILL_RESERVE } from '../../../rl/rollout.ts';
import type { Corpus, WarmStartOptions } from '../../../rl/warmstart.ts';
import { annotate } from './annotator.ts';
import { runExplorer, skillKnowledge, type ExplorerEpisode } from './explorer.ts';

type ExampleKind = Corpus['kinds'][number];

function scored(seq: EpisodeSequence, masks: Uint32Array): ScoredSequence {
  return { ids: seq.ids, positions: seq.commandPositions, masks };
}

function concat(parts: Uint32Array[], length: number): Uint32Array {
  const out = new Uint32Array(length);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The household's corpus, in rooms of `scale`. */
export function buildCorpus(
  tok: Tokenizer,
  contextLength: number,
  options: WarmStartOptions & { scale: RoomScale },
): Corpus {
  const rng = new Rng(options.seed);
  const explore = rng.fork('explorer');
  const words = Math.ceil(tok.vocabSize / 32);
  const free = freeDecodingMask(tok);
  const budget = contextLength - SKILL_RESERVE - options.maxSkillTokens;
  const sequences: ScoredSequence[] = [];
  const kinds: ExampleKind[] = [];
  let wins = 0;
  const add = (s: ScoredSequence, kind: ExampleKind) => {
    if (s.positions.length === 0 || !options.kinds.includes(kind)) return;
    sequences.push(s);
    kinds.push(kind);
  };
  const primedRng = rng.fork('primed');
  /** The episode's sequence cut to the rollout's budget, with the explorer's own commands scored. */
  const acted = (scene: Scene, episode: ExplorerEpisode) => {
    const { game, admissible, random } = episode;
    const full = episodeText({ goal: scene.task.goal, records: game.records });
    // Keep the steps that fit the rollout's episode budget, as a rollout would have.
    let steps = full.steps.length;
    let plain = episodeSequence(tok, full);
    while (steps > 1 && plain.ids.length > budget)
      plain = episodeSequence(tok, { ...full, steps: full.steps.slice(0, --steps) });
    // Scored: every command the explorer chose itself (and, with scoreRandom, its random ones too).
    const positions: number[] = [];
    const masks: Uint32Array[] = [];
    let k = 0;
    for (let t = 0; t < steps; t++) {
      const trie = new CommandTrie(
        admissible[t].map((c) => tok.encode(c)),
        tok.endId,
        tok.vocabSize,
      );
      const m = trie.commandMasks(tok.encode(full.steps[t].action));
      const n = m.length / words;
      if (options.scoreRandom || !random[t]) {
        positions.push(...plain.commandPositions.subarray(k, k + n));
        masks.push(m);
      }
      k += n;
    }
    return {
      full,
      complete: steps === full.steps.length,
      acting: { ...plain, commandPositions: Int32Array.from(positions) },
      masks: concat(masks, positions.length * words),
    };
  };
  for (let i = 0; i < options.episodes; i++) {
    const scene = generateScene('train', i, options.scale, options.seed);
    const episode = runExplorer(scene, explore, { maxSteps: options.maxSteps, noise: options.noise });
    const { game } = episode;
    wins += game.won ? 1 : 0;
    const { full, complete, acting, masks } = acted(scene, episode);
    add(scored(acting, masks), 'act');
    const skill = annotate(game.records, scene.task, game.won, {
      length: (t) => tok.encode(t).length,
      maxTokens: Math.min(options.annotatedSkillTokens, options.maxSkillTokens),
    });
    if (options.follow === 'own') {
      if (game.won && complete) add(scored(insertSkill(tok, acting, skill), masks), 'follow');
    } else {
      const replay = acted(
        scene,
        runExplorer(scene, primedRng, {
          maxSteps: options.maxSteps,
          noise: options.noise,
          prior: skillKnowledge(skill),
        }),
      );
      if (replay.complete) add(scored(insertSkill(tok, replay.acting, skill), replay.masks), 'follow');
    }
    const analysis = analyzerSequence(tok, full, game.won, skill, { maxLen: contextLength });
    const freeMasks = new Uint32Array(analysis.commandPositions.length * words);
    for (let j = 0; j < analysis.commandPositions.length; j++) freeMasks.set(free, j * words);
    add(scored(analysis, freeMasks), 'analyze');
  }
  const counts: Record<ExampleKind, number> = { act: 0, follow: 0, analyze: 0 };
  for (const kind of kinds) counts[kind]++;
  return { sequences, kinds, explorerSuccess: options.episodes ? wins / options.episodes : 0, counts };
}
