// A recorded arm's eval curve across its seeds, as the charts draw it: per evaluated update the mean over the
// seeds with a 95% interval of that mean (Student's t over seeds, clipped to [0, 1]); one seed gives no band.
import type { RecordedArm, RecordedRun } from '../rl/recorded_run.ts';

interface BandPoint {
  update: number;
  mean: number;
  lo: number;
  hi: number;
  /** Seeds with a value at this update. */
  seeds: number;
}

/** t_{0.975} for 1..30 degrees of freedom; beyond, the value at 30 (a slightly wide band, never a narrow one). */
const T975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11,
  2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];

export function tQuantile975(df: number): number {
  return T975[Math.min(df, T975.length) - 1];
}

/** Bands already computed: a loaded record never changes, and the charts and the scrubber read the same ones. */
const bands = new WeakMap<RecordedArm, Partial<Record<'seen' | 'unseen', readonly BandPoint[]>>>();

/** The arm's band on a split (computed once per arm and split). */
export function armBand(arm: RecordedArm, split: 'seen' | 'unseen'): readonly BandPoint[] {
  const known = bands.get(arm) ?? {};
  known[split] ??= computeBand(arm, split);
  const band = known[split];
  bands.set(arm, known);
  return band;
}

function computeBand(arm: RecordedArm, split: 'seen' | 'unseen'): BandPoint[] {
  const byUpdate = new Map<number, number[]>();
  for (const s of arm.seeds) {
    for (const [update, , seen, unseen] of s.curve) {
      const v = split === 'seen' ? seen : unseen;
      if (v === null) continue;
      const list = byUpdate.get(update) ?? [];
      list.push(v);
      byUpdate.set(update, list);
    }
  }
  return [...byUpdate.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([update, xs]) => {
      const n = xs.length;
      const mean = xs.reduce((a, b) => a + b, 0) / n;
      if (n < 2) return { update, mean, lo: mean, hi: mean, seeds: n };
      const sd = Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1));
      const half = (tQuantile975(n - 1) * sd) / Math.sqrt(n);
      return { update, mean, lo: Math.max(0, mean - half), hi: Math.min(1, mean + half), seeds: n };
    });
}

const scrubbed = new WeakMap<RecordedRun, readonly number[]>();

/** The updates a person can scrub through: those with recorded episodes, or else those of the curves (computed once per record). */
export function recordedUpdates(run: RecordedRun): readonly number[] {
  let updates = scrubbed.get(run);
  if (!updates) {
    updates = computeUpdates(run);
    scrubbed.set(run, updates);
  }
  return updates;
}

function computeUpdates(run: RecordedRun): number[] {
  const withEpisodes = [...new Set(run.episodes.map((e) => e.update))];
  const updates = withEpisodes.length
    ? withEpisodes
    : run.arms.flatMap((a) => a.seeds.flatMap((s) => s.curve.map((p) => p[0])));
  return [...new Set(updates)].sort((a, b) => a - b);
}
