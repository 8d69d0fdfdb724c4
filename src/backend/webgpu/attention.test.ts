// The attention kernels against the CPU reference (src/backend/cpu/attention.ts) on random inputs, on
// Node's WebGPU: a training batch of sequences, and new rows of ragged streams against a KV cache.
// Tolerance: |gpu - cpu| <= ABS + REL |cpu|. The GPU sums in float32, the CPU in float64 (JS numbers) and
// rounds once on store; a dot product of K terms of size ~1 then differs by ~K * 6e-8, so K <= 64 stays
// well inside 1e-5 absolute; attention adds exp's and the softmax's few ulp.
import { beforeAll, describe, expect, it } from 'vitest';
import { Rng } from '../../common/rng.ts';
import {
  attentionBackward as attentionBackwardCpu,
  attentionForward as attentionForwardCpu,
} from '../cpu/attention.ts';
import { attentionBackward, attentionForward, packSeqRows } from './attention.ts';
import { randn, runKernels, worstError } from './gpu_testing.ts';
import type { GpuRuntime } from './runtime.ts';
import { testRuntime } from './test_device.ts';

const ABS = 1e-5;
const REL = 1e-4;

describe('attention kernels on WebGPU against the CPU reference', () => {
  let gpu: GpuRuntime;
  beforeAll(async () => {
    gpu = await testRuntime();
  });

  it.each([
    [2, 9, 12, 3],
    [2, 16, 8, 2], // B * NH * T = 64 threads and B * T * 3C = 768: exact multiples of the workgroup
  ])(
    'causal attention forward and backward over a batch of sequences (B %i, T %i, C %i, NH %i)',
    async (B, T, C, NH) => {
      const rng = new Rng(4 + T);
      const qkv = randn(rng, B * T * 3 * C);
      const dout = randn(rng, B * T * C);
      const seqs = packSeqRows([0, 1].map((b) => ({ slot: b, pos0: 0, count: T })));
      const got = await runKernels(
        gpu,
        { qkv, dout, seqs },
        { out: B * T * C, att: B * NH * T * T, dpre: B * NH * T * T, dqkv: B * T * 3 * C },
        (s, b) => {
          attentionForward(s, b.out, b.att, b.qkv, b.seqs, B, T, T, C, NH);
          attentionBackward(s, b.dqkv, b.dpre, b.dout, b.qkv, b.att, B, T, C, NH);
        },
      );
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
    },
  );

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
    const got = await runKernels(
      gpu,
      { cache, seqs: packSeqRows(streams) },
      { out: streams.length * rows * C, att: streams.length * NH * rows * 7 },
      (s, b) => {
        attentionForward(s, b.out, b.att, b.cache, b.seqs, streams.length, rows, tCap, C, NH, 7);
      },
    );
    streams.forEach((st, b) => {
      const q = cache.subarray(st.slot * tCap * 3 * C, (st.slot + 1) * tCap * 3 * C);
      const t1 = st.pos0 + st.count;
      const out = new Float32Array(st.count * C);
      attentionForwardCpu(out, new Float32Array(NH * st.count * t1), q, st.pos0, t1, C, NH);
      expect(
        worstError(got.out.subarray(b * rows * C, (b * rows + st.count) * C), out, ABS, REL),
        `stream ${b}`,
      ).toBeLessThanOrEqual(1);
      expect(Array.from(got.out.subarray((b * rows + st.count) * C, (b + 1) * rows * C)).every((x) => x === 0)).toBe(
        true,
      );
    });
  });
});
