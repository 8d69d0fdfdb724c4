// The statistics of `bench learn`: bootstrap intervals over seeds and games (plain and paired), mean curves,
// the per-algorithm summary rows and the data-efficiency figure.
import type { Rng } from '../../../common/rng.ts';
import type { Algo } from '../../../rl/config.ts';
import type { JobResult } from './job.ts';

/**
 * Per eval game of one run, its success: won or not, or the fraction of its sampled episodes won (the same
 * games, in the same order, for every run of a benchmark).
 */
export type GameScores = readonly (number | boolean)[];

/** 95% bootstrap interval of the mean success: resample seeds, then games within each seed. */
export function bootstrap(wonPerSeed: readonly GameScores[], rng: Rng, resamples = 2000): [number, number] {
  if (wonPerSeed.length === 0) return [NaN, NaN];
  const means: number[] = [];
  for (let b = 0; b < resamples; b++) {
    let sum = 0;
    for (let s = 0; s < wonPerSeed.length; s++) {
      const games = wonPerSeed[rng.int(wonPerSeed.length)];
      let wins = 0;
      for (let g = 0; g < games.length; g++) wins += +games[rng.int(games.length)];
      sum += games.length ? wins / games.length : 0;
    }
    means.push(sum / wonPerSeed.length);
  }
  means.sort((a, b) => a - b);
  return [means[Math.floor(0.025 * resamples)], means[Math.ceil(0.975 * resamples) - 1]];
}

/**
 * 95% bootstrap interval of mean success of `a` minus that of `b`, paired over games: every run plays the same
 * fixed eval games, so one resample of game indices serves both sides (how hard a game is cancels out), and
 * the seeds of each side are resampled on their own.
 */
export function pairedBootstrap(a: readonly GameScores[], b: readonly GameScores[], rng: Rng, resamples = 2000): [number, number] {
  if (a.length === 0 || b.length === 0) return [NaN, NaN];
  const games = a[0].length;
  if ([...a, ...b].some((w) => w.length !== games)) throw new RangeError('pairedBootstrap: every run must play the same games');
  const diffs: number[] = [];
  const picks = new Int32Array(games);
  const side = (runs: readonly GameScores[]) => {
    let sum = 0;
    for (let s = 0; s < runs.length; s++) {
      const won = runs[rng.int(runs.length)];
      let wins = 0;
      for (let g = 0; g < games; g++) wins += +won[picks[g]];
      sum += games ? wins / games : 0;
    }
    return sum / runs.length;
  };
  for (let r = 0; r < resamples; r++) {
    for (let g = 0; g < games; g++) picks[g] = rng.int(games);
    diffs.push(side(a) - side(b));
  }
  diffs.sort((x, y) => x - y);
  return [diffs[Math.floor(0.025 * resamples)], diffs[Math.ceil(0.975 * resamples) - 1]];
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
 * The episodes SEED needs to reach GRPO's final eval-unseen success. Curve points sample each eval game once,
 * so a single point above the target can be noise: the figure is the first point from which SEED's mean
 * curve stays at or above it to the end, and a first touch that does not last is reported as such.
 */
export function dataEfficiency(
  grpoCurve: readonly [number, number][],
  seedCurve: readonly [number, number][],
  warmUnseen: number,
  episodesPerRun: number,
  algos: readonly string[],
): string {
  if (!(grpoCurve.length && seedCurve.length)) {
    return 'Data efficiency needs both GRPO and SEED runs; this benchmark ran only ' + (algos.join(', ') || 'ablations') + '.';
  }
  const target = grpoCurve[grpoCurve.length - 1][1];
  if (!(target > warmUnseen)) {
    return `GRPO's final eval-unseen success (${pct(target)}%) is not above the warm start's (${pct(warmUnseen)}%), so there is no GRPO result for SEED to reach: no data-efficiency figure.`;
  }
  const trained = seedCurve.slice(1);
  const touch = trained.find(([, v]) => v >= target);
  const stayFrom = trained.findIndex((_, i) => trained.slice(i).every(([, v]) => v >= target));
  const share = (e: number) => `${e} of ${episodesPerRun} episodes (${pct(e / episodesPerRun)}%)`;
  if (stayFrom >= 0) {
    const e = trained[stayFrom][0];
    return `SEED reaches GRPO's final eval-unseen success (${pct(target)}%) after ${share(e)} and stays there` +
      (touch && touch[0] < e ? ` (its mean curve first touched it after ${touch[0]}).` : '.');
  }
  return touch
    ? `SEED does not reach GRPO's final eval-unseen success (${pct(target)}%) to stay: its mean curve touches it after ${share(touch[0])} but ends at ${pct(seedCurve[seedCurve.length - 1][1])}%.`
    : `SEED's mean curve does not reach GRPO's final eval-unseen success (${pct(target)}%) within ${episodesPerRun} episodes.`;
}

export function pct(x: number): string {
  return Number.isFinite(x) ? (100 * x).toFixed(1) : 'n/a';
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
  perType: Record<string, { seen: number; unseen: number }>;
  validSkill: number;
  fidelity: number;
  gate: number;
  delta: number;
  wall: number;
}

/** The row of algorithm `algo` over its runs `rs` (draws its two intervals from `rng`, seen then unseen). */
export function algoRow(algo: Algo, rs: JobResult[], rng: Rng): AlgoRow {
  const types = Object.keys(rs[0]?.per_type.unseen ?? {});
  const perType: Record<string, { seen: number; unseen: number }> = {};
  for (const type of new Set([...types, ...Object.keys(rs[0]?.per_type.seen ?? {})])) {
    perType[type] = { seen: mean(rs.map((r) => r.per_type.seen[type] ?? NaN)), unseen: mean(rs.map((r) => r.per_type.unseen[type] ?? NaN)) };
  }
  return {
    algo,
    seeds: rs.length,
    lr: rs[0]?.lr ?? NaN,
    seen: mean(rs.map((r) => r.success_seen)),
    unseen: mean(rs.map((r) => r.success_unseen)),
    seenCi: bootstrap(rs.map((r) => r.won_seen), rng),
    unseenCi: bootstrap(rs.map((r) => r.won_unseen), rng),
    perType,
    validSkill: mean(rs.map((r) => r.valid_skill_rate ?? NaN)),
    fidelity: mean(rs.map((r) => r.skill_fidelity ?? NaN)),
    gate: mean(rs.map((r) => r.mean_gate ?? NaN)),
    delta: mean(rs.map((r) => r.mean_delta ?? NaN)),
    wall: mean(rs.map((r) => r.wall_s)),
  };
}
