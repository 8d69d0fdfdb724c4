// The FMA microbenchmark has no CPU twin; what it must do is run every thread's chains and keep the result,
// which the float64 loop below reproduces up to float32 rounding.
import { beforeAll, describe, expect, it } from 'vitest';
import { fmaPeak } from './fma_peak.ts';
import { runKernels, worstError } from './gpu_testing.ts';
import type { GpuRuntime } from './runtime.ts';
import { testRuntime } from './test_device.ts';

describe('fma_peak on WebGPU', () => {
  let gpu: GpuRuntime;
  beforeAll(async () => {
    gpu = await testRuntime();
  });

  it('runs `iters` FMA steps on four vec4 chains per thread, one result per thread', async () => {
    const threads = 100;
    const iters = 50;
    const got = await runKernels(gpu, {}, { out: threads }, (s, b) => fmaPeak(s, b.out, iters, threads));
    const want = Array.from({ length: threads }, (_, t) => {
      const seed = Math.fround(t * 1e-7);
      let sum = 0;
      for (const start of [0, 0.5, 0.25, 0.125]) {
        for (const lane of [seed, 1, 2, 3]) {
          let x = lane + start;
          for (let i = 0; i < iters; i++) x = x * Math.fround(0.9999999) + Math.fround(1e-7);
          sum += x;
        }
      }
      return sum;
    });
    expect(worstError(got.out, want, 1e-5, 1e-5)).toBeLessThanOrEqual(1);
  });
});
