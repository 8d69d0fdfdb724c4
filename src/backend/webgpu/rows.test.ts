// The row kernels on Node's WebGPU: copy_rows gathers and scatters whole rows by (source, target) pairs and
// touches no other row; fill writes a value to the first n floats only. Both move floats without
// arithmetic, so the results are exact.
import { beforeAll, describe, expect, it } from 'vitest';
import { Rng } from '../../common/rng.ts';
import { randn, runKernels } from './gpu_testing.ts';
import { copyRows, fill } from './rows.ts';
import type { GpuRuntime } from './runtime.ts';
import { testRuntime } from './test_device.ts';

describe('row kernels on WebGPU', () => {
  let gpu: GpuRuntime;
  beforeAll(async () => {
    gpu = await testRuntime();
  });

  it('copies rows by (source, target) pairs and fills a prefix', async () => {
    const inp = randn(new Rng(6), 131, 3);
    const pairs = Uint32Array.of(3, 0, 0, 2);
    const got = await runKernels(gpu, { inp, pairs }, { rows: 3 * 5, filled: 70 }, (s, b) => {
      copyRows(s, b.rows, b.inp, b.pairs, 2, 5);
      fill(s, b.filled, 67, 2.5);
    });
    expect(Array.from(got.rows.subarray(0, 5))).toEqual(Array.from(inp.subarray(15, 20)));
    expect(Array.from(got.rows.subarray(10, 15))).toEqual(Array.from(inp.subarray(0, 5)));
    expect(Array.from(got.rows.subarray(5, 10))).toEqual([0, 0, 0, 0, 0]);
    expect(Array.from(got.filled.subarray(65, 70))).toEqual([2.5, 2.5, 0, 0, 0]);
  });
});
