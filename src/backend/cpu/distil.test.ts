// Exact distillation on the CPU: the divergences against hand-computed values, their logit gradient against
// finite differences, and the backend's loss and parameter gradient under it against finite differences of
// its own total.
import { describe, expect, it } from 'vitest';
import { Rng } from '../../common/rng.ts';
import { validateConfig } from '../../model/config.ts';
import { maskWords, type LossHyper, type TokenBatch } from '../backend.ts';
import { makeBatch, randomLossInputs } from '../batch_testing.ts';
import { isAllowed, MASKED_LOG_PROB } from '../contract.ts';
import { CpuBackend } from './cpu_backend.ts';
import { distilDivergence, distilLogitGradient } from './distil.ts';

/** Masked log-softmax of float64 logits (MASKED_LOG_PROB where the mask forbids), rows of `vocab`. */
function logSoftmaxRows(logits: number[], masks: Uint32Array, rows: number, vocab: number): Float64Array {
  const words = maskWords(vocab);
  const out = new Float64Array(rows * vocab).fill(MASKED_LOG_PROB);
  for (let r = 0; r < rows; r++) {
    let max = -Infinity;
    for (let v = 0; v < vocab; v++) if (isAllowed(masks, r, words, v)) max = Math.max(max, logits[r * vocab + v]);
    let sum = 0;
    for (let v = 0; v < vocab; v++) if (isAllowed(masks, r, words, v)) sum += Math.exp(logits[r * vocab + v] - max);
    for (let v = 0; v < vocab; v++)
      if (isAllowed(masks, r, words, v)) out[r * vocab + v] = logits[r * vocab + v] - max - Math.log(sum);
  }
  return out;
}

/** D of one row in float64, straight from the definitions. */
function divergence64(lp: Float64Array, lq: Float64Array, alpha: number): number {
  let d = 0;
  for (let v = 0; v < lp.length; v++) {
    if (lp[v] === MASKED_LOG_PROB) continue;
    const p = Math.exp(lp[v]);
    const q = Math.exp(lq[v]);
    if (alpha === 0) d += p * Math.log(p / q);
    else {
      const m = alpha * p + (1 - alpha) * q;
      d += alpha * p * Math.log(p / m) + (1 - alpha) * q * Math.log(q / m);
    }
  }
  return d;
}

const ALL3 = Uint32Array.of(0b111);

describe('distilDivergence', () => {
  it('gives the reverse KL and the JSD of hand-computed distributions', () => {
    const p = [0.5, 0.3, 0.2];
    const q = [0.2, 0.2, 0.6];
    const lp = Float32Array.from(p, Math.log);
    const lq = Float32Array.from(q, Math.log);
    const out = new Float32Array(1);
    distilDivergence(out, lp, lq, ALL3, 1, 3, 0);
    // 0.5 ln 2.5 + 0.3 ln 1.5 + 0.2 ln(1/3)
    expect(out[0]).toBeCloseTo(0.5 * Math.log(2.5) + 0.3 * Math.log(1.5) + 0.2 * Math.log(1 / 3), 6);
    distilDivergence(out, lp, lq, ALL3, 1, 3, 0.5);
    const m = [0.35, 0.25, 0.4];
    const js =
      0.5 * p.reduce((s, pi, i) => s + pi * Math.log(pi / m[i]), 0) +
      0.5 * q.reduce((s, qi, i) => s + qi * Math.log(qi / m[i]), 0);
    expect(out[0]).toBeCloseTo(js, 6);
  });

  it('is 0 where the student and teacher agree and on a forced token, and ignores forbidden tokens', () => {
    const lp = Float32Array.of(Math.log(0.25), MASKED_LOG_PROB, Math.log(0.75));
    const out = new Float32Array(1);
    distilDivergence(out, lp, lp, Uint32Array.of(0b101), 1, 3, 0);
    expect(out[0]).toBeCloseTo(0, 7);
    const forced = Float32Array.of(0, MASKED_LOG_PROB, MASKED_LOG_PROB);
    const teacherForced = Float32Array.of(0, 3, -7);
    distilDivergence(out, forced, teacherForced, Uint32Array.of(0b001), 1, 3, 0.3);
    expect(out[0]).toBe(0);
    const grad = new Float32Array(3);
    distilLogitGradient(grad, forced, teacherForced, Uint32Array.of(0b001), Float32Array.of(1), 1, 3, 0);
    expect(Array.from(grad)).toEqual([0, 0, 0]);
  });

  it('refuses an alpha outside [0, 1) and short rows', () => {
    expect(() =>
      distilDivergence(new Float32Array(1), new Float32Array(3), new Float32Array(3), ALL3, 1, 3, 1),
    ).toThrow(/alpha must be in \[0, 1\)/);
    expect(() =>
      distilDivergence(new Float32Array(1), new Float32Array(2), new Float32Array(3), ALL3, 1, 3, 0),
    ).toThrow(/need 3 floats/);
  });
});

describe('distilLogitGradient', () => {
  for (const alpha of [0, 0.3, 0.5]) {
    it(`is the finite-difference gradient of scale * D by the student's logits (alpha ${alpha})`, () => {
      const rng = new Rng(7);
      const rows = 4;
      const V = 37;
      const words = maskWords(V);
      const masks = new Uint32Array(rows * words);
      for (let r = 0; r < rows; r++)
        for (let v = 0; v < V; v++) if (rng.float() < 0.6 || v === r) masks[r * words + (v >>> 5)] |= 1 << (v & 31);
      const z = Array.from({ length: rows * V }, () => 2 * rng.normal());
      const teacher = logSoftmaxRows(
        Array.from({ length: rows * V }, () => 2 * rng.normal()),
        masks,
        rows,
        V,
      );
      const scale = Float32Array.of(1, 0.5, -2, 0);
      const grad = new Float32Array(rows * V);
      distilLogitGradient(
        grad,
        Float32Array.from(logSoftmaxRows(z, masks, rows, V)),
        Float32Array.from(teacher),
        masks,
        scale,
        rows,
        V,
        alpha,
      );
      const h = 1e-5;
      let worst = 0;
      for (let r = 0; r < rows; r++) {
        const row = (zs: number[]) => logSoftmaxRows(zs, masks, rows, V).subarray(r * V, (r + 1) * V);
        for (let v = 0; v < V; v++) {
          const up = z.slice();
          const down = z.slice();
          up[r * V + v] += h;
          down[r * V + v] -= h;
          const lq = teacher.subarray(r * V, (r + 1) * V);
          const numeric =
            (scale[r] * (divergence64(row(up), lq, alpha) - divergence64(row(down), lq, alpha))) / (2 * h);
          if (!isAllowed(masks, r, words, v)) expect(grad[r * V + v]).toBe(0);
          worst = Math.max(worst, Math.abs(grad[r * V + v] - numeric));
        }
      }
      expect(worst).toBeLessThan(2e-5);
      expect(grad.some((g) => Math.abs(g) > 1e-2)).toBe(true);
    });
  }
});

describe('CpuBackend.lossBackward under exact distillation', () => {
  const config = validateConfig({
    vocabSize: 40,
    contextLength: 32,
    dModel: 16,
    nLayer: 2,
    nHead: 2,
    dMlp: 64,
    lnEps: 1e-5,
  });
  const V = config.vocabSize;

  function teacherRows(batch: TokenBatch, nScored: number, seed: number): Float32Array {
    const rng = new Rng(seed);
    return Float32Array.from(
      logSoftmaxRows(
        Array.from({ length: nScored * V }, () => 1.5 * rng.normal()),
        batch.masks,
        nScored,
        V,
      ),
    );
  }

  it('L_OPD is the mean divergence over the OPD mask, coef_opd is 0, and the gradient matches finite differences of the total', async () => {
    const batch = makeBatch(config, 31);
    const probe = CpuBackend.fromSeed(config, 12);
    const lStudent = await probe.score(batch);
    const n = lStudent.length;
    const base = randomLossInputs(lStudent, 3);
    // Only the OPD term: no token in the GRPO and KL mask.
    const inputs = {
      ...base,
      mask: new Float32Array(n),
      teacher: teacherRows(batch, n, 5),
      distilWeight: Float32Array.from({ length: n }, (_, k) => 0.5 + (k % 4) / 4),
    };
    const hyper: LossHyper = { lambda: 0.7, beta: 5, clip: 0.2, klCoef: 0.1, gate: true, distil: { jsdAlpha: 0 } };

    const student = await probe.scoreRows(batch);
    const div = new Float32Array(n);
    distilDivergence(div, student, inputs.teacher, batch.masks, n, V, 0);
    let sum = 0;
    let count = 0;
    for (let k = 0; k < n; k++)
      if (inputs.opdMask[k]) {
        sum += inputs.distilWeight[k] * div[k];
        count++;
      }

    const out = await probe.lossBackward(batch, inputs, hyper);
    expect(out.L_OPD).toBeCloseTo(sum / count, 5);
    expect(out.total).toBeCloseTo(0.7 * out.L_OPD, 6);
    expect(out.coefOpd.every((c) => c === 0)).toBe(true);
    for (let k = 0; k < n; k++) expect(out.divergence[k]).toBeCloseTo(inputs.opdMask[k] ? div[k] : 0, 5);

    const grads = await probe.readGradients();
    const params = await probe.readParameters();
    const order = Array.from(grads.keys())
      .sort((a, b) => Math.abs(grads[b]) - Math.abs(grads[a]))
      .slice(0, 8);
    const totalAt = async (p: Float32Array) =>
      (await new CpuBackend(config, p).lossBackward(batch, inputs, hyper)).total;
    for (const i of order) {
      const h = 2e-3;
      const up = params.slice();
      const down = params.slice();
      up[i] += h;
      down[i] -= h;
      const numeric = ((await totalAt(up)) - (await totalAt(down))) / (up[i] - down[i]);
      expect(Math.abs(numeric - grads[i])).toBeLessThan(0.03 * Math.abs(grads[i]) + 1e-5);
    }
  });

  it('refuses exact distillation without teacher rows or with rows of the wrong size', async () => {
    const batch = makeBatch(config, 2);
    const backend = CpuBackend.fromSeed(config, 1);
    const inputs = randomLossInputs(await backend.score(batch), 1);
    const hyper: LossHyper = { lambda: 1, beta: 5, clip: 0.2, klCoef: 0, gate: true, distil: { jsdAlpha: 0 } };
    await expect(backend.lossBackward(batch, inputs, hyper)).rejects.toThrow(/needs the teacher's log-probs/);
    await expect(backend.lossBackward(batch, { ...inputs, teacher: new Float32Array(3) }, hyper)).rejects.toThrow(
      /teacher has 3 floats/,
    );
    expect((await backend.readGradients()).every((x) => x === 0)).toBe(true);
  });
});
