// A recorded run: what a finished `bench learn` keeps for the page to show at once, before any training in the
// browser. Every arm and seed's eval curves, the final figures with their intervals, and a few episodes with
// their per-token Delta, gate and coefficient at several updates, with the command and commit that made it.
// The command line writes it (src/lab/learn/report/record.ts) and the page reads it (recorded_run_check.ts
// checks it first), so the format lives here, below both. A record and its line of the index name the world its
// runs played (`env`), as other files do (src/worlds/names.ts, namedWorld): not at all for the default world, so
// the records written before the shop are the household's.
import type { TrainConfig } from './config.ts';
import type { Algo } from './arms.ts';
import type { Trajectory } from './rollout.ts';
import type { UpdateState } from './update_state.ts';
import type { Tokenizer } from '../text/tokenizer.ts';
import type { EnvironmentName } from '../worlds/names.ts';

export const RECORD_FORMAT = 'seed-recorded-run';
export const RECORD_VERSION = 1;
/** The list of records beside them, which the page reads first. */
export const RECORD_INDEX_FORMAT = 'seed-recorded-runs';
/** The most bytes one record may take: the page fetches it on load. */
export const MAX_RECORD_BYTES = 2 * 1024 * 1024;
/** Episodes kept per arm at each recorded update. */
export const EPISODES_PER_UPDATE = 2;
/** Updates of a run whose episodes are kept. */
export const EPISODE_UPDATES = 4;

/** A success rate and its 95% interval (fractions). */
export interface Interval {
  value: number;
  ci: [number, number];
}

/** One evaluation of a run: after `update` updates and `episodes` training episodes; null where not measured. */
export type CurvePoint = [update: number, episodes: number, seen: number | null, unseen: number | null];

export interface RecordedSeed {
  seed: number;
  /** From update 0 (the warm start) to the last, in order. */
  curve: CurvePoint[];
  /** The final evaluation (every sample of it). */
  final: { seen: number; unseen: number };
}

export type ArmRole = 'main' | 'control' | 'ablation';

export interface RecordedArm {
  algo: Algo;
  role: ArmRole;
  lr: number;
  /** The loss's lambda the arm ran at (it weighs nothing in an arm without a distillation term); absent in an older record. */
  lambda?: number;
  /** The weight of the rehearsal term the arm ran at (rehearsal.ts; 0: none); absent in an older record. */
  rehearsal?: number;
  /** Mean over seeds of the final success, with the report's interval over seeds and room layouts. */
  final: { seen: Interval; unseen: Interval };
  seeds: RecordedSeed[];
  /** The arm's teacher checks (--teacher-at), in the order of their updates; absent where none ran, or in an older record. */
  teacher?: RecordedTeacherCheck[];
}

/**
 * An arm's teacher check (teacher_check.ts) after `update` updates, on the validation games: success with no
 * skill, the game's own, another game's and the blank block, means over the seeds that checked there, and the
 * own skill's lead taken apart into the block effect (other - none) and the content effect (own - other), each
 * with its 95% interval over seeds (the report's).
 */
export interface RecordedTeacherCheck {
  update: number;
  seeds: number;
  none: number;
  own: number;
  other: number;
  blank: number;
  block: Interval;
  content: Interval;
}

export interface RecordedDifference {
  a: Algo;
  b: Algo | 'warm start';
  seeds: number[];
  seen: Interval;
  unseen: Interval;
}

export interface RecordedStep {
  action: string;
  valid: boolean;
  /** The step's command tokens (end token included) are the next `tokens` of the episode's token list. */
  tokens: number;
}

/** A skill as distillation read it. */
export interface RecordedSkill {
  text: string;
  valid: boolean;
}

export interface RecordedEpisode {
  algo: Algo;
  seed: number;
  /** The update it was played in, counted from 1. */
  update: number;
  goal: string;
  taskType: string;
  won: boolean;
  reward: number;
  advantage: number;
  /** The skill distillation used for it; null when there is none (GRPO). */
  skill: RecordedSkill | null;
  /** The skill the trajectory itself wrote, when distillation used another one (seed-sibling, seed-crossgame). */
  ownSkill: RecordedSkill | null;
  steps: RecordedStep[];
  /**
   * Per command token: its text, and Delta, gate and coefficient to 3 significant digits (a coefficient is
   * scaled by the batch's token count, so decimals would round it away). Delta and gate are null where the
   * token had no usable skill (no distillation there), and all three where the update was refused.
   */
  tokens: string[];
  delta: (number | null)[];
  gate: (number | null)[];
  coef: (number | null)[];
}

export interface RecordedRun {
  format: typeof RECORD_FORMAT;
  version: typeof RECORD_VERSION;
  /** The world the runs played; absent: the default world (worldOrDefault). The page draws it in that world only. */
  env?: EnvironmentName;
  command: string;
  commit: string;
  /** When the benchmark finished (ISO 8601). */
  created: string;
  preset: string;
  updates: number;
  /** Training episodes per update (B x G). */
  episodesPerUpdate: number;
  evalEvery: number;
  evalGames: { seen: number; unseen: number };
  /**
   * The training settings every arm shared (the benchmark's base configuration; lr and lambda are each arm's own),
   * so that the page can run its live run at the recorded one's; absent in an older record.
   */
  config?: Partial<TrainConfig>;
  warmstart: { seen: number; unseen: number };
  /**
   * The distilling arm the benchmark's headline compares with GRPO (picked on validation), one of `arms`; absent
   * in a record without one: the finding then takes the first main arm that is not GRPO.
   */
  headline?: Algo;
  arms: RecordedArm[];
  differences: RecordedDifference[];
  episodes: RecordedEpisode[];
}

/** One line of runs/index.json. */
export interface RecordIndexEntry {
  /** The record's file name, beside the index. */
  file: string;
  /** The record's world, as the record names it; absent: the default world. */
  env?: EnvironmentName;
  created: string;
  command: string;
  commit: string;
}

export interface RecordIndex {
  format: typeof RECORD_INDEX_FORMAT;
  runs: RecordIndexEntry[];
}

/** A per-token number as the record keeps it: 3 significant digits; null where it is not a finite number. */
export function sig3(x: number): number | null {
  return Number.isFinite(x) ? Number(x.toPrecision(3)) : null;
}

/**
 * The updates (counted from 1) whose episodes a run of `updates` updates keeps: up to `count` of the updates
 * with an evaluation (every `evalEvery`-th and the last), spread evenly from the first to the last, so each
 * recorded update has a point on the curves too.
 */
export function episodeUpdates(updates: number, evalEvery: number, count = EPISODE_UPDATES): number[] {
  const evaluated: number[] = [];
  for (let u = evalEvery; u < updates; u += evalEvery) evaluated.push(u);
  evaluated.push(updates);
  if (evaluated.length <= count) return evaluated;
  const picks = Array.from(
    { length: count },
    (_, k) => evaluated[Math.round((k * (evaluated.length - 1)) / (count - 1))],
  );
  return [...new Set(picks)];
}

/**
 * The trajectories of a finished update worth showing: a won one and a lost one from a group whose episodes
 * differ (an advantage that is not zero), where there are such, else the first ones; at most `count`.
 */
export function pickEpisodes(state: UpdateState, count = EPISODES_PER_UPDATE): number[] {
  const ts = state.trajectories;
  const mixed = (i: number) => state.advantages.length > i && state.advantages[i] !== 0;
  const firstOf = (won: boolean) => ts.findIndex((t, i) => t.won === won && mixed(i));
  const picks = [firstOf(true), firstOf(false)].filter((i) => i >= 0);
  for (let i = 0; i < ts.length && picks.length < count; i++) if (!picks.includes(i)) picks.push(i);
  return picks.slice(0, count);
}

function skillOf(s: { text: string; ok: boolean } | null | undefined): RecordedSkill | null {
  return s ? { text: s.text, valid: s.ok } : null;
}

/** Trajectory `i` of a finished update (all six stages run), as the record keeps it. */
export function recordedEpisode(tok: Tokenizer, state: UpdateState, i: number, seed: number): RecordedEpisode {
  const t: Trajectory = state.trajectories[i];
  const tokens: string[] = [];
  const steps: RecordedStep[] = t.commands.map((c, s) => {
    for (const id of c.ids) tokens.push(tok.token(id));
    const record = t.records[s + 1];
    return { action: record?.action ?? '', valid: record?.valid ?? false, tokens: c.ids.length };
  });
  const from = state.tokenOffsets.length > i + 1 ? state.tokenOffsets[i] : 0;
  const loss = state.skipped ? null : state.loss;
  const distilled = (k: number) => state.inputs?.opdMask[from + k] === 1;
  const per = (a: Float32Array | undefined, where = (_k: number) => true) =>
    tokens.map((_, k) => (a && where(k) ? sig3(a[from + k]) : null));
  const used = state.used[i] ?? null;
  const written = state.written[i] ?? null;
  return {
    algo: state.algo,
    seed,
    update: state.update + 1,
    goal: t.goal,
    taskType: t.taskType,
    won: t.won,
    reward: state.rewards[i] ?? 0,
    advantage: sig3(state.advantages[i] ?? 0) ?? 0,
    skill: skillOf(used),
    ownSkill: written && used && written.text !== used.text ? skillOf(written) : null,
    steps,
    tokens,
    delta: per(loss?.delta, distilled),
    gate: per(loss?.gate, distilled),
    coef: per(loss?.coef),
  };
}
