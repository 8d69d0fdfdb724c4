// `bench cpu`'s tables of whole updates (cpu_updates.ts): a row per part of an update, a column per algorithm
// and thread count, in wall-clock or CPU time; each figure a mean over the timed updates.
import { UPDATE_PARTS, type TrainerTimes } from './cpu_updates.ts';

const mean = (a: readonly number[]) => a.reduce((x, y) => x + y, 0) / Math.max(1, a.length);

/** Wall-clock time, or CPU time of this process (every thread of it, spinning included). */
export type Clock = 'wall' | 'cpu';

export function meanTotal(run: TrainerTimes, clock: Clock = 'wall'): number {
  return mean(run.updates.map((u) => (clock === 'wall' ? u.totalMs : u.totalCpuMs)));
}

/** The stage table: a row per part of an update, a column per algorithm and thread count. */
export function updateTable(runs: readonly TrainerTimes[], all: number, clock: Clock): string {
  const name = (r: TrainerTimes) =>
    `${r.algo.toUpperCase()}, ${r.threads} thread${r.threads > 1 ? 's' : ''}${r.threads === all && all > 2 ? ' (all)' : ''}`;
  const passes = (r: TrainerTimes) => mean(r.updates.map((u) => u.lossPasses));
  const rows = UPDATE_PARTS.map((part) => {
    const label =
      part === 'loss + backward' ? `loss + backward (passes: ${runs.map((r) => fmt(passes(r), 2)).join(', ')})` : part;
    const of = (u: TrainerTimes['updates'][number]) => (clock === 'wall' ? u.parts : u.cpuParts)[part];
    return `| ${label} | ${runs.map((r) => fmt(mean(r.updates.map(of)))).join(' | ')} |`;
  });
  return [
    `| ${clock === 'wall' ? 'wall-clock' : 'CPU'} ms per update | ${runs.map(name).join(' | ')} |`,
    `|---|${runs.map(() => '---:').join('|')}|`,
    ...rows,
    `| **whole update** | ${runs.map((r) => `**${fmt(meanTotal(r, clock))}**`).join(' | ')} |`,
    `| tokens per update | ${runs.map((r) => fmt(mean(r.updates.map((u) => u.tokens)))).join(' | ')} |`,
  ].join('\n');
}

export function fmt(n: number, digits = 0): string {
  return n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}
