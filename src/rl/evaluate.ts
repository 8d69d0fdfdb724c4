// Evaluation: each scene played once by the current policy (temperature 0.4 by default, the paper's; 0 is
// greedy), success per task type and overall as fractions in [0, 1]. The sampling stream is fixed by a seed,
// so an evaluation of the same weights gives the same numbers.
import type { Backend } from '../backend/backend.ts';
import { Rng } from '../common/rng.ts';
import { EVAL_COUNTS, evalScenes } from '../env/generate.ts';
import { TINY, type RoomScale } from '../env/scale.ts';
import type { Scene } from '../env/scene.ts';
import type { Tokenizer } from '../text/tokenizer.ts';
import type { TrainConfig } from './config.ts';
import { rollout, type RolloutOptions, type Trajectory } from './rollout.ts';

const EVAL_SAMPLING_SEED = 7;
/** Episodes decoded together: bounds the KV caches held at once. */
const EVAL_CHUNK = 48;

export interface EvalResult {
  success: number;
  per_type: Record<string, number>;
  episodes: number;
}

/** The settings an evaluation plays with. */
export type EvalConfig = Pick<TrainConfig, 'maxSteps' | 'history' | 'evalTemperature' | 'constrained' | 'maxCommandTokens' | 'maxSkillTokens'>;

export function evalRolloutOptions(config: EvalConfig): RolloutOptions {
  return {
    maxSteps: config.maxSteps,
    history: config.history,
    temperature: config.evalTemperature,
    constrained: config.constrained === 1,
    maxCommandTokens: config.maxCommandTokens,
    maxSkillTokens: config.maxSkillTokens,
  };
}

/**
 * Plays every scene once, EVAL_CHUNK at a time; chunk `start` samples from `streamOf(start)` and its episodes
 * act with `skills[start..]` in context (none where absent).
 */
export async function playInChunks(
  backend: Backend,
  tok: Tokenizer,
  scenes: readonly Scene[],
  options: RolloutOptions,
  streamOf: (start: number) => Rng,
  onEpisode?: (t: Trajectory) => void,
  skills: readonly (string | null)[] = [],
): Promise<Trajectory[]> {
  const out: Trajectory[] = [];
  for (let start = 0; start < scenes.length; start += EVAL_CHUNK) {
    const chunk = scenes.slice(start, start + EVAL_CHUNK);
    out.push(...(await rollout(backend, tok, chunk, chunk.map((_, i) => start + i), options, streamOf(start), onEpisode, skills.slice(start, start + EVAL_CHUNK))));
  }
  return out;
}

export async function evaluate(
  backend: Backend,
  tok: Tokenizer,
  scenes: readonly Scene[],
  config: EvalConfig,
  onEpisode?: (t: Trajectory) => void,
  /** Sampling stream: 0 is the evaluation's standard one; others give independent samples of the same games. */
  stream = 0,
): Promise<EvalResult> {
  const rng = stream === 0 ? new Rng(EVAL_SAMPLING_SEED) : new Rng(EVAL_SAMPLING_SEED).fork(`stream/${stream}`);
  const trajectories = await playInChunks(backend, tok, scenes, evalRolloutOptions(config), (start) => rng.fork(`chunk/${start}`), onEpisode);
  return summarise(scenes.map((s) => s.task.type), trajectories.map((t) => t.won));
}

const EVAL_SPLITS = ['seen', 'unseen'] as const;
export type EvalSplit = (typeof EVAL_SPLITS)[number];

/** The fixed eval games of both splits: the first `episodes` of each when episodes > 0, else all of them. */
export function evalSplitScenes(episodes = 0, scale: RoomScale = TINY): Record<EvalSplit, Scene[]> {
  const count = (split: EvalSplit) => (episodes > 0 ? Math.min(episodes, EVAL_COUNTS[split]) : EVAL_COUNTS[split]);
  return { seen: evalScenes('seen', scale, count('seen')), unseen: evalScenes('unseen', scale, count('unseen')) };
}

/** Evaluates the policy on eval-seen, then on eval-unseen (each split on the standard sampling stream). */
export async function evaluateSplits(
  backend: Backend,
  tok: Tokenizer,
  config: EvalConfig,
  scenes: Record<EvalSplit, readonly Scene[]> = evalSplitScenes(),
  onEpisode?: (t: Trajectory, split: EvalSplit) => void,
): Promise<Record<EvalSplit, EvalResult>> {
  const seen = await evaluate(backend, tok, scenes.seen, config, onEpisode && ((t) => onEpisode(t, 'seen')));
  const unseen = await evaluate(backend, tok, scenes.unseen, config, onEpisode && ((t) => onEpisode(t, 'unseen')));
  return { seen, unseen };
}

export function summarise(types: readonly string[], won: readonly boolean[]): EvalResult {
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
  return { success: won.length ? wins / won.length : 0, per_type, episodes: won.length };
}
