// Every layer kernel against the CPU reference (src/backend/cpu) on random inputs, on Node's WebGPU.
// Shapes are deliberately off the workgroup sizes (64 threads, 16 x 16 tiles) and small.
// Tolerance: |gpu - cpu| <= ABS + REL |cpu|. The GPU sums in float32, the CPU in float64 (JS numbers) and
// rounds once on store; a dot product of K terms of size ~1 then differs by ~K * 6e-8, so K <= 64 stays
// well inside 1e-5 absolute; attention adds exp's and the softmax's few ulp.
import { beforeAll, describe, expect, it } from 'vitest';
import { Rng } from '../../common/rng.ts';
import { attentionBackward as attentionBackwardCpu, attentionForward as attentionForwardCpu } from '../cpu/attention.ts';
import { encoderBackward as encoderBackwardCpu, encoderForward as encoderForwardCpu } from '../cpu/encoder.ts';
import { geluBackward as geluBackwardCpu, geluForward as geluForwardCpu } from '../cpu/gelu.ts';
import { layernormBackward as layernormBackwardCpu, layernormForward as layernormForwardCpu } from '../cpu/layernorm.ts';
import { matmulBackward as matmulBackwardCpu, matmulForward as matmulForwardCpu } from '../cpu/matmul.ts';
import { runKernels, worstError } from './gpu_testing.ts';
import {
  attentionBackward,
  attentionForward,
  copyRows,
  encoderBackward,
  encoderForward,
  fill,
  geluBackward,
  geluForward,
  layernormBackward,
  layernormForward,
  matmulBackward,
  matmulForward,
  packSeqRows,
  residualForward,
  tokenRowIndex,
} from './layers.ts';
import type { GpuRuntime } from './runtime.ts';
import { testRuntime } from './test_device.ts';

const ABS = 1e-5;
const REL = 1e-4;

function randn(rng: Rng, n: number, scale = 1): Float32Array<ArrayBuffer> {
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = rng.normal() * scale;
  return out;
}

describe('layer kernels on WebGPU against the CPU reference', () => {
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
    const got = await runKernels(gpu, { params, tokens, positions, dout, starts, order }, { out: B * T * C, grads: grads0.slice() }, (s, b) => {
      encoderForward(s, b.out, b.params, b.tokens, b.positions, B * T, C, 0, wpeOff);
      encoderBackward(s, b.grads, b.dout, b.starts, b.order, B * T, T, C, V, 0, wpeOff);
    });
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
      const got = await runKernels(gpu, { params, inp, dout }, { out: N * C, stats: 2 * N, dinp: dinp0.slice(), grads: grads0.slice() }, (s, b) => {
        layernormForward(s, b.out, b.stats, b.inp, b.params, 0, bOff, N, C, 1e-5);
        layernormBackward(s, b.dinp, b.grads, b.dout, b.inp, b.stats, b.params, 0, bOff, N, C);
      });
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
      const outputs = { naive: N * OC, vec4: N * OC, tiled: N * OC, dinp: N * C, grads: grads0.slice(), dinp4: N * C, grads4: grads0.slice() };
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

  it.each([
    [2, 9, 12, 3],
    [2, 16, 8, 2], // B * NH * T = 64 threads and B * T * 3C = 768: exact multiples of the workgroup
  ])('causal attention forward and backward over a batch of sequences (B %i, T %i, C %i, NH %i)', async (B, T, C, NH) => {
    const rng = new Rng(4 + T);
    const qkv = randn(rng, B * T * 3 * C);
    const dout = randn(rng, B * T * C);
    const seqs = packSeqRows([0, 1].map((b) => ({ slot: b, pos0: 0, count: T })));
    const got = await runKernels(gpu, { qkv, dout, seqs }, { out: B * T * C, att: B * NH * T * T, dpre: B * NH * T * T, dqkv: B * T * 3 * C }, (s, b) => {
      attentionForward(s, b.out, b.att, b.qkv, b.seqs, B, T, T, C, NH);
      attentionBackward(s, b.dqkv, b.dpre, b.dout, b.qkv, b.att, B, T, C, NH);
    });
    for (let b = 0; b < B; b++) {
      const q = qkv.subarray(b * T * 3 * C, (b + 1) * T * 3 * C);
      const out = new Float32Array(T * C);
      const att = new Float32Array(NH * T * T);
      attentionForwardCpu(out, att, q, 0, T, C, NH);
      const dqkv = new Float32Array(T * 3 * C);
      attentionBackwardCpu(dqkv, dout.subarray(b * T * C, (b + 1) * T * C), q, att, T, C, NH);
      expect(worstError(got.out.subarray(b * T * C), out, ABS, REL), `out ${b}`).toBeLessThanOrEqual(1);
      // Entries above the diagonal are never written on either side.
      for (let i = 0; i < att.length; i++) {
        const t = Math.floor(i / T) % T;
        if (i % T > t) att[i] = got.att[b * NH * T * T + i];
      }
      expect(worstError(got.att.subarray(b * NH * T * T), att, ABS, REL), `att ${b}`).toBeLessThanOrEqual(1);
      expect(worstError(got.dqkv.subarray(b * T * 3 * C), dqkv, ABS, REL), `dqkv ${b}`).toBeLessThanOrEqual(1);
    }
  });

  it('attention of new rows against a KV cache, ragged across streams (the decoder)', async () => {
    const rng = new Rng(5);
    const C = 8;
    const NH = 2;
    const tCap = 10;
    const slots = 3;
    const cache = randn(rng, slots * tCap * 3 * C);
    const streams = [
      { slot: 2, pos0: 4, count: 3 },
      { slot: 0, pos0: 0, count: 1 },
    ];
    const rows = 3;
    const got = await runKernels(gpu, { cache, seqs: packSeqRows(streams) }, { out: streams.length * rows * C, att: streams.length * NH * rows * 7 }, (s, b) => {
      attentionForward(s, b.out, b.att, b.cache, b.seqs, streams.length, rows, tCap, C, NH, 7);
    });
    streams.forEach((st, b) => {
      const q = cache.subarray(st.slot * tCap * 3 * C, (st.slot + 1) * tCap * 3 * C);
      const t1 = st.pos0 + st.count;
      const out = new Float32Array(st.count * C);
      attentionForwardCpu(out, new Float32Array(NH * st.count * t1), q, st.pos0, t1, C, NH);
      expect(worstError(got.out.subarray(b * rows * C, (b * rows + st.count) * C), out, ABS, REL), `stream ${b}`).toBeLessThanOrEqual(1);
      expect(Array.from(got.out.subarray((b * rows + st.count) * C, (b + 1) * rows * C)).every((x) => x === 0)).toBe(true);
    });
  });

  it('gelu forward and backward (with large arguments), residual, row copies and fill', async () => {
    const rng = new Rng(6);
    const n = 131;
    const inp = randn(rng, n, 3);
    inp[0] = 40;
    inp[1] = -40;
    inp[2] = 9.5;
    const dout = randn(rng, n);
    const other = randn(rng, n);
    const pairs = Uint32Array.of(3, 0, 0, 2);
    const got = await runKernels(gpu, { inp, dout, other, pairs }, { out: n, dinp: n, sum: n, rows: 3 * 5, filled: 70 }, (s, b) => {
      geluForward(s, b.out, b.inp, n);
      geluBackward(s, b.dinp, b.inp, b.dout, n);
      residualForward(s, b.sum, b.inp, b.other, n);
      copyRows(s, b.rows, b.inp, b.pairs, 2, 5);
      fill(s, b.filled, 67, 2.5);
    });
    const out = new Float32Array(n);
    geluForwardCpu(out, inp, n);
    const dinp = new Float32Array(n);
    geluBackwardCpu(dinp, inp, dout, n);
    expect(worstError(got.out, out, ABS, REL)).toBeLessThanOrEqual(1);
    expect(worstError(got.dinp, dinp, ABS, REL)).toBeLessThanOrEqual(1);
    expect(got.out[0]).toBe(40);
    expect(got.out[1]).toBe(-0);
    expect(worstError(got.sum, inp.map((x, i) => x + other[i]), 1e-6, 1e-6)).toBeLessThanOrEqual(1);
    expect(Array.from(got.rows.subarray(0, 5))).toEqual(Array.from(inp.subarray(15, 20)));
    expect(Array.from(got.rows.subarray(10, 15))).toEqual(Array.from(inp.subarray(0, 5)));
    expect(Array.from(got.rows.subarray(5, 10))).toEqual([0, 0, 0, 0, 0]);
    expect(Array.from(got.filled.subarray(65, 70))).toEqual([2.5, 2.5, 0, 0, 0]);
  });
});
