// The encoder kernels against the CPU reference (src/backend/cpu/encoder.ts) on random inputs, on Node's
// WebGPU, with repeated token ids so that rows share a vocabulary row. Shapes are off the workgroup size.
// Tolerance: |gpu - cpu| <= ABS + REL |cpu|. The GPU sums in float32, the CPU in float64 (JS numbers) and
// rounds once on store; a dot product of K terms of size ~1 then differs by ~K * 6e-8, so K <= 64 stays
// well inside 1e-5 absolute.
import { beforeAll, describe, expect, it } from 'vitest';
import { Rng } from '../../common/rng.ts';
import { encoderBackward as encoderBackwardCpu, encoderForward as encoderForwardCpu } from '../cpu/encoder.ts';
import { encoderBackward, encoderForward, tokenRowIndex } from './encoder.ts';
import { randn, runKernels, worstError } from './gpu_testing.ts';
import type { GpuRuntime } from './runtime.ts';
import { testRuntime } from './test_device.ts';

const ABS = 1e-5;
const REL = 1e-4;

describe('encoder kernels on WebGPU against the CPU reference', () => {
  let gpu: GpuRuntime;
  beforeAll(async () => {
    gpu = await testRuntime();
  });

  it('encoder forward and deterministic backward (wte by vocabulary row, wpe by position)', async () => {
    const rng = new Rng(1);
    const V = 37;
    const C = 10;
    const B = 3;
    const T = 7;
    const wpeOff = 384;
    const params = randn(rng, wpeOff + 16 * C);
    const tokens = new Int32Array(B * T).map(() => rng.int(5)); // repeated ids: rows share a vocabulary row
    const positions = new Int32Array(B * T).map((_, i) => i % T);
    const dout = randn(rng, B * T * C);
    const grads0 = randn(rng, params.length, 0.1);
    const { starts, order } = tokenRowIndex(tokens, V);
    const got = await runKernels(
      gpu,
      { params, tokens, positions, dout, starts, order },
      { out: B * T * C, grads: grads0.slice() },
      (s, b) => {
        encoderForward(s, b.out, b.params, b.tokens, b.positions, B * T, C, 0, wpeOff);
        encoderBackward(s, b.grads, b.dout, b.starts, b.order, B * T, T, C, V, 0, wpeOff);
      },
    );
    const out = new Float32Array(B * T * C);
    const grads = grads0.slice();
    for (let b = 0; b < B; b++) {
      const tok = tokens.subarray(b * T, b * T + T);
      encoderForwardCpu(out.subarray(b * T * C), tok, params, params.subarray(wpeOff), T, C);
      encoderBackwardCpu(grads, grads.subarray(wpeOff), dout.subarray(b * T * C), tok, T, C);
    }
    expect(worstError(got.out, out, ABS, REL)).toBeLessThanOrEqual(1);
    expect(worstError(got.grads, grads, ABS, REL)).toBeLessThanOrEqual(1);
  });
});
