import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { roundUp, threadGrid, workgroupGrid } from './kernel.ts';
import { logSoftmaxWorkgroupSize } from './log_softmax.ts';

describe('workgroupGrid', () => {
  it('uses one dimension up to the limit', () => {
    expect(workgroupGrid(1)).toEqual([1, 1, 1]);
    expect(workgroupGrid(65535)).toEqual([65535, 1, 1]);
  });

  it('folds into y past the limit: 70000 -> 35000 x 2', () => {
    expect(workgroupGrid(70000)).toEqual([35000, 2, 1]);
  });

  it('covers n with every dimension within the limit and less than one row of waste (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 }), fc.integer({ min: 1, max: 65535 }), (n, limit) => {
        const [x, y, z] = workgroupGrid(n, limit);
        expect(z).toBe(1);
        expect(x).toBeLessThanOrEqual(limit);
        expect(y).toBeLessThanOrEqual(Math.ceil(n / limit));
        expect(x * y).toBeGreaterThanOrEqual(n);
        expect(x * y - n).toBeLessThan(y);
      }),
      { numRuns: 500, seed: 11 },
    );
  });

  it('rejects counts that are not positive integers', () => {
    expect(() => workgroupGrid(0)).toThrow(/positive count, got 0/);
    expect(() => workgroupGrid(2.5)).toThrow(/positive count/);
  });
});

describe('threadGrid', () => {
  it('covers the threads in workgroups of WG (64) and gives the x extent that flat_index folds by', () => {
    expect(threadGrid(0)).toBeNull();
    expect(threadGrid(1)).toEqual({ workgroups: [1, 1, 1], gridX: 1 });
    expect(threadGrid(65)).toEqual({ workgroups: [2, 1, 1], gridX: 2 });
    expect(threadGrid(64 * 70000)).toEqual({ workgroups: [35000, 2, 1], gridX: 35000 });
    expect(threadGrid(10, 4)).toEqual({ workgroups: [3, 1, 1], gridX: 3 });
    expect(() => threadGrid(-1)).toThrow(/bad thread count -1/);
  });
});

describe('sizes', () => {
  it('rounds up to a multiple', () => {
    expect([roundUp(0, 256), roundUp(1, 256), roundUp(256, 256), roundUp(257, 256)]).toEqual([0, 256, 256, 512]);
  });

  it('gives log-softmax a power-of-two workgroup in [32, 256], about 16 tokens per thread', () => {
    expect([1, 300, 512, 513, 1024, 2048, 4096, 5000].map(logSoftmaxWorkgroupSize)).toEqual([
      32, 32, 32, 64, 64, 128, 256, 256,
    ]);
  });
});
