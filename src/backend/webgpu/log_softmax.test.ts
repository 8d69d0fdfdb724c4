// GPU masked log-softmax and gather against the CPU reference, on Node's WebGPU (Dawn).
// Tolerance: |gpu - cpu| <= 2e-5 + 2e-6 * |cpu|. The GPU works in f32 with a tree-ordered sum and WGSL's
// exp/log (a few ulp), the reference in f64; a log-prob of magnitude x carries ~x * 1.2e-7 of f32 rounding,
// and the sum over a few hundred tokens adds a few ulp of the log-sum.
import { beforeAll, describe, expect, it } from 'vitest';
import { Rng } from '../../common/rng.ts';
import { maskWords } from '../backend.ts';
import { MASKED_LOG_PROB, allowToken } from '../contract.ts';
import { gatherLogProbs as gatherCpu, maskedLogSoftmax as softmaxCpu } from '../cpu/log_softmax.ts';
import { gatherLogProbs, maskedLogSoftmax, runLogSoftmax } from './log_softmax.ts';
import type { GpuRuntime } from './runtime.ts';
import { testRuntime } from './test_device.ts';

const ABS_TOL = 2e-5;
const REL_TOL = 2e-6;

interface Case {
  rows: number;
  vocab: number;
  logits: Float32Array<ArrayBuffer>;
  masks: Uint32Array<ArrayBuffer>;
  targets: Int32Array<ArrayBuffer>;
}

function randomCase(rng: Rng, rows: number, vocab: number, scale: number, allowedFraction: number): Case {
  const words = maskWords(vocab);
  const logits = new Float32Array(rows * vocab);
  for (let i = 0; i < logits.length; i++) logits[i] = (rng.float() * 2 - 1) * scale;
  const masks = new Uint32Array(rows * words);
  const targets = new Int32Array(rows);
  for (let r = 0; r < rows; r++) {
    for (let v = 0; v < vocab; v++) if (rng.float() < allowedFraction) allowToken(masks, r, words, v);
    targets[r] = rng.int(vocab);
    allowToken(masks, r, words, targets[r]);
  }
  return { rows, vocab, logits, masks, targets };
}

function reference(c: Case): { logProbs: Float32Array; gathered: Float32Array } {
  const logProbs = new Float32Array(c.rows * c.vocab);
  softmaxCpu(logProbs, c.logits, c.masks, c.rows, c.vocab);
  const gathered = new Float32Array(c.rows);
  gatherCpu(gathered, logProbs, c.targets, c.rows, c.vocab);
  return { logProbs, gathered };
}

/** Largest |gpu - cpu| / (ABS_TOL + REL_TOL * |cpu|): <= 1 passes. Masked entries must match exactly. */
function worstRatio(gpu: Float32Array, cpu: Float32Array): number {
  let worst = 0;
  for (let i = 0; i < cpu.length; i++) {
    if (cpu[i] === Math.fround(MASKED_LOG_PROB)) {
      if (gpu[i] !== cpu[i]) return Infinity;
      continue;
    }
    const ratio = Math.abs(gpu[i] - cpu[i]) / (ABS_TOL + REL_TOL * Math.abs(cpu[i]));
    if (!(ratio <= worst)) worst = Number.isNaN(ratio) ? Infinity : ratio;
  }
  return worst;
}

describe('masked_log_softmax / gather_log_probs on WebGPU', () => {
  let gpu: GpuRuntime;
  beforeAll(async () => {
    gpu = await testRuntime();
  });

  it('matches the CPU reference on random shapes, including vocabularies off the workgroup size', async () => {
    const rng = new Rng(1234);
    const shapes: [number, number][] = [
      [1, 1],
      [3, 7],
      [5, 31],
      [4, 32],
      [6, 33],
      [2, 255],
      [3, 257],
      [2, 300],
      [9, 517],
      [2, 1000],
    ];
    for (const [rows, vocab] of shapes) {
      const c = randomCase(rng, rows, vocab, 10, 0.6);
      const want = reference(c);
      const got = await runLogSoftmax(gpu, c.logits, c.masks, c.targets, rows, vocab);
      expect(worstRatio(got.logProbs, want.logProbs), `rows ${rows} vocab ${vocab}`).toBeLessThanOrEqual(1);
      expect(worstRatio(got.gathered, want.gathered), `gather rows ${rows} vocab ${vocab}`).toBeLessThanOrEqual(1);
    }
  });

  it('gives the same answer at every workgroup size', async () => {
    const c = randomCase(new Rng(5), 4, 300, 10, 0.5);
    const want = reference(c);
    for (const wg of [32, 64, 128, 256]) {
      const got = await runLogSoftmax(gpu, c.logits, c.masks, c.targets, c.rows, c.vocab, wg);
      expect(worstRatio(got.logProbs, want.logProbs), `workgroup ${wg}`).toBeLessThanOrEqual(1);
    }
  });

  it('stays finite with logits of +-80 and with every token allowed', async () => {
    const c = randomCase(new Rng(9), 6, 129, 80, 1);
    for (let i = 0; i < c.logits.length; i += 3) c.logits[i] = i % 2 === 0 ? 80 : -80;
    const want = reference(c);
    const got = await runLogSoftmax(gpu, c.logits, c.masks, c.targets, c.rows, c.vocab);
    expect(got.logProbs.every(Number.isFinite)).toBe(true);
    expect(worstRatio(got.logProbs, want.logProbs)).toBeLessThanOrEqual(1);
  });

  it('gives log p = 0 to a lone allowed token and -ln V to equal logits', async () => {
    const vocab = 70;
    const words = maskWords(vocab);
    const logits = new Float32Array(2 * vocab).fill(3.5);
    logits[vocab + 40] = -80;
    const masks = new Uint32Array(2 * words);
    for (let v = 0; v < vocab; v++) allowToken(masks, 0, words, v);
    allowToken(masks, 1, words, 40);
    const got = await runLogSoftmax(gpu, logits, masks, Int32Array.of(5, 40), 2, vocab);
    for (let v = 0; v < vocab; v++) expect(got.logProbs[v]).toBeCloseTo(-Math.log(vocab), 5);
    expect(got.logProbs[vocab + 40]).toBe(0);
    expect(got.logProbs[vocab + 39]).toBe(Math.fround(MASKED_LOG_PROB));
    expect(Array.from(got.gathered)).toEqual([expect.closeTo(-Math.log(vocab), 5), 0]);
  });

  it('marks a row with no allowed token and a target outside the vocabulary', async () => {
    const vocab = 40;
    const masks = new Uint32Array(2 * maskWords(vocab));
    masks[maskWords(vocab)] = 1; // row 1 allows token 0 only; row 0 allows nothing
    const got = await runLogSoftmax(gpu, new Float32Array(2 * vocab).fill(1), masks, Int32Array.of(0, 40), 2, vocab);
    expect(got.logProbs.subarray(0, vocab).every((x) => x === Math.fround(MASKED_LOG_PROB))).toBe(true);
    expect(got.logProbs[vocab]).toBe(0);
    expect(got.gathered[0]).toBe(Math.fround(MASKED_LOG_PROB));
    expect(got.gathered[1]).toBe(Math.fround(MASKED_LOG_PROB));
  });

  it('is bit-for-bit deterministic', async () => {
    const c = randomCase(new Rng(77), 5, 300, 20, 0.7);
    const first = await runLogSoftmax(gpu, c.logits, c.masks, c.targets, c.rows, c.vocab);
    const second = await runLogSoftmax(gpu, c.logits, c.masks, c.targets, c.rows, c.vocab);
    expect(Buffer.from(second.logProbs.buffer).equals(Buffer.from(first.logProbs.buffer))).toBe(true);
  });

  it('folds more than 65 535 workgroups into a 2-D grid', async () => {
    // 70 000 rows: 70 000 softmax workgroups, and 70 000 gather workgroups of one thread each.
    const c = randomCase(new Rng(3), 70_000, 2, 5, 0.5);
    const want = reference(c);
    const buffers = [c.logits, c.masks, c.targets].map((data) => gpu.upload(data));
    const [logits, masks, targets] = buffers;
    const logProbs = gpu.buffer(c.logits.byteLength);
    const gathered = gpu.buffer(c.rows * 4);
    const stage = gpu.stage('fold');
    maskedLogSoftmax(stage, logProbs, logits, masks, c.rows, c.vocab);
    gatherLogProbs(stage, gathered, logProbs, targets, c.rows, c.vocab, 1);
    const gotLogProbs = stage.read(logProbs, c.logits.byteLength);
    const gotGathered = stage.read(gathered, c.rows * 4);
    await stage.submit();
    expect(worstRatio(new Float32Array(await gotLogProbs), want.logProbs)).toBeLessThanOrEqual(1);
    expect(worstRatio(new Float32Array(await gotGathered), want.gathered)).toBeLessThanOrEqual(1);
    gpu.release(...buffers, logProbs, gathered);
  });
});
