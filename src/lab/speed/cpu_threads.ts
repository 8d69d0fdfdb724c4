// `bench cpu`'s thread scaling: from the whole updates of one algorithm on every thread count (cpu_updates.ts),
// the time of an update per thread count and its speedup over one thread. Update u of each trainer does the same
// work (same weights, same seed), so the speedup is taken update by update.
import type { TrainerTimes } from './cpu_updates.ts';

interface ThreadRow {
  threads: number;
  /** Median wall-clock time of one update. */
  msPerUpdate: number;
  updatesPerSecond: number;
  /** Median over updates of (time on 1 thread) / (time on this many). */
  speedup: number;
  /** speedup / threads. */
  efficiency: number;
}

const median = (a: readonly number[]) => {
  const s = [...a].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** The scaling rows of one algorithm's runs, in thread order; the run on 1 thread comes first. */
export function threadScaling(runs: readonly TrainerTimes[]): ThreadRow[] {
  const sorted = [...runs].sort((a, b) => a.threads - b.threads);
  if (sorted[0]?.threads !== 1) throw new Error('thread scaling needs a run on 1 thread (internal error)');
  const one = sorted[0].updates.map((u) => u.totalMs);
  return sorted.map(({ threads, updates }) => {
    const ms = median(updates.map((u) => u.totalMs));
    const speedup = median(one.map((t1, u) => t1 / updates[u].totalMs));
    return { threads, msPerUpdate: ms, updatesPerSecond: 1000 / ms, speedup, efficiency: speedup / threads };
  });
}
