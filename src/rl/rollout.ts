// Rollout: many episodes stepped in lockstep through one Decoder, one batched sample call per decoding
// position. Each episode records what training needs: the token sequence(s) the policy read and wrote, the
// mask under which every command token was chosen, and l_old (its masked log-prob at temperature 1).
//
// Two layouts (docs/architecture.md, "Sequences"):
// - episode (history >= maxSteps): the whole episode is one sequence, extended step by step with the KV
//   cache: task, opening observation, then "<obs> observation <act> command <end>" per step. Room for a
//   skill block (SKILL_RESERVE + maxSkillTokens) is kept free, so the skill-injected sequence always fits;
//   an episode that would outgrow the context ends there (a failure, marked truncated).
// - window (history < maxSteps): each step is its own sequence, the policy context of prompts.ts (task, the
//   last `history` steps, the current observation) followed by the command. Where a step's context begins with
//   the whole sequence of the step before (its context and command: the first `history` steps), the stream's
//   cache keeps it and only the rest is fed; the decoder gives the same bits either way.
// With `skills`, an episode plays with a skill block after its task line, as the re-scoring context of SEED
// has it: the skill-conditioned policy acting (the teacher check), not a trajectory to train on. With a skill
// slot (skillSlot), every context holds the block, empty where the episode has no skill, in the room kept for it.
//
// Stage 1 of an update, which plays the update's games with it, is rollout_stage.ts.
import type { Backend } from '../backend/backend.ts';
import type { Rng } from '../common/rng.ts';
import type { Environment, Episode, EpisodeStep } from '../env/environment.ts';
import { CommandTrie, freeDecodingMask } from '../text/command_trie.ts';
import { ACT } from '../text/markers.ts';
import {
  observationTokens,
  openingRoomText,
  policyContext,
  SKILL_RESERVE,
  skillSlotLength,
  skillTokens,
  slotTokens,
  taskTokens,
  type EpisodeText,
} from '../text/prompts.ts';
import type { Tokenizer } from '../text/tokenizer.ts';
import type { ScoredSequence } from './batch.ts';
import type { TrainConfig } from './config.ts';
import { commandRoom, decodingState, type DecodingState } from './decoding_state.ts';

export interface RolloutOptions {
  maxSteps: number;
  history: number;
  temperature: number;
  constrained: boolean;
  maxCommandTokens: number;
  maxSkillTokens: number;
  /** In the window layout, the skill block after the current observation (prompts.ts policyContext). */
  skillAfterPage?: boolean;
  /** The length of the skill slot every context holds (skillSlotLength); 0 or absent: none. */
  skillSlot?: number;
}

/** An episode as training needs it; S and R are the world's scene and step record (a world's own code names them). */
export interface Trajectory<S = unknown, R extends EpisodeStep = EpisodeStep> {
  /** Index of the episode in its rollout, and of its task (GRPO group). */
  index: number;
  task: number;
  scene: S;
  /** The task sentence of the scene, as the policy read it, and the scene's task type. */
  goal: string;
  taskType: string;
  /** Every step of the game, step 0 being the opening observation. */
  records: R[];
  won: boolean;
  /** The world's score of the episode in [0, 1] (Environment.score: the shop's WebShop score); null where it has none. */
  score: number | null;
  invalid: number;
  /** Ended because the episode outgrew the context, not by success or maxSteps. */
  truncated: boolean;
  layout: 'episode' | 'window';
  /** The plain sequences (one, or one per step); their scored tokens are the sampled command tokens. */
  sequences: ScoredSequence[];
  /** Episode layout: where the skill block goes (right after the task line). */
  skillAt: number;
  /** Per step: the sampled token ids (end token included) and their masks. */
  commands: { ids: Int32Array; masks: Uint32Array }[];
  /** Per scored token (all sequences, in order): l_old and the step it belongs to (0-based). */
  lOld: Float32Array;
  tokenStep: Int32Array;
}

export function episodeText(
  t: { goal: string; records: readonly EpisodeStep[] },
  steps = t.records.length - 1,
): EpisodeText {
  return {
    goal: t.goal,
    opening: t.records[0].observation,
    steps: t.records.slice(1, steps + 1).map((r) => ({ action: r.action, observation: r.observation, valid: r.valid })),
  };
}

/** The settings an episode's reward R_i reads (advantages.ts). */
export type RewardConfig = Pick<TrainConfig, 'winReward' | 'invalidPenalty' | 'scoreReward'>;

/**
 * R_i: winReward for a won episode (scoreReward 0), or winReward times its score (scoreReward 1: WebShop's
 * partial reward, which credits a purchase that meets some of the goal), less invalidPenalty per invalid command.
 */
export function totalReward(t: Pick<Trajectory, 'won' | 'invalid' | 'score'>, config: RewardConfig): number {
  const { winReward, invalidPenalty } = config;
  if (config.scoreReward !== 1) return (t.won ? winReward : 0) - invalidPenalty * t.invalid;
  if (t.score === null) throw new RangeError("scoreReward=1 needs the episode's score, and its world gives none");
  return winReward * t.score - invalidPenalty * t.invalid;
}

interface Live<R extends EpisodeStep> {
  game: Episode<R>;
  /** The current state's commands, under constrained decoding. */
  state?: DecodingState | null;
  ids: number[];
  commands: { ids: Int32Array; masks: Uint32Array }[];
  contexts: Int32Array[];
  /** Window layout: what the stream's cache holds, the last context and the command sampled after it. */
  held: number[];
  lOld: number[];
  truncated: boolean;
  done: boolean;
}

/**
 * Plays every scene once (scene i belongs to task tasks[i]) with the current weights. `onFinish` is called as
 * each episode ends, in the order they end.
 */
export async function rollout<S, R extends EpisodeStep>(
  env: Environment<S, R>,
  backend: Backend,
  tok: Tokenizer,
  scenes: readonly S[],
  tasks: readonly number[],
  options: RolloutOptions,
  rng: Rng,
  onFinish?: (t: Trajectory<S, R>) => void,
  /** Per episode, a skill to act with in context (null or absent: none). */
  skills: readonly (string | null)[] = [],
): Promise<Trajectory<S, R>[]> {
  const n = scenes.length;
  const windowed = options.history < options.maxSteps;
  const maxLen = backend.config.contextLength;
  const episodeBudget = maxLen - (windowed ? 0 : SKILL_RESERVE + options.maxSkillTokens);
  const words = Math.ceil(tok.vocabSize / 32);
  const free = freeDecodingMask(tok);
  const endOnly = new Uint32Array(words);
  endOnly[tok.endId >>> 5] |= 1 << (tok.endId & 31);
  const act = tok.id(ACT);
  // A skill block takes the room the episode layout keeps free for it, so an episode with one ends where it would without.
  const slot = options.skillSlot ?? 0;
  const skillBlocks = scenes.map((_, i) => {
    if (windowed) return [];
    if (slot > 0) return slotTokens(tok, skills[i] ?? null, slot);
    return skills[i] ? skillTokens(tok, skills[i]!, SKILL_RESERVE + options.maxSkillTokens) : [];
  });
  const decoder = backend.openDecoder(Math.max(1, n));
  const goals = scenes.map((scene) => env.goal(scene));
  const live: Live<R>[] = scenes.map((scene) => ({
    game: env.episode(scene, options.maxSteps),
    ids: [],
    commands: [],
    contexts: [],
    held: [],
    lOld: [],
    truncated: false,
    done: false,
  }));
  const out: (Trajectory<S, R> | null)[] = new Array(n).fill(null);
  const finish = (i: number) => {
    const l = live[i];
    l.done = true;
    out[i] = buildTrajectory(
      l,
      i,
      tasks[i],
      scenes[i],
      { goal: goals[i], taskType: env.taskType(scenes[i]), score: env.score },
      windowed,
      tok,
      words,
    );
    onFinish?.(out[i]!);
  };
  try {
    for (;;) {
      const acting: number[] = [];
      for (let i = 0; i < n; i++) {
        const l = live[i];
        if (l.done) continue;
        const steps = l.game.records.length - 1;
        l.state = options.constrained ? decodingState(tok, l.game) : null;
        let feed: number[];
        if (windowed) {
          const context = policyContext(tok, episodeText({ goal: goals[i], records: l.game.records }), {
            history: options.history,
            maxLen,
            reserve: commandRoom(l.state, options.maxCommandTokens),
            skill: skills[i] ?? undefined,
            skillAfterPage: options.skillAfterPage,
            skillSlot: slot,
          });
          const kept = continues(context, l.held) ? l.held.length : 0;
          if (kept === 0) decoder.reset(i);
          l.contexts.push(Int32Array.from(context));
          l.held = context;
          feed = context.slice(kept);
        } else {
          const obs = steps === 0 ? openingRoomText(l.game.observation) : l.game.records[steps].observation;
          feed = [
            ...(steps === 0 ? [...taskTokens(tok, goals[i]), ...skillBlocks[i]] : []),
            ...observationTokens(tok, obs),
            act,
          ];
          if (
            l.ids.length + feed.length + commandRoom(l.state, options.maxCommandTokens) >
            episodeBudget + skillBlocks[i].length
          ) {
            l.truncated = true;
            finish(i);
            continue;
          }
          for (const t of feed) l.ids.push(t);
        }
        await decoder.feed(i, Int32Array.from(feed));
        acting.push(i);
      }
      if (acting.length === 0) break;
      const admissible = acting.map((i) => live[i].state?.admissible ?? live[i].game.admissibleCommands());
      const tries = options.constrained
        ? acting.map((i) => CommandTrie.fromEncoded(tok, live[i].state!.encoded, live[i].state!.slot))
        : null;
      const node = new Array<number>(acting.length).fill(0);
      const sampled: number[][] = acting.map(() => []);
      const chosenMasks: Uint32Array[][] = acting.map(() => []);
      let writing = acting.map((_, k) => k);
      while (writing.length > 0) {
        const streams = Int32Array.from(writing, (k) => acting[k]);
        const masks = new Uint32Array(writing.length * words);
        writing.forEach((k, j) => {
          const m = tries ? tries[k].allowed(node[k]) : sampled[k].length >= options.maxCommandTokens ? endOnly : free;
          masks.set(m, j * words);
          chosenMasks[k].push(m);
        });
        const uniforms = Float32Array.from(writing, () => rng.float());
        // A float32 draw can round up to 1; the sampler needs [0, 1).
        for (let j = 0; j < uniforms.length; j++) if (uniforms[j] >= 1) uniforms[j] = 0;
        const { tokens, logprobs } = await decoder.sample(streams, masks, options.temperature, uniforms);
        const still: number[] = [];
        writing.forEach((k, j) => {
          const token = tokens[j];
          sampled[k].push(token);
          live[acting[k]].lOld.push(logprobs[j]);
          if (token === tok.endId) return;
          if (tries) node[k] = tries[k].child(node[k], token);
          still.push(k);
        });
        writing = still;
      }
      acting.forEach((i, k) => {
        const l = live[i];
        const ids = Int32Array.from(sampled[k]);
        const masks = new Uint32Array(ids.length * words);
        chosenMasks[k].forEach((m, j) => {
          masks.set(m, j * words);
        });
        l.commands.push({ ids, masks });
        for (const t of ids) (windowed ? l.held : l.ids).push(t);
        const listed = tries ? tries[k].completedCommand(node[k]) : -1;
        const command = listed >= 0 ? admissible[k][listed] : tok.decode(ids.subarray(0, ids.length - 1));
        const result = l.game.step(command);
        if (result.done) finish(i);
      });
    }
  } finally {
    decoder.dispose();
  }
  return out.map((t) => t!);
}

/** Whether `seq` begins with the whole of `prefix` and goes on past it. */
function continues(seq: readonly number[], prefix: readonly number[]): boolean {
  if (prefix.length === 0 || prefix.length >= seq.length) return false;
  for (let k = 0; k < prefix.length; k++) if (seq[k] !== prefix[k]) return false;
  return true;
}

export function rolloutOptions(config: TrainConfig): RolloutOptions {
  return {
    maxSteps: config.maxSteps,
    history: config.history,
    temperature: config.temperature,
    constrained: config.constrained === 1,
    maxCommandTokens: config.maxCommandTokens,
    maxSkillTokens: config.maxSkillTokens,
    skillAfterPage: config.skillAfterPage === 1,
    skillSlot: skillSlotLength(config),
  };
}

function buildTrajectory<S, R extends EpisodeStep>(
  l: Live<R>,
  index: number,
  task: number,
  scene: S,
  { goal, taskType, score }: { goal: string; taskType: string; score: Environment['score'] },
  windowed: boolean,
  tok: Tokenizer,
  words: number,
): Trajectory<S, R> {
  const sequences: ScoredSequence[] = [];
  const tokenStep: number[] = [];
  if (windowed) {
    l.commands.forEach((c, t) => {
      const ctx = l.contexts[t];
      const ids = new Int32Array(ctx.length + c.ids.length);
      ids.set(ctx, 0);
      ids.set(c.ids, ctx.length);
      sequences.push({ ids, positions: Int32Array.from(c.ids, (_, k) => ctx.length + k), masks: c.masks });
      for (let k = 0; k < c.ids.length; k++) tokenStep.push(t);
    });
  } else if (l.commands.length > 0) {
    const positions: number[] = [];
    const masks = new Uint32Array(l.lOld.length * words);
    let at = 0;
    let scored = 0;
    // Walk the sequence: every command ends with its end token, right after an ACT marker.
    const act = tok.id(ACT);
    l.commands.forEach((c, t) => {
      at = l.ids.indexOf(act, at) + 1;
      for (let k = 0; k < c.ids.length; k++) {
        positions.push(at + k);
        tokenStep.push(t);
      }
      masks.set(c.masks, scored * words);
      scored += c.ids.length;
      at += c.ids.length;
    });
    sequences.push({ ids: Int32Array.from(l.ids), positions: Int32Array.from(positions), masks });
  }
  const records = l.game.records.slice();
  return {
    index,
    task,
    scene,
    goal,
    taskType,
    records,
    won: l.game.won,
    score: score ? score(records) : null,
    invalid: records.filter((r) => r.step > 0 && !r.valid).length,
    truncated: l.truncated,
    layout: windowed ? 'window' : 'episode',
    sequences,
    skillAt: windowed ? 0 : taskTokens(tok, goal).length,
    commands: l.commands,
    lOld: Float32Array.from(l.lOld),
    tokenStep: Int32Array.from(tokenStep),
  };
}
