// Evaluation: each scene played once by the current policy (temperature 0.4 by default, the paper's; 0 is
// greedy), success per task type and overall as fractions in [0, 1], and in a world with a score (the shop)
// the mean score in [0, 1] beside it, as WebShop's papers report both. The sampling stream is fixed by a
// seed, so an evaluation of the same weights gives the same numbers.
import type { Backend } from '../backend/backend.ts';
import { Rng } from '../common/rng.ts';
import type { Environment, EpisodeStep } from '../env/environment.ts';
import type { Tokenizer } from '../text/tokenizer.ts';
import type { TrainConfig } from './config.ts';
import { rollout, type RolloutOptions, type Trajectory } from './rollout.ts';
import { skillSlotLength } from '../text/prompts.ts';

const EVAL_SAMPLING_SEED = 7;
/** Episodes decoded together: bounds the KV caches held at once. */
const EVAL_CHUNK = 48;

export interface EvalResult {
  success: number;
  /** The mean of the episodes' scores (Environment.score), in [0, 1]; absent where the world has none. */
  score?: number;
  per_type: Record<string, number>;
  episodes: number;
}

/** The settings an evaluation plays with. */
export type EvalConfig = Pick<
  TrainConfig,
  | 'maxSteps'
  | 'history'
  | 'evalTemperature'
  | 'constrained'
  | 'maxCommandTokens'
  | 'maxSkillTokens'
  | 'skillAfterPage'
  | 'skillSlot'
>;

export function evalRolloutOptions(config: EvalConfig): RolloutOptions {
  return {
    maxSteps: config.maxSteps,
    history: config.history,
    temperature: config.evalTemperature,
    constrained: config.constrained === 1,
    maxCommandTokens: config.maxCommandTokens,
    maxSkillTokens: config.maxSkillTokens,
    skillAfterPage: config.skillAfterPage === 1,
    skillSlot: skillSlotLength(config),
  };
}

/** The most distinct shared resources (Environment.sharedResource: the shop's catalogues) one chunk plays. */
export const MAX_SHARED_PER_CHUNK = 4;

/**
 * Consecutive chunks of scene indices: EVAL_CHUNK scenes each, cut early where the next scene would bring a
 * chunk's distinct shared resources past MAX_SHARED_PER_CHUNK (every scene of the fixed eval sets shares one, so
 * their chunks are EVAL_CHUNK long).
 */
export function chunkStarts<S>(env: Pick<Environment<S>, 'sharedResource'>, scenes: readonly S[]): number[] {
  const starts: number[] = [];
  let held = new Set<string>();
  let size = 0;
  scenes.forEach((scene, i) => {
    const key = env.sharedResource?.(scene);
    const grows = key !== undefined && !held.has(key);
    if (i === 0 || size === EVAL_CHUNK || (grows && held.size === MAX_SHARED_PER_CHUNK)) {
      starts.push(i);
      held = new Set();
      size = 0;
    }
    if (key !== undefined) held.add(key);
    size++;
  });
  return starts;
}

/**
 * Plays every scene once, a chunk at a time (chunkStarts); chunk `start` samples from `streamOf(start)` and its
 * episodes act with `skills[start..]` in context (none where absent).
 */
export async function playInChunks<S, R extends EpisodeStep>(
  env: Environment<S, R>,
  backend: Backend,
  tok: Tokenizer,
  scenes: readonly S[],
  options: RolloutOptions,
  streamOf: (start: number) => Rng,
  onEpisode?: (t: Trajectory<S, R>) => void,
  skills: readonly (string | null)[] = [],
): Promise<Trajectory<S, R>[]> {
  const out: Trajectory<S, R>[] = [];
  const starts = chunkStarts(env, scenes);
  for (const [k, start] of starts.entries()) {
    const end = starts[k + 1] ?? scenes.length;
    const chunk = scenes.slice(start, end);
    out.push(
      ...(await rollout(
        env,
        backend,
        tok,
        chunk,
        chunk.map((_, i) => start + i),
        options,
        streamOf(start),
        onEpisode,
        skills.slice(start, end),
      )),
    );
  }
  return out;
}

export async function evaluate<S, R extends EpisodeStep>(
  env: Environment<S, R>,
  backend: Backend,
  tok: Tokenizer,
  scenes: readonly S[],
  config: EvalConfig,
  onEpisode?: (t: Trajectory<S, R>) => void,
  /** Sampling stream: 0 is the evaluation's standard one; others give independent samples of the same games. */
  stream = 0,
): Promise<EvalResult> {
  const rng = stream === 0 ? new Rng(EVAL_SAMPLING_SEED) : new Rng(EVAL_SAMPLING_SEED).fork(`stream/${stream}`);
  const trajectories = await playInChunks(
    env,
    backend,
    tok,
    scenes,
    evalRolloutOptions(config),
    (start) => rng.fork(`chunk/${start}`),
    onEpisode,
  );
  return summarise(
    scenes.map((s) => env.taskType(s)),
    trajectories.map((t) => t.won),
    env.score ? trajectories.map((t) => t.score!) : null,
  );
}

const EVAL_SPLITS = ['seen', 'unseen'] as const;
export type EvalSplit = (typeof EVAL_SPLITS)[number];

/** The fixed eval games of both splits: the first `episodes` of each when episodes > 0, else all of them. */
export function evalSplitScenes<S>(
  env: Pick<Environment<S>, 'evalScenes' | 'evalCounts'>,
  episodes = 0,
): Record<EvalSplit, S[]> {
  const count = (split: EvalSplit) =>
    episodes > 0 ? Math.min(episodes, env.evalCounts[split]) : env.evalCounts[split];
  return { seen: env.evalScenes('seen', count('seen')), unseen: env.evalScenes('unseen', count('unseen')) };
}

/** Evaluates the policy on eval-seen, then on eval-unseen (each split on the standard sampling stream). */
export async function evaluateSplits<S, R extends EpisodeStep>(
  env: Environment<S, R>,
  backend: Backend,
  tok: Tokenizer,
  config: EvalConfig,
  scenes: Record<EvalSplit, readonly S[]> = evalSplitScenes(env),
  onEpisode?: (t: Trajectory<S, R>, split: EvalSplit) => void,
): Promise<Record<EvalSplit, EvalResult>> {
  const seen = await evaluate(env, backend, tok, scenes.seen, config, onEpisode && ((t) => onEpisode(t, 'seen')));
  const unseen = await evaluate(env, backend, tok, scenes.unseen, config, onEpisode && ((t) => onEpisode(t, 'unseen')));
  return { seen, unseen };
}

/** Success overall and per type; with `scores` (a world with a score), their mean too. */
export function summarise(
  types: readonly string[],
  won: readonly boolean[],
  scores: readonly number[] | null = null,
): EvalResult {
  const count = new Map<string, [number, number]>();
  types.forEach((type, i) => {
    const c = count.get(type) ?? [0, 0];
    c[0] += won[i] ? 1 : 0;
    c[1] += 1;
    count.set(type, c);
  });
  const per_type: Record<string, number> = {};
  for (const type of [...count.keys()].sort()) per_type[type] = count.get(type)![0] / count.get(type)![1];
  const wins = won.filter(Boolean).length;
  const success = won.length ? wins / won.length : 0;
  if (scores === null) return { success, per_type, episodes: won.length };
  const score = scores.length ? scores.reduce((a, b) => a + b, 0) / scores.length : 0;
  return { success, score, per_type, episodes: won.length };
}
