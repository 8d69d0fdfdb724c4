// The SEED kernels (probability shift, fused loss coefficient, logit gradient), the optimizer step and GPU
// sampling against the CPU reference, on Node's WebGPU.
// Tolerances: per-token values |gpu - cpu| <= 1e-6 + 1e-5 |cpu| (float32 exp and sigmoid against float64);
// loss terms 1e-6 + 1e-5 |cpu| (host sums of float32 terms); AdamW parameters 1e-6 + 1e-5 |cpu|.
import { beforeAll, describe, expect, it } from 'vitest';
import { Rng } from '../../common/rng.ts';
import { maskWords, type LossHyper, type LossInputs } from '../backend.ts';
import { adamwUpdate as adamwCpu, clipScale, gradientNorm } from '../cpu/adamw.ts';
import { allowToken, isAllowed } from '../contract.ts';
import { maskedLogSoftmax } from '../cpu/log_softmax.ts';
import { allocSampleScratch, sampleToken as sampleCpu } from '../cpu/sampling.ts';
import { seedLoss as seedLossCpu } from '../cpu/seed_loss.ts';
import { presetConfig } from '../../model/config.ts';
import { parameterLayout } from '../../model/layout.ts';
import { runKernels, worstError } from './gpu_testing.ts';
import { adamwUpdate, accumulateGradients, countNonFinite, decayBits, gradNorm, normPartials } from './optimizer.ts';
import type { GpuRuntime } from './runtime.ts';
import { sampleToken } from './sampling.ts';
import { packLossInputs, runSeedLoss, seedLogitGradient, TOKEN_OUT_FLOATS } from './seed_loss.ts';
import { testRuntime } from './test_device.ts';

function randomInputs(rng: Rng, n: number, spread: number): { lStudent: Float32Array; inputs: LossInputs } {
  const f = (g: () => number) => Float32Array.from({ length: n }, g);
  const lStudent = f(() => -rng.float() * spread);
  return {
    lStudent,
    inputs: {
      advantage: f(() => rng.normal()),
      mask: f(() => (rng.float() < 0.8 ? 1 : 0)),
      opdMask: f(() => (rng.float() < 0.6 ? 1 : 0)),
      lSkill: f(() => -rng.float() * spread),
      // l_old near l_student, so that the ratio crosses both clip edges
      lOld: lStudent.map((x) => x + (rng.float() - 0.5) * 0.8),
      lRef: f(() => -rng.float() * spread),
    },
  };
}

const HYPER: LossHyper = { lambda: 0.5, beta: 5, clip: 0.2, klCoef: 0.01, gate: true };

describe('SEED kernels on WebGPU against the CPU reference', () => {
  let gpu: GpuRuntime;
  beforeAll(async () => {
    gpu = await testRuntime();
  });

  it('probability shift, gate and fused coefficient with its three parts', async () => {
    const rng = new Rng(11);
    for (const [n, spread, hyper] of [
      [1, 3, HYPER],
      [63, 3, HYPER],
      [65, 12, { ...HYPER, gate: false }],
      [200, 40, { ...HYPER, beta: 50, lambda: 2 }],
    ] as [number, number, LossHyper][]) {
      const { lStudent, inputs } = randomInputs(rng, n, spread);
      const want = seedLossCpu(lStudent, inputs, hyper);
      const got = await runSeedLoss(gpu, lStudent, inputs, hyper);
      for (const key of ['lStudent', 'delta', 'gate', 'coef', 'coefGrpo', 'coefOpd', 'coefKl'] as const) {
        expect(worstError(got[key], want[key], 1e-6, 1e-5), `${key} n ${n}`).toBeLessThanOrEqual(1);
      }
      for (const key of ['L_GRPO', 'L_OPD', 'KL', 'total'] as const) {
        expect(worstError([got[key]], [want[key]], 1e-6, 1e-5), `${key} n ${n}`).toBeLessThanOrEqual(1);
      }
    }
  });

  it('gives mean 0 over an empty OPD mask and the gate 1/2 at zero shift', async () => {
    const n = 3;
    const inputs: LossInputs = {
      advantage: Float32Array.of(1, -1, 0.5),
      mask: Float32Array.of(1, 1, 1),
      opdMask: new Float32Array(n),
      lSkill: Float32Array.of(-1, -2, -3),
      lOld: Float32Array.of(-1, -2, -3),
      lRef: Float32Array.of(-1, -2, -3),
    };
    const got = await runSeedLoss(gpu, Float32Array.of(-1, -2, -3), inputs, HYPER);
    expect(Array.from(got.gate)).toEqual([0.5, 0.5, 0.5]);
    expect(got.L_OPD).toBe(0);
    expect(got.coefOpd.every((x) => x === 0)).toBe(true);
    // r = 1, nothing clipped: coef_grpo = -A / 3
    expect(got.coefGrpo[0]).toBeCloseTo(-1 / 3, 6);
    expect(got.coefGrpo[1]).toBeCloseTo(1 / 3, 6);
  });

  it('logit gradient c (onehot(a) - p) on allowed tokens, with extreme logits and a lone allowed token', async () => {
    const rng = new Rng(12);
    const rows = 5;
    const vocab = 70;
    const words = maskWords(vocab);
    const logits = Float32Array.from({ length: rows * vocab }, () => rng.normal() * 4);
    logits[3] = 80;
    logits[vocab + 5] = -80;
    const masks = new Uint32Array(rows * words);
    const targets = new Int32Array(rows);
    for (let r = 0; r < rows; r++) {
      targets[r] = rng.int(vocab);
      if (r === 2) {
        allowToken(masks, r, words, targets[r]);
        continue;
      }
      for (let v = 0; v < vocab; v++) if (rng.float() < 0.5 || v === 3) allowToken(masks, r, words, v);
      allowToken(masks, r, words, targets[r]);
    }
    const logp = new Float32Array(rows * vocab);
    maskedLogSoftmax(logp, logits, masks, rows, vocab);
    const coefs = Float32Array.of(0.3, -1.2, 2, 0, 1e-3);
    const tokens = new Float32Array(rows * TOKEN_OUT_FLOATS);
    coefs.forEach((c, r) => (tokens[r * TOKEN_OUT_FLOATS + 3] = c));
    const got = await runKernels(gpu, { logp, masks, targets, tokens }, { dlogits: rows * vocab }, (s, b) => {
      seedLogitGradient(s, b.dlogits, b.logp, b.masks, b.targets, b.tokens, rows, vocab);
    });
    const want = new Float32Array(rows * vocab);
    for (let r = 0; r < rows; r++) {
      for (let v = 0; v < vocab; v++) want[r * vocab + v] = isAllowed(masks, r, words, v) ? -coefs[r] * Math.exp(logp[r * vocab + v]) : 0;
      want[r * vocab + targets[r]] += coefs[r];
    }
    expect(worstError(got.dlogits, want, 1e-7, 1e-5)).toBeLessThanOrEqual(1);
    // The lone allowed token has p = 1: its gradient is exactly 0.
    expect(Array.from(got.dlogits.subarray(2 * vocab, 3 * vocab)).every((x) => x === 0)).toBe(true);
  });

  it('gradient norm, clipping and AdamW with per-view weight decay over a real layout', async () => {
    const config = presetConfig('micro', 45);
    const layout = parameterLayout(config);
    const n = layout.totalFloats;
    const rng = new Rng(13);
    const params = Float32Array.from({ length: n }, () => rng.normal() * 0.1);
    const grads = Float32Array.from({ length: n }, () => rng.normal() * 0.01);
    const m = Float32Array.from({ length: n }, () => rng.normal() * 0.001);
    const v = Float32Array.from({ length: n }, () => rng.float() * 1e-4);
    // The alignment gaps between views hold zeros, as in every real parameter buffer (and stay zero).
    const inView = new Uint8Array(n);
    for (const view of layout.list) inView.fill(1, view.offset, view.offset + view.size);
    for (const a of [params, grads, m, v]) for (let i = 0; i < n; i++) if (!inView[i]) a[i] = 0;
    const hyper = { lr: 1e-2, beta1: 0.9, beta2: 0.95, eps: 1e-8, weightDecay: 0.1, gradClip: 0.5 };
    const step = 3;
    const got = await runKernels(gpu, { decay: decayBits(layout) }, { params: params.slice(), grads: grads.slice(), m: m.slice(), v: v.slice(), state: 4, partials: normPartials(n) }, (s, b) => {
      gradNorm(s, b.state, b.partials, b.grads, n, hyper.gradClip);
      adamwUpdate(s, b.params, b.grads, b.m, b.v, b.decay, b.state, n, hyper, step);
    });
    const norm = gradientNorm(grads);
    expect(norm).toBeGreaterThan(hyper.gradClip); // the clip is active
    expect(worstError([got.state[0]], [norm], 0, 1e-5)).toBeLessThanOrEqual(1);
    expect(got.state[2]).toBe(1);
    adamwCpu(params, grads, m, v, layout, hyper, step, clipScale(norm, hyper.gradClip));
    expect(worstError(got.params, params, 1e-6, 1e-5)).toBeLessThanOrEqual(1);
    expect(worstError(got.m, m, 1e-9, 1e-5)).toBeLessThanOrEqual(1);
    expect(worstError(got.v, v, 1e-12, 1e-5)).toBeLessThanOrEqual(1);
    expect(got.grads.every((x) => x === 0)).toBe(true);
  });

  it('refuses a non-finite gradient: the norm flags it, AdamW and accumulation leave everything unchanged', async () => {
    const n = 300;
    const grads = new Float32Array(n).fill(0.01);
    grads[257] = NaN;
    const params = new Float32Array(n).fill(1);
    const hyper = { lr: 1e-2, beta1: 0.9, beta2: 0.95, eps: 1e-8, weightDecay: 0, gradClip: 1 };
    const ok = new Float32Array(7).fill(2);
    const bad = Float32Array.of(1, Infinity, 3);
    const got = await runKernels(gpu, { decay: new Uint32Array(10), ok, bad, scratch: new Float32Array(n).fill(5) }, { params, grads, m: n, v: n, state: 4, partials: 1, flagBad: 1, flagOk: 1, acc: new Float32Array(n).fill(1), accOk: new Float32Array(n).fill(1) }, (s, b) => {
      gradNorm(s, b.state, b.partials, b.grads, n, hyper.gradClip);
      adamwUpdate(s, b.params, b.grads, b.m, b.v, b.decay, b.state, n, hyper, 1);
      countNonFinite(s, b.flagBad, b.ok, 7, b.bad, 3);
      countNonFinite(s, b.flagOk, b.ok, 7, b.ok, 7);
      accumulateGradients(s, b.acc, b.scratch, b.flagBad, n);
      accumulateGradients(s, b.accOk, b.scratch, b.flagOk, n);
    });
    expect(got.state[2]).toBe(0);
    expect(got.params.every((x) => x === 1)).toBe(true);
    expect(new Uint32Array(got.flagBad.buffer)[0]).toBe(1);
    expect(new Uint32Array(got.flagOk.buffer)[0]).toBe(0);
    expect(got.acc.every((x) => x === 1)).toBe(true);
    expect(got.accOk.every((x) => x === 6)).toBe(true);
  });

  it('samples the same tokens as the CPU: greedy, temperatures 0.4 and 1, lone allowed token, extreme logits', async () => {
    const rng = new Rng(14);
    const rows = 40;
    const vocab = 45;
    const words = maskWords(vocab);
    const logits = Float32Array.from({ length: rows * vocab }, () => rng.normal() * 3);
    for (let i = 0; i < rows; i += 7) logits[i * vocab + 4] = 80;
    const masks = new Uint32Array(rows * words);
    for (let r = 0; r < rows; r++) {
      if (r % 9 === 0) allowToken(masks, r, words, rng.int(vocab));
      else for (let v = 0; v < vocab; v++) if (rng.float() < 0.6) allowToken(masks, r, words, v);
      allowToken(masks, r, words, 4);
    }
    const draws = Float32Array.from({ length: rows }, () => rng.float());
    for (const temperature of [0, 0.4, 1]) {
      const got = await runKernels(gpu, { logits, masks, draws }, { tokens: rows, logprobs: rows }, (s, b) => {
        sampleToken(s, b.tokens, b.logprobs, b.logits, b.masks, b.draws, rows, vocab, temperature);
      });
      const tokens = new Int32Array(got.tokens.buffer);
      const scratch = allocSampleScratch(vocab);
      for (let r = 0; r < rows; r++) {
        const [token, logp] = sampleCpu(logits.subarray(r * vocab, (r + 1) * vocab), masks.subarray(r * words, (r + 1) * words), vocab, temperature, draws[r], scratch);
        expect(tokens[r], `row ${r} at temperature ${temperature}`).toBe(token);
        expect(worstError([got.logprobs[r]], [logp], 2e-5, 2e-6)).toBeLessThanOrEqual(1);
      }
    }
  });

  it('packs loss inputs in struct order', () => {
    const one = Float32Array.of(1);
    const packed = packLossInputs({ advantage: one, mask: Float32Array.of(2), opdMask: Float32Array.of(3), lSkill: Float32Array.of(4), lOld: Float32Array.of(5), lRef: Float32Array.of(6) }, 1);
    expect(Array.from(packed)).toEqual([1, 2, 3, 4, 5, 6, 0, 0]);
  });
});
