// The differences `bench learn` reports: every arm against grpo and against the warm start, and each control
// or ablation against the arm it varies (a distilling arm against its cross-game control among them), each on
// eval-seen, eval-unseen and the area under the eval-unseen curve, with its cluster-bootstrap interval
// (stats.ts): paired by seed, over room layouts; and beside it the interval over seeds alone with the count of
// seeds ahead, drawn from a stream of its own so that the cluster intervals are those they would be without it.
// learn.md's tables of them are in report/learn_tables.ts.
import type { Rng } from '../../../common/rng.ts';
import { ARMS, BASELINE, distils, isBaseline, type Algo, ofAlgo } from '../../../rl/arms.ts';
import { CROSSGAME_CONTROL } from '../design/arms.ts';
import type { JobResult } from '../jobs/job.ts';
import {
  clusterBootstrap,
  scoresBySeed,
  seedBootstrap,
  type Estimate,
  type Measure,
  type SeedEstimate,
  type SplitClusters,
} from './stats.ts';

export interface Difference {
  /** "seed - grpo", "seed-crossgame - warm start". */
  label: string;
  a: Algo;
  b: Algo | 'warm start';
  seen: Estimate;
  unseen: Estimate;
  /** Area under the eval-unseen curve; against the warm start, its flat curve (its own eval-unseen success). */
  auc: Estimate;
  /** The same three, with intervals over seeds alone (the eval games held fixed). */
  seedOnly: { seen: SeedEstimate; unseen: SeedEstimate; auc: SeedEstimate };
}

/**
 * The pairs of arms compared, in the report's order: every arm against grpo, every arm against the warm start,
 * each distilling arm against its cross-game control, each other control or ablation against the arm it varies.
 */
function differencePairs(arms: readonly Algo[], hasRuns: (a: Algo) => boolean): [Algo, Algo | 'warm start'][] {
  const ran = arms.filter(hasRuns);
  const pairs: [Algo, Algo | 'warm start'][] = [];
  if (ran.includes(BASELINE)) for (const a of ran) if (!isBaseline(a)) pairs.push([a, BASELINE]);
  for (const a of ran) pairs.push([a, 'warm start']);
  const has = (a: Algo, b: Algo) => pairs.some(([x, y]) => (x === a && y === b) || (x === b && y === a));
  for (const a of ran) {
    const control = CROSSGAME_CONTROL[a];
    if (control && ran.includes(control) && !has(a, control)) pairs.push([a, control]);
  }
  // An arm against the one it varies when that comes earlier in the list (main arms, then controls, then
  // ablations): the paper's seed as a control is compared with seed-exact, not seed-exact with it.
  ran.forEach((x, i) => {
    const varied = ARMS[x].varies;
    if (varied !== null && distils(varied) && ran.indexOf(varied) >= 0 && ran.indexOf(varied) < i && !has(varied, x))
      pairs.push([varied, x]);
  });
  return pairs;
}

const MEASURES = ['seen', 'unseen', 'auc'] as const satisfies readonly Measure[];

/** Every difference of the report, its intervals drawn from `rng` in the order of the pairs (seen, unseen, area). */
export function differences(
  arms: readonly Algo[],
  runs: readonly JobResult[],
  warm: JobResult,
  clusters: SplitClusters,
  rng: Rng,
): Difference[] {
  const of = (a: Algo) => runs.filter(ofAlgo(a));
  const seedRng = rng.fork('seed-only');
  return differencePairs(arms, (a) => of(a).length > 0).map(([a, b]) => {
    const other = (measure: Measure) =>
      b === 'warm start' ? (measure === 'seen' ? warm.won_seen : warm.won_unseen) : scoresBySeed(of(b), measure);
    const side = (measure: Measure) =>
      clusterBootstrap(
        scoresBySeed(of(a), measure),
        other(measure),
        clusters[measure === 'seen' ? 'seen' : 'unseen'],
        rng,
      );
    const [seen, unseen, auc] = MEASURES.map(side);
    const [seedSeen, seedUnseen, seedAuc] = MEASURES.map((m) =>
      seedBootstrap(scoresBySeed(of(a), m), other(m), seedRng),
    );
    return {
      label: `${a} - ${b}`,
      a,
      b,
      seen,
      unseen,
      auc,
      seedOnly: { seen: seedSeen, unseen: seedUnseen, auc: seedAuc },
    };
  });
}

/** A difference as learn.json holds it (fractions, not points). */
export function differenceJson(d: Difference): object {
  const side = (e: Estimate) => ({ value: e.value, ci: e.ci });
  const seedSide = (e: SeedEstimate) => ({ ci: e.ci, ahead: e.ahead });
  return {
    a: d.a,
    b: d.b,
    seeds: d.unseen.seeds,
    seen: side(d.seen),
    unseen: side(d.unseen),
    auc: side(d.auc),
    seed_only: { seen: seedSide(d.seedOnly.seen), unseen: seedSide(d.seedOnly.unseen), auc: seedSide(d.seedOnly.auc) },
  };
}
