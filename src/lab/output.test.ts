import { describe, expect, it } from 'vitest';
import { outPath, reportHead, reportPath } from './output.ts';

describe('bench --out', () => {
  it('is a directory, bench/ by default; a named run is a directory under bench/runs', () => {
    expect(reportPath(undefined, 'kernels.md')).toBe('bench/kernels.md');
    expect(reportPath('bench/runs/gpu-h200', 'kernels.md')).toBe('bench/runs/gpu-h200/kernels.md');
    expect(outPath('bench/runs/primed', 'learn.json')).toBe('bench/runs/primed/learn.json');
    expect(outPath('', 'learn.md')).toBe('bench/learn.md');
  });

  it('a path ending in .md still names the report file itself', () => {
    expect(reportPath('bench/kernels-old.md', 'kernels.md')).toBe('bench/kernels-old.md');
  });

  it('a report opens with its title, its command and its commit', () => {
    expect(reportHead('Kernel benchmark', 'kernels', ['--reps', '3'], { hash: 'abc1234', dirty: true })).toEqual([
      '# Kernel benchmark',
      '',
      'Command: `npm run seed -- bench kernels --reps 3`',
      'Commit: abc1234 (dirty: the tree had uncommitted changes).',
      '',
    ]);
  });
});
