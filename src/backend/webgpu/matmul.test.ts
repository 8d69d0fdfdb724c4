// The matmul kernels (naive, vec4, tiled) against the CPU reference (src/backend/cpu/matmul.ts) on random
// inputs, on Node's WebGPU. Shapes are off the workgroup size and the 16 x 16 tiles, with C both a multiple
// of 4 (the vec4 kernels) and not (their scalar fallback).
// Tolerance: |gpu - cpu| <= ABS + REL |cpu|. The GPU sums in float32, the CPU in float64 (JS numbers) and
// rounds once on store; a dot product of K terms of size ~1 then differs by ~K * 6e-8, so K <= 64 stays
// well inside 1e-5 absolute; weight gradients sum over rows and get 1e-4.
import { beforeAll, describe, expect, it } from 'vitest';
import { Rng } from '../../common/rng.ts';
import { matmulBackward as matmulBackwardCpu, matmulForward as matmulForwardCpu } from '../cpu/matmul.ts';
import { residualForward as residualForwardCpu } from '../cpu/residual.ts';
import { matmulBackward, matmulForward, type MatmulVariant } from './matmul.ts';
import { randn, runKernels, worstError } from './gpu_testing.ts';
import type { GpuRuntime } from './runtime.ts';
import { testRuntime } from './test_device.ts';

const ABS = 1e-5;
const REL = 1e-4;

describe('matmul kernels on WebGPU against the CPU reference', () => {
  let gpu: GpuRuntime;
  beforeAll(async () => {
    gpu = await testRuntime();
  });

  it('matmul forward (naive, vec4 and tiled, with and without bias) and backward (naive and vec4)', async () => {
    const rng = new Rng(3);
    // C = 13 takes the scalar fallback of the vec4 variant; C = 48 and 16 the vec4 kernels.
    for (const [N, C, OC, bias] of [
      [19, 13, 23, true],
      [33, 48, 17, false],
      [5, 16, 64, true],
      [7, 20, 30, true],
    ] as [number, number, number, boolean][]) {
      const bOff = Math.ceil((OC * C) / 64) * 64;
      const params = randn(rng, bOff + OC);
      const inp = randn(rng, N * C);
      const dout = randn(rng, N * OC);
      const grads0 = randn(rng, params.length, 0.1);
      const bo = bias ? bOff : null;
      const outputs = {
        naive: N * OC,
        vec4: N * OC,
        tiled: N * OC,
        dinp: N * C,
        grads: grads0.slice(),
        dinp4: N * C,
        grads4: grads0.slice(),
      };
      const got = await runKernels(gpu, { params, inp, dout }, outputs, (s, b) => {
        matmulForward(s, b.naive, b.inp, b.params, 0, bo, N, C, OC, 'naive');
        matmulForward(s, b.vec4, b.inp, b.params, 0, bo, N, C, OC, 'vec4');
        matmulForward(s, b.tiled, b.inp, b.params, 0, bo, N, C, OC, 'tiled');
        matmulBackward(s, b.dinp, b.grads, b.dout, b.inp, b.params, 0, bo, N, C, OC, 'naive');
        matmulBackward(s, b.dinp4, b.grads4, b.dout, b.inp, b.params, 0, bo, N, C, OC, 'vec4');
      });
      const out = new Float32Array(N * OC);
      matmulForwardCpu(out, inp, params, bias ? params.subarray(bOff) : null, N, C, OC);
      const dinp = new Float32Array(N * C);
      const grads = grads0.slice();
      matmulBackwardCpu(dinp, grads, bias ? grads.subarray(bOff) : null, dout, inp, params, N, C, OC);
      const what = `${N}x${C}x${OC}`;
      expect(worstError(got.naive, out, ABS, REL), `naive ${what}`).toBeLessThanOrEqual(1);
      expect(worstError(got.tiled, out, ABS, REL), `tiled ${what}`).toBeLessThanOrEqual(1);
      expect(worstError(got.vec4, out, ABS, REL), `vec4 ${what}`).toBeLessThanOrEqual(1);
      expect(worstError(got.dinp4, dinp, ABS, REL), `dinp vec4 ${what}`).toBeLessThanOrEqual(1);
      expect(worstError(got.grads4, grads, 1e-4, REL), `grads vec4 ${what}`).toBeLessThanOrEqual(1);
      expect(worstError(got.dinp, dinp, ABS, REL), `dinp ${what}`).toBeLessThanOrEqual(1);
      expect(worstError(got.grads, grads, 1e-4, REL), `grads ${what}`).toBeLessThanOrEqual(1);
    }
  });

  it('adds the residual in the same pass: exactly the float32 sum of the plain output and the residual', async () => {
    const rng = new Rng(4);
    const variants: MatmulVariant[] = ['naive', 'vec4', 'tiled'];
    for (const [N, C, OC] of [
      [19, 13, 23],
      [33, 48, 17],
    ]) {
      const bOff = Math.ceil((OC * C) / 64) * 64;
      const params = randn(rng, bOff + OC);
      const inp = randn(rng, N * C);
      const residual = randn(rng, N * OC, 3);
      const outputs = Object.fromEntries(
        variants.flatMap((v) => [
          [`plain ${v}`, N * OC],
          [`fused ${v}`, N * OC],
        ]),
      );
      const got = await runKernels(gpu, { params, inp, residual }, outputs, (s, b) => {
        for (const v of variants) {
          matmulForward(s, b[`plain ${v}`], b.inp, b.params, 0, bOff, N, C, OC, v);
          matmulForward(s, b[`fused ${v}`], b.inp, b.params, 0, bOff, N, C, OC, v, b.residual);
        }
      });
      for (const v of variants) {
        const expected = new Float32Array(N * OC);
        residualForwardCpu(expected, residual, got[`plain ${v}`], N * OC);
        expect(Array.from(got[`fused ${v}`]), `${v} ${N}x${C}x${OC}`).toEqual(Array.from(expected));
      }
    }
  });
});
