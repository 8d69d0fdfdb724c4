// The statistics of `bench learn`: bootstrap intervals over seeds and room layouts (an arm's success, and
// differences paired by seed), mean curves, the per-algorithm summary rows and the data-efficiency figure.
import { quantileSorted } from 'simple-statistics';
import type { Rng } from '../../../common/rng.ts';
import type { Algo } from '../../../rl/arms.ts';
import { opdShareOfNorms } from '../../../rl/opd_share.ts';
import type { JobResult } from '../jobs/job.ts';
import { MEAN_METRIC_KEYS, type MetricMeans } from '../jobs/update_means.ts';

/**
 * Per eval game of one run, its success: won or not, or the fraction of its sampled episodes won (the same
 * games, in the same order, for every run of a benchmark).
 */
export type GameScores = readonly (number | boolean)[];

/** Replicates of every bootstrap interval of the benchmark. */
export const BOOTSTRAP_REPLICATES = 2000;

/** One arm's per-game scores on one split, by run seed. */
export type SeedScores = ReadonlyMap<number, GameScores>;

export interface Estimate {
  /** The mean over the seeds used (both sides' seeds, for a difference) of the mean over all games. */
  value: number;
  /** 95% percentile interval. */
  ci: [number, number];
  /** The seeds it was computed over. */
  seeds: number[];
}

function isSeeded(b: SeedScores | GameScores): b is SeedScores {
  return b instanceof Map;
}

/**
 * The mean success of arm `a`, or its difference from `b`, with a 95% percentile interval from a cluster
 * bootstrap over seeds and room layouts. `b` is another arm (paired by seed: only seeds both arms ran count,
 * and a replicate draws the same seeds on both sides), one fixed list of scores (the warm start), or null.
 * `clusters` lists the game indices of each layout and covers every game once: a replicate draws as many
 * seeds and as many layouts as there are, with replacement, the same layouts for both sides, and averages
 * over the games of the drawn layouts. Games of one room share what makes them easy or hard, so resampling
 * single games would understate the spread.
 */
export function clusterBootstrap(
  a: SeedScores,
  b: SeedScores | GameScores | null,
  clusters: readonly (readonly number[])[],
  rng: Rng,
  replicates = BOOTSTRAP_REPLICATES,
): Estimate {
  const seeds = [...a.keys()].filter((s) => b === null || !isSeeded(b) || b.has(s)).sort((x, y) => x - y);
  const flat = clusters.flat();
  const lists = [
    ...seeds.map((s) => a.get(s)!),
    ...(b === null ? [] : isSeeded(b) ? seeds.map((s) => b.get(s)!) : [b]),
  ];
  const games = lists.length ? lists[0].length : flat.length;
  if (lists.some((w) => w.length !== games))
    throw new RangeError('clusterBootstrap: every run must play the same games');
  if (
    flat.length !== games ||
    new Set(flat).size !== games ||
    flat.some((g) => !(Number.isInteger(g) && g >= 0 && g < games))
  ) {
    throw new RangeError('clusterBootstrap: the clusters must hold every game once');
  }
  if (seeds.length === 0 || games === 0) return { value: NaN, ci: [NaN, NaN], seeds };
  // Per seed and cluster, the summed score (minus b's): a replicate only adds these up.
  const sums = seeds.map((s) => {
    const sa = a.get(s)!;
    const sb = b === null ? null : isSeeded(b) ? b.get(s)! : b;
    return clusters.map((c) => c.reduce((t, g) => t + (+sa[g] - (sb ? +sb[g] : 0)), 0));
  });
  const sizes = clusters.map((c) => c.length);
  const value = sums.reduce((t, row) => t + row.reduce((u, x) => u + x, 0), 0) / (seeds.length * games);
  const stats: number[] = [];
  const picks = new Int32Array(clusters.length);
  for (let r = 0; r < replicates; r++) {
    let n = 0;
    for (let k = 0; k < picks.length; k++) {
      picks[k] = rng.int(picks.length);
      n += sizes[picks[k]];
    }
    let total = 0;
    for (let s = 0; s < seeds.length; s++) {
      const row = sums[rng.int(seeds.length)];
      for (let k = 0; k < picks.length; k++) total += row[picks[k]];
    }
    stats.push(total / (seeds.length * n));
  }
  stats.sort((x, y) => x - y);
  return { value, ci: [quantileSorted(stats, 0.025), quantileSorted(stats, 0.975)], seeds };
}

/** A difference paired by seed, its interval from resampling seeds alone, and how many seeds are ahead. */
export interface SeedEstimate {
  /** Mean over the common seeds of the per-seed difference of mean scores (the same value clusterBootstrap gives). */
  value: number;
  /** 95% percentile interval of a bootstrap over seeds, every game in every replicate. */
  ci: [number, number];
  seeds: number[];
  /** Seeds whose difference is above 0. */
  ahead: number;
}

/**
 * The difference of `a` from `b` paired by seed, its interval from the spread of seeds alone: the games (and so
 * the room layouts) are held fixed, so the interval says what another draw of training runs would change, not
 * another draw of eval games; beside the cluster bootstrap, which resamples both.
 */
export function seedBootstrap(
  a: SeedScores,
  b: SeedScores | GameScores,
  rng: Rng,
  replicates = BOOTSTRAP_REPLICATES,
): SeedEstimate {
  const seeds = [...a.keys()].filter((s) => !isSeeded(b) || b.has(s)).sort((x, y) => x - y);
  const meanOf = (scores: GameScores) => scores.reduce<number>((t, x) => t + +x, 0) / scores.length;
  const perSeed = seeds.map((s) => meanOf(a.get(s)!) - meanOf(isSeeded(b) ? b.get(s)! : b));
  if (perSeed.length === 0) return { value: NaN, ci: [NaN, NaN], seeds, ahead: 0 };
  const stats: number[] = [];
  for (let r = 0; r < replicates; r++) {
    let total = 0;
    for (let k = 0; k < perSeed.length; k++) total += perSeed[rng.int(perSeed.length)];
    stats.push(total / perSeed.length);
  }
  stats.sort((x, y) => x - y);
  return {
    value: mean(perSeed),
    ci: [quantileSorted(stats, 0.025), quantileSorted(stats, 0.975)],
    seeds,
    ahead: perSeed.filter((d) => d > 0).length,
  };
}

export function mean(xs: number[]): number {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN;
}

/** Mean curve over seeds (the runs share their evaluation points). */
export function meanCurve(runs: JobResult[]): [number, number][] {
  if (!runs.length) return [];
  return runs[0].curve.map(([e], i) => [e, mean(runs.map((r) => r.curve[i]?.[1] ?? NaN))]);
}

/**
 * How soon a distilling arm reaches GRPO's final eval-unseen success (the target): `missing` without both
 * curves, `low` when GRPO ended no higher than the warm start (nothing to reach), `stays` from the episodes of
 * the first point from which the arm's mean curve stays at or above the target to the end (with an earlier
 * touch that did not last, if any), `touches` when it reaches the target only at points it does not keep,
 * `never` when it does not reach it. Curve points sample each eval game once, so a single point above the
 * target can be noise.
 */
export type Efficiency =
  | { kind: 'missing' }
  | { kind: 'low'; target: number; warm: number }
  | { kind: 'stays'; target: number; episodes: number; touched: number | null }
  | { kind: 'touches'; target: number; touched: number; end: number }
  | { kind: 'never'; target: number };

export function dataEfficiency(
  grpoCurve: readonly [number, number][],
  armCurve: readonly [number, number][],
  warmUnseen: number,
): Efficiency {
  if (!(grpoCurve.length && armCurve.length)) return { kind: 'missing' };
  const target = grpoCurve[grpoCurve.length - 1][1];
  if (!(target > warmUnseen)) return { kind: 'low', target, warm: warmUnseen };
  const trained = armCurve.slice(1);
  const touch = trained.find(([, v]) => v >= target);
  const stayFrom = trained.findIndex((_, i) => trained.slice(i).every(([, v]) => v >= target));
  if (stayFrom >= 0) {
    const episodes = trained[stayFrom][0];
    return { kind: 'stays', target, episodes, touched: touch && touch[0] < episodes ? touch[0] : null };
  }
  return touch
    ? { kind: 'touches', target, touched: touch[0], end: armCurve[armCurve.length - 1][1] }
    : { kind: 'never', target };
}

export function pct(x: number): string {
  return Number.isFinite(x) ? (100 * x).toFixed(1) : 'n/a';
}

/** Per split, the eval games' indices grouped by room layout (games.ts, layoutClusters). */
export interface SplitClusters {
  seen: number[][];
  unseen: number[][];
}

/**
 * Per game, the area under its success-vs-episodes curve (trapezoids from the first point to the last) over
 * the episodes it spans: a success rate, the mean success over training. `won[i][g]` is game g's score at
 * point i; a curve of one point (or no span) is that point's scores.
 */
export function areaByGame(curve: readonly [number, number][], won: readonly (readonly number[])[]): number[] {
  if (!curve.length || won.length !== curve.length)
    throw new RangeError('areaByGame: one list of game scores per point of the curve');
  const games = won[0].length;
  if (won.some((w) => w.length !== games)) throw new RangeError('areaByGame: every point must score the same games');
  const span = curve[curve.length - 1][0] - curve[0][0];
  if (!(span > 0)) return [...won[0]];
  return Array.from({ length: games }, (_, g) => {
    let area = 0;
    for (let i = 1; i < curve.length; i++) area += ((curve[i][0] - curve[i - 1][0]) * (won[i][g] + won[i - 1][g])) / 2;
    return area / span;
  });
}

/** What an arm is scored on: final success on a split, or the area under the eval-unseen curve. */
export type Measure = 'seen' | 'unseen' | 'auc';

/** The runs' per-game scores of a measure, by seed. */
export function scoresBySeed(rs: readonly JobResult[], measure: Measure): SeedScores {
  const scores = (r: JobResult) =>
    measure === 'seen' ? r.won_seen : measure === 'unseen' ? r.won_unseen : areaByGame(r.curve, r.curve_won);
  return new Map(rs.map((r) => [r.seed, scores(r)]));
}

/** One algorithm's line of the report: means over its seeds, with bootstrap intervals. */
export interface AlgoRow {
  algo: Algo;
  seeds: number;
  lr: number;
  seen: number;
  unseen: number;
  seenCi: [number, number];
  unseenCi: [number, number];
  /** Area under the eval-unseen curve (areaByGame), mean over seeds, and its interval. */
  auc: number;
  aucCi: [number, number];
  perType: Record<string, { seen: number; unseen: number }>;
  validSkill: number;
  fidelity: number;
  gate: number;
  delta: number;
  /** Mean over runs of the per-run mean of corr(Delta, advantage) over updates; NaN when no run has one. */
  corr: number;
  /** Per metric of MEAN_METRICS, the mean over runs of each run's mean over its updates; NaN when no run has one. */
  metrics: Record<keyof MetricMeans, number>;
  /**
   * The OPD share of the gradient (rl/opd_share.ts): the mean OPD norm / (the mean GRPO norm + the mean OPD norm),
   * each a mean over the updates, then over the seeds that measured both; NaN when none did.
   */
  opdShare: number;
  wall: number;
}

/** AlgoRow.opdShare of runs `rs`. */
function opdShareOfRuns(rs: readonly JobResult[]): number {
  const normed = rs.filter((r) => r.metric_means.gradNormGrpo !== null && r.metric_means.gradNormOpd !== null);
  if (!normed.length) return NaN;
  const grpo = mean(normed.map((r) => r.metric_means.gradNormGrpo!));
  const opd = mean(normed.map((r) => r.metric_means.gradNormOpd!));
  return opdShareOfNorms(grpo, opd) ?? NaN;
}

/** The row of algorithm `algo` over its runs `rs` (draws its three intervals from `rng`: seen, unseen, area). */
export function algoRow(algo: Algo, rs: JobResult[], clusters: SplitClusters, rng: Rng): AlgoRow {
  const types = Object.keys(rs[0]?.per_type.unseen ?? {});
  const perType: Record<string, { seen: number; unseen: number }> = {};
  for (const type of new Set([...types, ...Object.keys(rs[0]?.per_type.seen ?? {})])) {
    perType[type] = {
      seen: mean(rs.map((r) => r.per_type.seen[type] ?? NaN)),
      unseen: mean(rs.map((r) => r.per_type.unseen[type] ?? NaN)),
    };
  }
  const defined = (xs: (number | null)[]) => mean(xs.filter((x): x is number => x !== null));
  const auc = clusterBootstrap(scoresBySeed(rs, 'auc'), null, clusters.unseen, rng);
  const metrics = Object.fromEntries(
    MEAN_METRIC_KEYS.map((k) => [k, defined(rs.map((r) => r.metric_means[k]))]),
  ) as Record<keyof MetricMeans, number>;
  return {
    algo,
    seeds: rs.length,
    lr: rs[0]?.lr ?? NaN,
    seen: mean(rs.map((r) => r.success_seen)),
    unseen: mean(rs.map((r) => r.success_unseen)),
    seenCi: clusterBootstrap(scoresBySeed(rs, 'seen'), null, clusters.seen, rng).ci,
    unseenCi: clusterBootstrap(scoresBySeed(rs, 'unseen'), null, clusters.unseen, rng).ci,
    auc: auc.value,
    aucCi: auc.ci,
    perType,
    validSkill: mean(rs.map((r) => r.valid_skill_rate ?? NaN)),
    fidelity: mean(rs.map((r) => r.skill_fidelity ?? NaN)),
    gate: mean(rs.map((r) => r.mean_gate ?? NaN)),
    delta: mean(rs.map((r) => r.mean_delta ?? NaN)),
    corr: defined(rs.map((r) => r.corr_delta_advantage)),
    metrics,
    opdShare: opdShareOfRuns(rs),
    wall: mean(rs.map((r) => r.wall_s)),
  };
}
