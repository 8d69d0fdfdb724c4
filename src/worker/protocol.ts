// What the training worker and the page say to each other (Comlink). Everything here is structured-clone
// data: plain objects, strings, numbers and typed arrays. The page renders it and never computes a number
// of the algorithm itself.
import type { LossHyper } from '../backend/backend.ts';
import type { EnvironmentName } from '../worlds/names.ts';
import type { AdapterReport } from '../backend/webgpu/device.ts';
import type { Algo, SkillPart } from '../rl/arms.ts';
import type { UpdateMetrics as TrainerMetrics } from '../rl/trainer.ts';
import type { Stage } from '../rl/update_state.ts';
import type { SkillKind } from '../text/skill_kind.ts';
import type { BackendChoice, Settings } from '../rl/page_settings.ts';
import type { UpdateTimes } from './update_timing.ts';

/** Which run of the page a record belongs to, named by its algorithm (two runs side by side when the page's algorithm is "both"). */
export type RunId = Algo;

/** How the backend was chosen and why; shown beside the adapter. */
export interface BackendReport {
  kind: 'cpu' | 'webgpu';
  requested: BackendChoice;
  reason: string;
  adapter: AdapterReport | null;
  /** Set when WebGPU was wanted or probed and could not be used. */
  fallback: { detail: string; fix: string } | null;
  /** The CPU backend's threads (the engine's own included), and why only one where that is so. */
  cpuThreads?: { threads: number; single: string | null };
}

export interface StepView {
  command: string;
  observation: string;
  valid: boolean;
  /** The command's tokens (its end token included) are tokens[tokenStart, tokenStart + tokenCount). */
  tokenStart: number;
  tokenCount: number;
}

/** A skill's claims about its game as the world's truth test finds them (neither: it claims nothing checkable). */
export interface SkillTruth {
  statesTrue: boolean;
  statesFalse: boolean;
}

export interface SkillView {
  text: string;
  /** Usable for distillation: it parses and has at least 5 words. */
  valid: boolean;
  /** Why not, when it is not valid. */
  reason: string | null;
  /**
   * What the world's truth test (rl/rl_world.ts truthShares) finds of the skill's claims about the trajectory's own
   * game: whether it states a true one and a false one. Well formed says nothing of this. Null where no world checked.
   */
  truth: SkillTruth | null;
  /** The outcome the analyzer was told. */
  outcome: 'success' | 'failure';
  /** The phrase the text repeats right after itself (text/skill_repeats.ts), a degenerate skill; null when none. */
  repeats: string | null;
  /** The kind the text names by its first word (text/skill_kind.ts), whatever the outcome; null for neither. */
  kind: SkillKind | null;
  /** The analyzer's context as text (task, outcome, compressed steps); empty for a library skill. */
  prompt: string;
  /** 'library': seed-static's skill, written once by the warm-start policy, not from this trajectory. */
  origin: 'written' | 'library';
  /**
   * What the distillation's teacher was given instead of the skill written: a sibling's skill (seed-sibling, part
   * null) or, under a part control, that part: another game's skill, or this skill's procedure, facts, nothing
   * or its words shuffled (rl/config.ts SkillPart); null when it was the skill written.
   */
  usedInstead: { text: string; valid: boolean; part: SkillPart | null } | null;
}

/** Per scored token of a trajectory, in scored order (the command tokens of every step). */
export interface TokenScores {
  /** Plain context, current weights: from stage 4 (a scoring pass) and exactly from the loss pass of stage 5. */
  lStudent: Float32Array;
  lSkill: Float32Array;
  lRef: Float32Array;
  /** Stage 5 onwards; NaN before. */
  delta: Float32Array;
  gate: Float32Array;
  coef: Float32Array;
  coefGrpo: Float32Array;
  coefOpd: Float32Array;
  coefKl: Float32Array;
  /** Exact distillation: D(student || teacher) at each token (0 under the paper's term). */
  divergence: Float32Array;
  mask: Float32Array;
  opdMask: Float32Array;
}

export interface TrajectoryView {
  run: RunId;
  update: number;
  /** Index within the update: task * groupSize + episode. */
  index: number;
  task: number;
  episode: number;
  goal: string;
  taskType: string;
  /** The opening room description. */
  opening: string;
  steps: StepView[];
  won: boolean;
  reward: number;
  invalidSteps: number;
  /** Text of each scored token (command tokens and their end token). */
  tokens: string[];
  /**
   * Per scored token: 1 where the decoding mask allowed more than one token (a decision), 0 where it allowed
   * this one alone (a forced token: probability 1 with or without a skill, so Delta 0 and no gradient).
   */
  choice: Uint8Array;
  /** Rollout log-probs (pre-update policy, plain context). */
  lOld: Float32Array;
  /** Group-normalised advantage, once stage 2 ran. */
  advantage: number | null;
  skill: SkillView | null;
  scores: TokenScores | null;
}

export interface GroupView {
  task: number;
  goal: string;
  rewards: number[];
  mean: number;
  std: number;
  advantages: number[];
}

export interface ParameterChange {
  /** Named view of the flat buffer, e.g. "h0.attn.qkv.w", and the index within it per dimension of its shape. */
  name: string;
  index: number[];
  /** The token whose embedding row this is (wte and wpe rows: token id or position), when there is one. */
  row: string | null;
  before: number;
  after: number;
}

export interface StepResultView {
  L_GRPO: number;
  L_OPD: number;
  KL: number;
  total: number;
  gradNorm: number;
  /** The largest |after - before| parameter changes of the step. */
  largest: ParameterChange[];
  /** Root mean square of the parameter change over the whole buffer. */
  rmsChange: number;
}

/** The trainer's figures of an update, each null at update 0 (no training has run). */
type TrainingFigures = {
  [K in keyof Omit<
    TrainerMetrics,
    'update' | 'algo' | 'success' | 'score' | 'skipped' | 'crossgame' | 'lambda' | 'beta' | 'episodes'
  >]: TrainerMetrics[K] | null;
};

/**
 * Milliseconds of an update's parts as the engine timed them (update_timing.ts): each stage, the scoring passes
 * within them by the weights scored with, the evaluation after the update and the whole wait for the update. Null
 * where not measured: at update 0 all but the warm start's evaluation, and in a run saved before they were kept.
 */
export type UpdateTimings = { [K in keyof UpdateTimes]: number | null } & {
  /** The evaluation after the update (the warm start's at update 0); null where none ran. */
  evalMs: number | null;
  /**
   * From the run's previous point, or from the Play or Step that began the update, to this point: what a person
   * waits per update, its evaluation included; null for an update stepped stage by stage.
   */
  updateMs: number | null;
};

/**
 * A point of a run's curve as the page charts and saves it. After update n (from 1): the trainer's metrics of
 * that update (rl/trainer.ts), with the evaluation of that update if it ran one (seed-crossgame's skill
 * sources stay with the trainer's). At update 0: the evaluation of the warm start alone, before any training,
 * so every training figure is null; the change a run made is measured from it.
 */
export interface UpdateMetrics extends TrainingFigures, UpdateTimings {
  run: RunId;
  /** The loss's lambda and beta of the update; null in a run saved before they were kept, and at update 0. */
  lambda: number | null;
  beta: number | null;
  /** 0 for the warm start's evaluation, 1 for the first update. */
  update: number;
  /** Episodes the run had played after this update (0 at update 0). */
  episodes: number;
  /** Success over the update's training rollouts (the trainer's `success`). */
  successTrain: number | null;
  /** Success on the fixed eval sets, when this update ran an evaluation; null otherwise. */
  evalSeen: number | null;
  evalUnseen: number | null;
  /**
   * In a world with a score (the shop's WebShop score, in [0, 1]): the mean score of the training rollouts (the
   * trainer's `score`) and of each eval set where success is given; null or absent in a world without one, and
   * in a run saved before the score was kept.
   */
  scoreTrain?: number | null;
  scoreSeen?: number | null;
  scoreUnseen?: number | null;
  /** Set when a non-finite loss or gradient stopped the update before the weights changed. */
  skipped: string | null;
}

/** What the step-through shows after a stage ran: the stage and the current batch so far. */
export interface StageSnapshot {
  run: RunId;
  update: number;
  stage: Stage;
  trajectories: TrajectoryView[];
  groups: GroupView[] | null;
  step: StepResultView | null;
  /** The loss settings of the update (UpdateState.lossHyper). */
  hyper: LossHyper;
  /** What Delta says over the update's decision tokens, once the loss ran (stage 5); null before. */
  credit: CreditView | null;
}

/** The credit figures of an update over its decision tokens (rl/diagnostics.ts); null where not defined. */
export interface CreditView {
  decisionTokens: number;
  corrDeltaExpert: number | null;
  meanDelta: number | null;
  meanGate: number | null;
}

/**
 * A per-token table: after re-scoring (stage 4) the log-probs of every scored token; after the loss (stage 5)
 * also Delta, the gate and the coefficients. `json` is the `seed loss --in` format (backend/loss_json.ts) with
 * each token's trajectory, step, text and computed numbers; `csv` the same rows.
 */
export interface TokenTableExport {
  run: RunId;
  update: number;
  /** The stage whose table this is: 4 (re-scoring) or 5 (loss). */
  stage: 4 | 5;
  json: string;
  csv: string;
}

/** The most games one teacher check plays (five times each). */
export const MAX_TEACHER_GAMES = 256;

/** The teacher check (rl/teacher_check.ts) of a run's policy after `update` updates, skills written by the policy. */
export interface TeacherCheckView {
  run: RunId;
  update: number;
  games: number;
  /** Success without a skill, with the game's own hindsight skill, with another game's, with the blank block. */
  noSkill: number;
  ownSkill: number;
  otherSkill: number;
  blankSkill: number;
  /** Share of the skills the policy wrote that were usable. */
  validSkills: number;
}

export interface ImportedCheckpoint {
  /** The update count the run goes on from. */
  updates: number;
  /** True when the count came from the checkpoint (a run checkpoint), false when the run's own went on. */
  fromCheckpoint: boolean;
}

export type EngineEvent =
  | { type: 'status'; text: string }
  | { type: 'trajectory'; trajectory: TrajectoryView }
  | { type: 'stage'; snapshot: StageSnapshot }
  | { type: 'update'; metrics: UpdateMetrics }
  | { type: 'checkpointed'; update: number; savedAt: number }
  | { type: 'error'; message: string }
  /** The GPU device was lost: the run stopped, and its saved record (if any) is offered for resuming. */
  | { type: 'lost'; message: string };

export interface SavedRunInfo {
  /** The run's id, given when the run started; its saves go to its own record under this id. */
  id: string;
  settings: Settings;
  updates: number;
  savedAt: number;
  /** Metrics of every update of the saved run, so the curves come back with it. */
  curves: UpdateMetrics[];
}

/** A stored record that cannot be resumed, and why, on one line. */
export interface RefusedRun {
  id: string;
  problem: string;
}

/** The runs saved in this browser that this tab can resume (newest first), and the records it refused. */
export interface SavedRuns {
  runs: SavedRunInfo[];
  refused: RefusedRun[];
}

export interface EngineInfo {
  /** The id the run saves under: a new one per start, the saved run's own when resuming it. */
  runId: string;
  backend: BackendReport;
  /** The checkpoint the run started from; random: no warm start ships for the world's preset (seeded random weights). */
  initial: { source: string; preset: string; env: EnvironmentName; parameters: number; random: boolean };
  runs: RunId[];
}

/** The worker's API, as the page sees it through Comlink (every method is async across the boundary). */
export interface EngineApi {
  /**
   * Starts (or restarts) a run from the shipped warm start, or resumes the saved run of that id (with its own
   * settings; a run open in another tab goes on here as a copy under a new id).
   */
  start(settings: Settings, resume: string | null): Promise<EngineInfo>;
  /** Settings that apply from the next update (lambda, beta, lr, ...). */
  configure(settings: Settings): Promise<void>;
  /** Runs whole updates until pause() or until `updates` have run. */
  play(updates: number): Promise<void>;
  pause(): Promise<void>;
  /** Runs one whole update. */
  stepUpdate(): Promise<UpdateMetrics[]>;
  /** Runs the next stage of a run's open update (starting one if none is open). */
  stepStage(run: RunId): Promise<StageSnapshot>;
  /** The open update's per-token table of a run (every trajectory), as the stage view shows it. */
  tokenTable(run: RunId): Promise<TokenTableExport>;
  /** The teacher check of a run's current policy on `games` training games, with skills the policy writes. */
  teacherCheck(run: RunId, games: number): Promise<TeacherCheckView>;
  /** The current run's checkpoint file (parameters, optimizer state, metadata). */
  exportCheckpoint(run: RunId): Promise<Uint8Array>;
  /**
   * Replaces the current run's weights with a checkpoint file; throws a clear error when it is refused. A run
   * checkpoint's update and episode counts carry on (the curves then restart from its update).
   */
  importCheckpoint(bytes: Uint8Array): Promise<ImportedCheckpoint>;
  /** The saved runs, every record checked; this tab's own run is left out while it trains. */
  savedRuns(): Promise<SavedRuns>;
  discardSavedRun(id: string): Promise<void>;
  subscribe(listener: (event: EngineEvent) => void): Promise<void>;
}
