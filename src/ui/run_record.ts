// The page's record of the runs, as pure functions of (state, event), so the store stays a thin shell and
// every rule here is tested in Node: trajectories of the update in progress arrive one by one and replace the
// last update's batch once its first trajectory lands; curves gain one point per update and run.
import type { EngineEvent, StageSnapshot, TrajectoryView, UpdateMetrics } from '../worker/protocol.ts';

export type OutcomeFilter = 'all' | 'success' | 'failure';
export type ColourBy = 'delta' | 'gate' | 'coef' | 'kl';

export interface RunRecord {
  curves: Record<string, UpdateMetrics[]>;
  /** Trajectories of the newest update per run (the one in progress, or the last finished). */
  batch: Record<string, TrajectoryView[]>;
  /** The update number each run's batch belongs to. */
  batchUpdate: Record<string, number>;
  /** The trajectories of each run's last completed update, scored and applied (its optimizer stage ran). */
  completed: Record<string, TrajectoryView[]>;
  completedUpdate: Record<string, number>;
  /** The newest stage snapshot per run. */
  stage: Record<string, StageSnapshot>;
  status: string;
  lastCheckpoint: { update: number; savedAt: number } | null;
  errors: string[];
}

export const EMPTY_RECORD: RunRecord = {
  curves: {},
  batch: {},
  batchUpdate: {},
  completed: {},
  completedUpdate: {},
  stage: {},
  status: '',
  lastCheckpoint: null,
  errors: [],
};

function putTrajectory(rec: RunRecord, t: TrajectoryView): RunRecord {
  const current = rec.batchUpdate[t.run];
  const list = current === t.update ? (rec.batch[t.run] ?? []) : [];
  const next = list.filter((x) => x.index !== t.index);
  next.push(t);
  next.sort((a, b) => a.index - b.index);
  return {
    ...rec,
    batch: { ...rec.batch, [t.run]: next },
    batchUpdate: { ...rec.batchUpdate, [t.run]: t.update },
  };
}

function putMetrics(rec: RunRecord, m: UpdateMetrics): RunRecord {
  const list = (rec.curves[m.run] ?? []).filter((x) => x.update !== m.update);
  list.push(m);
  list.sort((a, b) => a.update - b.update);
  return { ...rec, curves: { ...rec.curves, [m.run]: list } };
}

/** The record after one engine event. */
export function applyEvent(rec: RunRecord, event: EngineEvent): RunRecord {
  switch (event.type) {
    case 'status':
      return { ...rec, status: event.text };
    case 'trajectory':
      return putTrajectory(rec, event.trajectory);
    case 'stage': {
      let next: RunRecord = { ...rec, stage: { ...rec.stage, [event.snapshot.run]: event.snapshot } };
      for (const t of event.snapshot.trajectories) next = putTrajectory(next, t);
      if (event.snapshot.stage === 'optimizer') {
        const { run, update, trajectories } = event.snapshot;
        next = {
          ...next,
          completed: { ...next.completed, [run]: trajectories },
          completedUpdate: { ...next.completedUpdate, [run]: update },
        };
      }
      return next;
    }
    case 'update':
      return putMetrics(rec, event.metrics);
    case 'checkpointed':
      return { ...rec, lastCheckpoint: { update: event.update, savedAt: event.savedAt } };
    case 'error':
      return { ...rec, errors: [...rec.errors.slice(-4), event.message] };
    case 'lost':
      // The call that met the loss fails with the same message, which is shown as its error.
      return rec;
  }
}

/**
 * The record once a checkpoint was imported: the open update's stages go (they were computed with the old
 * weights), and so do the errors the replaced weights met; a run checkpoint brings its own update count, so
 * the curves of the run it replaces go too.
 */
export function afterImport(rec: RunRecord, fromCheckpoint: boolean): RunRecord {
  return { ...rec, stage: {}, errors: [], curves: fromCheckpoint ? {} : rec.curves };
}

/** A record holding saved curves (a resumed run). */
export function recordWithCurves(curves: UpdateMetrics[]): RunRecord {
  let rec = EMPTY_RECORD;
  for (const m of curves) rec = putMetrics(rec, m);
  return rec;
}

/** One empty batch, the same each time: the page's selectors compare what they return by identity. */
const NO_TRAJECTORIES: readonly TrajectoryView[] = [];

/**
 * The trajectories the episode view shows for a run: while training plays, those of the last completed update
 * (scored, with skills), never the half-built one; otherwise, and before any update completed, the newest,
 * which the step-through builds stage by stage.
 */
export function shownBatch(
  rec: RunRecord,
  run: string,
  playing: boolean,
): { trajectories: readonly TrajectoryView[]; update: number | undefined } {
  if (playing && rec.completed[run]) return { trajectories: rec.completed[run], update: rec.completedUpdate[run] };
  return { trajectories: rec.batch[run] ?? NO_TRAJECTORIES, update: rec.batchUpdate[run] };
}

export function filterTrajectories(list: readonly TrajectoryView[], filter: OutcomeFilter): TrajectoryView[] {
  if (filter === 'all') return [...list];
  return list.filter((t) => (filter === 'success' ? t.won : !t.won));
}

/** The selection kept when the list changes: the same index if still shown, else the first shown. */
export function keepSelection(list: readonly TrajectoryView[], selected: number | null): number | null {
  if (list.length === 0) return null;
  if (selected !== null && list.some((t) => t.index === selected)) return selected;
  return list[0].index;
}

/** The value a token is coloured by, or null when the token has not been through the loss yet. */
export function tokenValue(t: TrajectoryView, k: number, by: ColourBy): number | null {
  if (!t.scores) return null;
  const v =
    by === 'delta'
      ? t.scores.delta[k]
      : by === 'gate'
        ? t.scores.gate[k]
        : by === 'kl'
          ? t.scores.divergence[k]
          : t.scores.coef[k];
  // Before the loss stage the per-token outputs are NaN: not scored yet.
  return Number.isNaN(v) ? null : v;
}

/** The share of tokens a colour scale resolves: the rest, the largest |values|, saturate at its ends. */
const SCALE_QUANTILE = 0.95;

/**
 * The bound of a robust colour scale: the 95th percentile of |value| (nearest rank), so that one or two
 * outliers saturate instead of washing every other token out to white; a tiny epsilon when there is nothing
 * but zeros, so a zero batch is white (and the largest |value| when the percentile is 0 but not all are).
 */
export function robustBound(values: Iterable<number>): number {
  const magnitudes: number[] = [];
  for (const v of values) if (Number.isFinite(v)) magnitudes.push(Math.abs(v));
  if (magnitudes.length === 0) return 1e-12;
  magnitudes.sort((a, b) => a - b);
  const bound = magnitudes[Math.max(0, Math.ceil(SCALE_QUANTILE * magnitudes.length) - 1)];
  // Mostly zeros with a few values: the scale spans those few rather than saying everything is 0.
  const largest = magnitudes[magnitudes.length - 1];
  return bound > 0 ? bound : largest > 0 ? largest : 1e-12;
}

/** A colour scale and what it leaves out: the largest |value| of the tokens it was set from. */
export interface ColourScale {
  range: [number, number];
  largest: number;
}

/** Whether the decoding mask allowed this token alone: its probability is 1 with or without a skill. */
export function isForced(t: TrajectoryView, k: number): boolean {
  return t.choice[k] === 0;
}

/**
 * The colour scale of a batch, set by its scored tokens where the policy had a choice (a forced token's Delta
 * and gradient are 0, and forced tokens are most tokens): gate always spans [0, 1]; the divergence (kl)
 * [0, b]; Delta and coef [-b, b]; b is the 95th percentile of |value| (robustBound).
 */
export function colourScale(list: readonly TrajectoryView[], by: ColourBy): ColourScale {
  const values: number[] = [];
  for (const t of list) {
    for (let k = 0; k < t.tokens.length; k++) {
      const v = tokenValue(t, k, by);
      if (v !== null && !isForced(t, k)) values.push(v);
    }
  }
  const largest = values.reduce((m, v) => (Number.isFinite(v) ? Math.max(m, Math.abs(v)) : m), 0);
  if (by === 'gate') return { range: [0, 1], largest };
  const bound = robustBound(values);
  return { range: by === 'kl' ? [0, bound] : [-bound, bound], largest };
}

/**
 * Colour of a value on a scale: gate goes white -> green, the divergence white -> purple; Delta and coef go
 * blue (negative) -> white -> red (positive). Returns an rgb() string.
 */
export function colourOf(value: number, range: [number, number], by: ColourBy): string {
  const [lo, hi] = range;
  if (by === 'gate' || by === 'kl') {
    const x = Math.min(1, Math.max(0, (value - lo) / (hi - lo)));
    return by === 'gate' ? mix([255, 255, 255], [26, 152, 80], x) : mix([255, 255, 255], [118, 42, 131], x);
  }
  const x = Math.min(1, Math.max(-1, value / hi));
  return x >= 0 ? mix([255, 255, 255], [215, 48, 39], x) : mix([255, 255, 255], [49, 104, 200], -x);
}

function mix(a: readonly number[], b: readonly number[], x: number): string {
  const c = a.map((v, i) => Math.round(v + (b[i] - v) * x));
  return `rgb(${c[0]}, ${c[1]}, ${c[2]})`;
}
