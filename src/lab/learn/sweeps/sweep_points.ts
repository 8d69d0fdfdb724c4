// The points of a sweep: each value's runs of one arm summarised (mean validation success, OPD share of the
// gradient), the best of them, and the step a grid takes past the edge that holds its best value.
import { ofAlgo, type Algo } from '../../../rl/arms.ts';
import { opdShareOfNorms } from '../../../rl/opd_share.ts';
import { mean } from '../stats/stats.ts';

export type SweepParam = 'lr' | 'lambda' | 'opidWeight' | 'rehearsal';

/** One run of a sweep. */
export interface SweepRun {
  param: SweepParam;
  algo: Algo;
  seed: number;
  lr: number;
  lambda: number;
  opidWeight: number;
  /** The weight of the rehearsal term (rl/rehearsal.ts) the run trained at. */
  rehearsal: number;
  success_validation: number;
  /** The run's mean over its updates of the OPD / GRPO gradient-norm ratio; null without an OPD term. */
  grad_norm_ratio: number | null;
  /** The run's means over its updates of the GRPO and OPD gradient norms; null when no update measured them. */
  grad_norm_grpo: number | null;
  grad_norm_opd: number | null;
  /** The run's OPD share of the gradient, from those means (rl/opd_share.ts); null when not defined. */
  opd_share: number | null;
}

/** One value of a sweep for one arm: its runs' validation success, mean and per seed. */
export interface SweepPoint {
  param: SweepParam;
  algo: Algo;
  value: number;
  seeds: number[];
  per_seed: number[];
  success: number;
  /** Mean over the runs that have one; null when none has. */
  grad_norm_ratio: number | null;
  /**
   * The OPD share of the gradient from the runs' mean norms, each a mean over the run's updates, then over the
   * runs that measured them: mean OPD / (mean GRPO + mean OPD); null when none did.
   */
  opd_share: number | null;
}

/**
 * The ranges a grid may grow into: a learning rate in (0, 1], lambda, OPID and rehearsal weights as the settings
 * table has them.
 */
const SWEEP_RANGES: Readonly<Record<SweepParam, readonly [number, number]>> = {
  lr: [0, 1],
  lambda: [0, 100],
  opidWeight: [0, 10],
  rehearsal: [0, 10],
};

/**
 * One step past the edge of `grid` (sorted, ascending) that holds `best`, at the ratio of the grid's two values
 * nearest that edge (three significant digits); null when `best` lies inside, the grid has one value, or the
 * step leaves the setting's range.
 */
export function pastEdge(grid: readonly number[], best: number, param: SweepParam): number | null {
  if (grid.length < 2) return null;
  const [low, high] = SWEEP_RANGES[param];
  const n = grid.length;
  const next =
    best === grid[n - 1]
      ? (grid[n - 1] * grid[n - 1]) / grid[n - 2]
      : best === grid[0]
        ? (grid[0] * grid[0]) / grid[1]
        : null;
  if (next === null || !Number.isFinite(next)) return null;
  const value = Number(next.toPrecision(3));
  return value > low && value <= high && !grid.includes(value) ? value : null;
}

/** Per value, in the order given, the runs of `algo` that swept `param` at that value. */
export function sweepPoints(
  runs: readonly SweepRun[],
  param: SweepParam,
  algo: Algo,
  values: readonly number[],
): SweepPoint[] {
  return values.flatMap((value) => {
    const mine = runs
      .filter(ofAlgo(algo))
      .filter((r) => r.param === param && r[param] === value)
      .sort((a, b) => a.seed - b.seed);
    if (!mine.length) return [];
    const ratios = mine.flatMap((r) => (r.grad_norm_ratio === null ? [] : [r.grad_norm_ratio]));
    const normed = mine.filter((r) => r.grad_norm_grpo !== null && r.grad_norm_opd !== null);
    return [
      {
        param,
        algo,
        value,
        seeds: mine.map((r) => r.seed),
        per_seed: mine.map((r) => r.success_validation),
        success: mean(mine.map((r) => r.success_validation)),
        grad_norm_ratio: ratios.length ? mean(ratios) : null,
        opd_share: normed.length
          ? opdShareOfNorms(mean(normed.map((r) => r.grad_norm_grpo!)), mean(normed.map((r) => r.grad_norm_opd!)))
          : null,
      },
    ];
  });
}

/** The point of best mean validation success, the first of equals; null when there is none. */
export function bestPoint(points: readonly SweepPoint[]): SweepPoint | null {
  return points.reduce<SweepPoint | null>((best, p) => (best === null || p.success > best.success ? p : best), null);
}
