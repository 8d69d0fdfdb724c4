// The GELU kernels against the CPU reference (src/backend/cpu/gelu.ts) on random inputs, on Node's WebGPU,
// with arguments large enough that an unclamped tanh would overflow.
// Tolerance: |gpu - cpu| <= ABS + REL |cpu| (float32 tanh against float64).
import { beforeAll, describe, expect, it } from 'vitest';
import { Rng } from '../../common/rng.ts';
import { geluBackward as geluBackwardCpu, geluForward as geluForwardCpu } from '../cpu/gelu.ts';
import { geluBackward, geluForward } from './gelu.ts';
import { randn, runKernels, worstError } from './gpu_testing.ts';
import type { GpuRuntime } from './runtime.ts';
import { testRuntime } from './test_device.ts';

const ABS = 1e-5;
const REL = 1e-4;

describe('gelu kernels on WebGPU against the CPU reference', () => {
  let gpu: GpuRuntime;
  beforeAll(async () => {
    gpu = await testRuntime();
  });

  it('gelu forward and backward, with large arguments', async () => {
    const rng = new Rng(6);
    const n = 131;
    const inp = randn(rng, n, 3);
    inp[0] = 40;
    inp[1] = -40;
    inp[2] = 9.5;
    const dout = randn(rng, n);
    const got = await runKernels(gpu, { inp, dout }, { out: n, dinp: n }, (s, b) => {
      geluForward(s, b.out, b.inp, n);
      geluBackward(s, b.dinp, b.inp, b.dout, n);
    });
    const out = new Float32Array(n);
    geluForwardCpu(out, inp, n);
    const dinp = new Float32Array(n);
    geluBackwardCpu(dinp, inp, dout, n);
    expect(worstError(got.out, out, ABS, REL)).toBeLessThanOrEqual(1);
    expect(worstError(got.dinp, dinp, ABS, REL)).toBeLessThanOrEqual(1);
    expect(got.out[0]).toBe(40);
    expect(got.out[1]).toBe(-0);
  });
});
