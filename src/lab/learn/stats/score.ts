// The score of `bench learn` in a world with a score (the shop's WebShop score, the search-QA world's answer F1,
// in [0, 1]; success is a score of 1): per arm its mean final score on each eval split and the area under its
// eval-unseen score curve, and the paired differences of the score for the pairs whose success the report
// compares, each with the intervals success gets (stats.ts: over seeds and layouts, and over seeds alone with the
// seeds ahead). Every figure is in [0, 1], as in the JSON. The intervals draw from a stream of their own, so
// success's are those they were. learn.md's score section is written in report/learn_prose.ts and learn_tables.ts.
import { hashString, Rng } from '../../../common/rng.ts';
import type { Algo } from '../../../rl/arms.ts';
import type { Difference } from './differences.ts';
import type { JobResult } from '../jobs/job.ts';
import {
  areaByGame,
  clusterBootstrap,
  seedBootstrap,
  type Estimate,
  type Measure,
  type SeedEstimate,
  type SeedScores,
  type SplitClusters,
} from './stats.ts';
import { ofAlgo } from '../../../rl/arms.ts';

const MEASURES = ['seen', 'unseen', 'auc'] as const satisfies readonly Measure[];

/** The runs' per-game scores of a measure, by seed: the final scores, or the area under the score curve. */
function scoresBySeed(rs: readonly JobResult[], measure: Measure): SeedScores {
  const scores = (r: JobResult) =>
    measure === 'seen'
      ? r.scores_seen!
      : measure === 'unseen'
        ? r.scores_unseen!
        : areaByGame(r.curve, r.curve_scores!);
  return new Map(rs.map((r) => [r.seed, scores(r)]));
}

interface ScoreRow {
  algo: Algo;
  seeds: number;
  /** Per measure, the mean over seeds and its interval over seeds and layouts. */
  estimates: Record<Measure, Estimate>;
}

interface ScoreDifference {
  label: string;
  a: Algo;
  b: Algo | 'warm start';
  estimates: Record<Measure, Estimate>;
  seedOnly: Record<Measure, SeedEstimate>;
}

const clustersOf = (clusters: SplitClusters, m: Measure) => clusters[m === 'seen' ? 'seen' : 'unseen'];

/** The score's figures: the warm start's, each arm's and each difference's, and learn.json's `score`. */
export interface ScoreFigures {
  warm: Record<Measure, Estimate>;
  rows: ScoreRow[];
  differences: ScoreDifference[];
  json: object;
}

/**
 * The score's figures, or null in a world without a score. `diffs` are success's differences, whose pairs the
 * score's differences follow.
 */
export function scoreReport(
  arms: readonly Algo[],
  runs: readonly JobResult[],
  warm: JobResult,
  clusters: SplitClusters,
  diffs: readonly Difference[],
): ScoreFigures | null {
  if (warm.scores_seen === undefined || warm.scores_unseen === undefined) return null;
  const rng = new Rng(hashString('bench/learn/bootstrap/score'));
  const seedRng = rng.fork('seed-only');
  const of = (a: Algo) => runs.filter(ofAlgo(a));
  // The warm start's curve is flat: its area is its own eval-unseen score.
  const warmScores = (m: Measure) => (m === 'seen' ? warm.scores_seen! : warm.scores_unseen!);
  const perMeasure = <T>(f: (m: Measure) => T) =>
    Object.fromEntries(MEASURES.map((m) => [m, f(m)])) as Record<Measure, T>;
  const warmRow = perMeasure((m) =>
    clusterBootstrap(new Map([[0, warmScores(m)]]), null, clustersOf(clusters, m), rng),
  );
  const rows: ScoreRow[] = arms
    .filter((a) => of(a).length > 0)
    .map((algo) => ({
      algo,
      seeds: of(algo).length,
      estimates: perMeasure((m) => clusterBootstrap(scoresBySeed(of(algo), m), null, clustersOf(clusters, m), rng)),
    }));
  const differences: ScoreDifference[] = diffs.map(({ label, a, b }) => {
    const other = (m: Measure) => (b === 'warm start' ? warmScores(m) : scoresBySeed(of(b), m));
    return {
      label,
      a,
      b,
      estimates: perMeasure((m) => clusterBootstrap(scoresBySeed(of(a), m), other(m), clustersOf(clusters, m), rng)),
      seedOnly: perMeasure((m) => seedBootstrap(scoresBySeed(of(a), m), other(m), seedRng)),
    };
  });
  const side = (e: Estimate) => ({ value: e.value, ci: e.ci });
  const json = {
    warmstart: { seen: side(warmRow.seen), unseen: side(warmRow.unseen) },
    arms: Object.fromEntries(
      rows.map((r) => [
        r.algo,
        {
          seeds: r.seeds,
          seen: side(r.estimates.seen),
          unseen: side(r.estimates.unseen),
          auc: side(r.estimates.auc),
        },
      ]),
    ),
    differences: differences.map((d) => ({
      a: d.a,
      b: d.b,
      seeds: d.estimates.unseen.seeds,
      ...perMeasure((m) => side(d.estimates[m])),
      seed_only: perMeasure((m) => ({ ci: d.seedOnly[m].ci, ahead: d.seedOnly[m].ahead })),
    })),
  };
  return { warm: warmRow, rows, differences, json };
}
