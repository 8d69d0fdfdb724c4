// The LayerNorm kernels against the CPU reference (src/backend/cpu/layernorm.ts) on random inputs, on
// Node's WebGPU, with row counts below, at and above the workgroup size.
// Tolerance: |gpu - cpu| <= ABS + REL |cpu|. The GPU sums in float32, the CPU in float64 (JS numbers) and
// rounds once on store; a dot product of K terms of size ~1 then differs by ~K * 6e-8, so K <= 64 stays
// well inside 1e-5 absolute; the parameter gradients sum over rows and get 1e-4.
import { beforeAll, describe, expect, it } from 'vitest';
import { Rng } from '../../common/rng.ts';
import {
  layernormBackward as layernormBackwardCpu,
  layernormForward as layernormForwardCpu,
} from '../cpu/layernorm.ts';
import { layernormBackward, layernormForward } from './layernorm.ts';
import { randn, runKernels, worstError } from './gpu_testing.ts';
import type { GpuRuntime } from './runtime.ts';
import { testRuntime } from './test_device.ts';

const ABS = 1e-5;
const REL = 1e-4;

describe('layernorm kernels on WebGPU against the CPU reference', () => {
  let gpu: GpuRuntime;
  beforeAll(async () => {
    gpu = await testRuntime();
  });

  it('layernorm forward and backward', async () => {
    const rng = new Rng(2);
    for (const [N, C] of [
      [13, 20],
      [64, 16],
      [70, 48],
    ]) {
      const bOff = 64;
      const params = randn(rng, 128);
      const inp = randn(rng, N * C, 2);
      const dout = randn(rng, N * C);
      const dinp0 = randn(rng, N * C, 0.5);
      const grads0 = randn(rng, 128, 0.1);
      const got = await runKernels(
        gpu,
        { params, inp, dout },
        { out: N * C, stats: 2 * N, dinp: dinp0.slice(), grads: grads0.slice() },
        (s, b) => {
          layernormForward(s, b.out, b.stats, b.inp, b.params, 0, bOff, N, C, 1e-5);
          layernormBackward(s, b.dinp, b.grads, b.dout, b.inp, b.stats, b.params, 0, bOff, N, C);
        },
      );
      const out = new Float32Array(N * C);
      const mean = new Float32Array(N);
      const rstd = new Float32Array(N);
      layernormForwardCpu(out, mean, rstd, inp, params, params.subarray(bOff), N, C, 1e-5);
      const dinp = dinp0.slice();
      const grads = grads0.slice();
      layernormBackwardCpu(dinp, grads, grads.subarray(bOff), dout, inp, params, mean, rstd, N, C);
      expect(worstError(got.out, out, ABS, REL), `out ${N}x${C}`).toBeLessThanOrEqual(1);
      expect(worstError(got.dinp, dinp, ABS, REL), `dinp ${N}x${C}`).toBeLessThanOrEqual(1);
      expect(worstError(got.grads, grads, 1e-4, REL), `grads ${N}x${C}`).toBeLessThanOrEqual(1);
    }
  });
});
