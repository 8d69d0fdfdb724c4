// The SEED kernels (probability shift, fused loss coefficient, also under exact distillation, logit
// gradient) against the CPU reference (src/backend/cpu/seed_loss.ts and the dlogits loop of
// cpu_backend.ts), on Node's WebGPU.
// Tolerances: per-token values |gpu - cpu| <= 1e-6 + 1e-5 |cpu| (float32 exp and sigmoid against float64);
// loss terms 1e-6 + 1e-5 |cpu| (host sums of float32 terms).
import { beforeAll, describe, expect, it } from 'vitest';
import { Rng } from '../../common/rng.ts';
import { maskWords, type LossHyper, type LossInputs } from '../backend.ts';
import { allowToken, isAllowed } from '../contract.ts';
import { maskedLogSoftmax } from '../cpu/log_softmax.ts';
import { seedLoss as seedLossCpu } from '../cpu/seed_loss.ts';
import { runKernels, worstError } from './gpu_testing.ts';
import type { GpuRuntime } from './runtime.ts';
import { testRuntime } from './test_device.ts';
import { packLossInputs, runSeedLoss, seedLogitGradient, TOKEN_IN, TOKEN_OUT, TOKEN_OUT_FLOATS } from './seed_loss.ts';

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
      for (const key of ['lStudent', 'delta', 'gate', 'coef', 'coefGrpo', 'coefOpd', 'coefKl', 'divergence'] as const) {
        expect(worstError(got[key], want[key], 1e-6, 1e-5), `${key} n ${n}`).toBeLessThanOrEqual(1);
      }
      for (const key of ['L_GRPO', 'L_OPD', 'KL', 'total'] as const) {
        expect(worstError([got[key]], [want[key]], 1e-6, 1e-5), `${key} n ${n}`).toBeLessThanOrEqual(1);
      }
    }
  });

  it('takes the divergences as the OPD term under exact distillation, with a zero OPD coefficient', async () => {
    const rng = new Rng(13);
    const n = 70;
    const { lStudent, inputs } = randomInputs(rng, n, 3);
    const divergence = Float32Array.from(inputs.opdMask, (opd) => (opd === 0 ? 0 : 2 * rng.float()));
    const weighted = { ...inputs, distilWeight: Float32Array.from({ length: n }, () => 0.5 + rng.float()) };
    for (const [given, hyper] of [
      [inputs, { ...HYPER, distil: { jsdAlpha: 0 } }],
      [weighted, { ...HYPER, lambda: 2, distil: { jsdAlpha: 0.3 } }],
    ] as [LossInputs, LossHyper][]) {
      const want = seedLossCpu(lStudent, given, hyper, divergence);
      const got = await runSeedLoss(gpu, lStudent, given, hyper, divergence);
      for (const key of ['lStudent', 'delta', 'gate', 'coef', 'coefGrpo', 'coefOpd', 'coefKl', 'divergence'] as const) {
        expect(worstError(got[key], want[key], 1e-6, 1e-5), key).toBeLessThanOrEqual(1);
      }
      for (const key of ['L_GRPO', 'L_OPD', 'KL', 'total'] as const) {
        expect(worstError([got[key]], [want[key]], 1e-6, 1e-5), key).toBeLessThanOrEqual(1);
      }
      expect(got.coefOpd.every((c) => c === 0)).toBe(true);
      expect(got.L_OPD).toBeGreaterThan(0.1);
    }
    await expect(runSeedLoss(gpu, lStudent, inputs, HYPER, divergence.subarray(1))).rejects.toThrow(
      /69 divergences for 70 tokens/,
    );
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
    coefs.forEach((c, r) => {
      tokens[r * TOKEN_OUT_FLOATS + TOKEN_OUT.offsets.coef] = c;
    });
    const got = await runKernels(gpu, { logp, masks, targets, tokens }, { dlogits: rows * vocab }, (s, b) => {
      seedLogitGradient(s, b.dlogits, b.logp, b.masks, b.targets, b.tokens, rows, vocab);
    });
    const want = new Float32Array(rows * vocab);
    for (let r = 0; r < rows; r++) {
      for (let v = 0; v < vocab; v++)
        want[r * vocab + v] = isAllowed(masks, r, words, v) ? -coefs[r] * Math.exp(logp[r * vocab + v]) : 0;
      want[r * vocab + targets[r]] += coefs[r];
    }
    expect(worstError(got.dlogits, want, 1e-7, 1e-5)).toBeLessThanOrEqual(1);
    // The lone allowed token has p = 1: its gradient is exactly 0.
    expect(Array.from(got.dlogits.subarray(2 * vocab, 3 * vocab)).every((x) => x === 0)).toBe(true);
  });

  it('packs loss inputs in struct order', () => {
    const one = Float32Array.of(1);
    const packed = packLossInputs(
      {
        advantage: one,
        mask: Float32Array.of(2),
        opdMask: Float32Array.of(3),
        lSkill: Float32Array.of(4),
        lOld: Float32Array.of(5),
        lRef: Float32Array.of(6),
      },
      1,
    );
    expect(Array.from(packed)).toEqual([1, 2, 3, 4, 5, 6, 1, 0]);
    const weighted = packLossInputs(
      {
        advantage: one,
        mask: one,
        opdMask: one,
        lSkill: one,
        lOld: one,
        lRef: one,
        distilWeight: Float32Array.of(0.25),
      },
      1,
    );
    expect(weighted[TOKEN_IN.offsets.distil_weight]).toBe(0.25);
  });
});
