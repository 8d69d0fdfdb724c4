// The differences `bench learn` reports: every arm against grpo and against the warm start, and seed against
// every other arm (the controls and ablations), each on eval-seen and eval-unseen, with its cluster-bootstrap
// interval (stats.ts): paired by seed, over room layouts.
import type { Rng } from '../../../common/rng.ts';
import type { Algo } from '../../../rl/config.ts';
import type { JobResult } from './job.ts';
import { clusterBootstrap, scoresBySeed, type Estimate, type SplitClusters } from './stats.ts';

export interface Difference {
  /** "seed - grpo", "seed-crossgame - warm start". */
  label: string;
  a: Algo;
  b: Algo | 'warm start';
  seen: Estimate;
  unseen: Estimate;
}

/** The pairs of arms compared, in the report's order. */
function differencePairs(arms: readonly Algo[], hasRuns: (a: Algo) => boolean): [Algo, Algo | 'warm start'][] {
  const ran = arms.filter(hasRuns);
  const pairs: [Algo, Algo | 'warm start'][] = [];
  if (ran.includes('grpo')) for (const a of ran) if (a !== 'grpo') pairs.push([a, 'grpo']);
  for (const a of ran) pairs.push([a, 'warm start']);
  if (ran.includes('seed')) for (const a of ran) if (a !== 'seed' && a !== 'grpo') pairs.push(['seed', a]);
  return pairs;
}

/** Every difference of the report, its intervals drawn from `rng` in the order of the pairs (seen, then unseen). */
export function differences(arms: readonly Algo[], runs: readonly JobResult[], warm: JobResult, clusters: SplitClusters, rng: Rng): Difference[] {
  const of = (a: Algo) => runs.filter((r) => r.algo === a);
  return differencePairs(arms, (a) => of(a).length > 0).map(([a, b]) => {
    const side = (split: 'seen' | 'unseen') => {
      const other = b === 'warm start' ? (split === 'seen' ? warm.won_seen : warm.won_unseen) : scoresBySeed(of(b), split);
      return clusterBootstrap(scoresBySeed(of(a), split), other, clusters[split], rng);
    };
    return { label: `${a} - ${b}`, a, b, seen: side('seen'), unseen: side('unseen') };
  });
}

const points = (d: number) => (Number.isFinite(d) ? `${d >= 0 ? '+' : ''}${(100 * d).toFixed(1)}` : 'n/a');

/** A difference as the report writes it: "+4.8 [+1.0, +8.3]", in points. */
function differenceCell(e: Estimate): string {
  return `${points(e.value)} [${points(e.ci[0])}, ${points(e.ci[1])}]`;
}

export function differenceTable(diffs: readonly Difference[]): string {
  return [
    '| difference | seeds | eval-seen points [95% CI] | eval-unseen points [95% CI] |',
    '|---|---|---|---|',
    ...diffs.map((d) => `| ${d.label} | ${d.unseen.seeds.join(', ') || 'none in common'} | ${differenceCell(d.seen)} | ${differenceCell(d.unseen)} |`),
  ].join('\n');
}

/** A difference as learn.json holds it (fractions, not points). */
export function differenceJson(d: Difference): object {
  const side = (e: Estimate) => ({ value: e.value, ci: e.ci });
  return { a: d.a, b: d.b, seeds: d.unseen.seeds, seen: side(d.seen), unseen: side(d.unseen) };
}
