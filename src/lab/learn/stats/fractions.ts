// The figures of `bench learn --fractions`: grpo and each main distilling arm trained on a fraction of the
// training games, per fraction and arm its final eval-unseen success and area under the eval-unseen curve, and
// the paired differences (against grpo at the same fraction, and against grpo at the largest fraction: hindsight
// with less data against GRPO with more). learn_fractions.md and .json are written in report/fractions_report.ts.
import type { Rng } from '../../../common/rng.ts';
import type { Algo } from '../../../rl/arms.ts';
import type { JobResult } from '../jobs/job.ts';
import { clusterBootstrap, mean, scoresBySeed, type Estimate } from './stats.ts';
import { distils, ofAlgo } from '../../../rl/arms.ts';

export interface FractionDifference {
  a: Algo;
  aFraction: number;
  b: Algo;
  bFraction: number;
  unseen: Estimate;
  auc: Estimate;
}

/** The runs of one data fraction. */
export interface FractionRuns {
  fraction: number;
  /** The training games its runs cycle through (trainGames). */
  trainGames: number;
  runs: JobResult[];
}

/**
 * Per fraction, each distilling arm against grpo at that fraction; then each distilling arm at every smaller
 * fraction against grpo at the largest. Paired by seed (the seeds both ran), over eval-unseen's layouts.
 */
export function fractionDifferences(
  fractions: readonly FractionRuns[],
  clusters: number[][],
  rng: Rng,
): FractionDifference[] {
  const of = (f: FractionRuns, a: Algo) => f.runs.filter(ofAlgo(a));
  const compare = (a: Algo, fa: FractionRuns, fb: FractionRuns): FractionDifference => {
    const side = (measure: 'unseen' | 'auc') =>
      clusterBootstrap(scoresBySeed(of(fa, a), measure), scoresBySeed(of(fb, 'grpo'), measure), clusters, rng);
    return { a, aFraction: fa.fraction, b: 'grpo', bFraction: fb.fraction, unseen: side('unseen'), auc: side('auc') };
  };
  const ran = (f: FractionRuns) => [...new Set(f.runs.map((r) => r.algo))].filter(distils);
  const diffs: FractionDifference[] = [];
  for (const f of fractions) if (of(f, 'grpo').length) for (const a of ran(f)) diffs.push(compare(a, f, f));
  const largest = fractions.reduce<FractionRuns | null>(
    (m, f) => (m === null || f.fraction > m.fraction ? f : m),
    null,
  );
  if (largest && of(largest, 'grpo').length) {
    for (const f of fractions)
      if (f.fraction < largest.fraction) for (const a of ran(f)) diffs.push(compare(a, f, largest));
  }
  return diffs;
}

/** One arm at one fraction: its final eval-unseen success and area with their intervals, and its mean wall time. */
export interface FractionRow {
  fraction: number;
  trainGames: number;
  algo: Algo;
  seeds: number;
  unseen: Estimate;
  auc: Estimate;
  wall: number;
}

/** Per fraction, per arm in the order its runs came, the row of the report's table (intervals drawn from `rng`). */
export function fractionRows(fractions: readonly FractionRuns[], clusters: number[][], rng: Rng): FractionRow[] {
  return fractions.flatMap((f) => {
    const arms = [...new Set(f.runs.map((r) => r.algo))];
    return arms.map((algo) => {
      const rs = f.runs.filter(ofAlgo(algo));
      const unseen = clusterBootstrap(scoresBySeed(rs, 'unseen'), null, clusters, rng);
      const auc = clusterBootstrap(scoresBySeed(rs, 'auc'), null, clusters, rng);
      const wall = mean(rs.map((r) => r.wall_s));
      return { fraction: f.fraction, trainGames: f.trainGames, algo, seeds: rs.length, unseen, auc, wall };
    });
  });
}
