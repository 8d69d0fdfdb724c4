// One SEED update as data: the six stages in order, and the state that each stage fills in (src/rl/README.md
// maps every stage to its file). The trainer runs the stages; the page's worker reads this state to show them,
// so everything the page shows of an update (group statistics, loss settings) is stored here, never recomputed.
import type { Backend, LossHyper, LossInputs, LossOutput, StepStats } from '../backend/backend.ts';
import type { EpisodeStep } from '../env/environment.ts';
import type { Tokenizer } from '../text/tokenizer.ts';
import type { WrittenSkill } from './analyzer.ts';
import type { RlWorld } from './rl_world.ts';
import type { TrainConfig } from './config.ts';
import type { Algo } from './arms.ts';
import type { Trajectory } from './rollout.ts';
import type { TeacherSuccess } from './teacher_check.ts';

export const STAGES = ['rollout', 'rewards', 'skills', 'rescore', 'loss', 'optimizer'] as const;
export type Stage = (typeof STAGES)[number];

/** What every stage of a run's updates works with: the backend, the tokenizer, and what the run was started with. */
export interface UpdateContext<S = unknown, R extends EpisodeStep = EpisodeStep> {
  readonly backend: Backend;
  readonly tok: Tokenizer;
  readonly algo: Algo;
  readonly seed: number;
  /** The world the run plays, with its skills. */
  readonly world: RlWorld<S, R>;
  /** The teacher's weights when the config holds a copy (teacherRefresh > 1: teacher_weights.ts). */
  readonly teacherParams?: Float32Array | null;
}

/** Where seed-crossgame's skills of one update came from. */
export interface CrossgameSources {
  /** Trajectories given the skill of another group of the update. */
  update: number;
  /** Trajectories given a skill of the pool. */
  pool: number;
  /** Trajectories given none (opd_mask 0). */
  none: number;
}

/** A GRPO group: the trajectories of one task and the reward statistics their advantages were computed with. */
export interface TaskGroup {
  task: number;
  /** Indices of the group's trajectories, in rollout order. */
  members: number[];
  mean: number;
  std: number;
}

/** Everything an update computed so far; each stage fills its part. */
export interface UpdateState<S = unknown, R extends EpisodeStep = EpisodeStep> {
  update: number;
  /** The run's config when the update began; every stage of the update reads this copy. */
  config: TrainConfig;
  algo: Algo;
  /** The loss settings of this update: the config's, with lambda and the gate as the algorithm has them. */
  lossHyper: LossHyper;
  /** Stages completed. */
  stage: number;
  scenes: S[];
  trajectories: Trajectory<S, R>[];
  rewards: Float64Array;
  advantages: Float64Array;
  /** One per task, from stage 2 (rewards); empty before. */
  groups: TaskGroup[];
  /** Per trajectory: the skill it wrote (null when the algorithm writes none) and the skill used for OPD. */
  written: (WrittenSkill | null)[];
  used: (WrittenSkill | null)[];
  /** seed-exact with advisorAlpha > 0: per trajectory, another game's skill of its task type, the second teacher. */
  advisor?: (WrittenSkill | null)[] | null;
  /** seed-crossgame: where the used skills came from (stage 3); null or absent under other algorithms. */
  crossgame?: CrossgameSources | null;
  /** [n + 1] offsets of each trajectory's tokens in the per-token arrays. */
  tokenOffsets: Int32Array;
  /** Per scored token, from stage 1: 1 where it is on the expert's shortest plan (diagnostics.ts); absent before. */
  expertTokens?: Uint8Array | null;
  inputs: LossInputs | null;
  loss: LossOutput | null;
  step: StepStats | null;
  /** Norms of the update's gradient parts (loss.ts lossStage): GRPO with its KL term, and OPD; null when not measured. */
  gradParts?: { grpo: number; opd: number } | null;
  /** True where the update has an OPD term but did not measure its parts (config.gradShareEvery). */
  gradPartsUnmeasured?: boolean;
  skipped: { term: string; where: string } | null;
  startedMs: number;
  tokens: number;
  /** Episodes played and won in the rollout stage, those of replaced (resampled) groups included. */
  played?: number;
  playedWins?: number;
  /** Their summed score, in a world with a score (Environment.score); absent in one without. */
  playedScore?: number;
  /** The teacher check on validation games after the update, when the config's teacherEvery asked for one. */
  /** The teacher check after the update (teacherEvery), with the validation KL (validation_kl.ts). */
  teacher?: (TeacherSuccess & { kl: number | null }) | null;
  /** Milliseconds the teacher check took: not part of the update's wall time. */
  teacherMs?: number;
}
