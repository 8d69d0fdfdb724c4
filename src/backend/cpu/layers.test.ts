// Finite-difference gradient checks of every CPU layer, in float64: each backward must match central
// differences of loss = sum(probe * out) to a relative error of 1e-6 (float64 central differences with
// h = 1e-5 are accurate to ~1e-9 on these smooth functions).
import { describe, expect, it } from 'vitest';
import { Rng } from '../../common/rng.ts';
import { attentionBackward, attentionForward } from './attention.ts';
import { encoderBackward, encoderForward } from './encoder.ts';
import { geluBackward, geluForward } from './gelu.ts';
import { layernormBackward, layernormForward } from './layernorm.ts';
import { matmulBackward, matmulForward } from './matmul.ts';
import { residualBackward, residualForward } from './residual.ts';

const H = 1e-5;
const REL_TOL = 1e-6;

function randn(rng: Rng, n: number, scale = 1): Float64Array {
  const a = new Float64Array(n);
  for (let i = 0; i < n; i++) a[i] = scale * rng.normal();
  return a;
}

function dot(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

/** Max |analytic - numeric| / max(1, |numeric|) over every entry of x. */
function checkGrad(x: Float64Array, analytic: Float64Array, loss: () => number): number {
  let worst = 0;
  for (let i = 0; i < x.length; i++) {
    const keep = x[i];
    x[i] = keep + H;
    const up = loss();
    x[i] = keep - H;
    const down = loss();
    x[i] = keep;
    const numeric = (up - down) / (2 * H);
    worst = Math.max(worst, Math.abs(analytic[i] - numeric) / Math.max(1, Math.abs(numeric)));
  }
  return worst;
}

describe('CPU layers: forward values', () => {
  it('matmul computes bias + inp . weight rows (hand-computed)', () => {
    const inp = new Float64Array([1, 2, 3, 4, 5, 6]); // [2, 3]
    const w = new Float64Array([1, 0, -1, 2, 1, 0, 0, 0, 1, 1, 1, 1, 3, 0, 0]); // [5, 3]
    const b = new Float64Array([0.5, 0, 0, -1, 0]);
    const out = new Float64Array(10);
    matmulForward(out, inp, w, b, 2, 3, 5);
    expect(Array.from(out)).toEqual([-1.5, 4, 3, 5, 3, -1.5, 13, 6, 14, 12]);
  });

  it('gelu is the tanh form: gelu(1) = 0.8411920, gelu(-2) = -0.0454023', () => {
    const out = new Float64Array(2);
    geluForward(out, new Float64Array([1, -2]), 2);
    expect(out[0]).toBeCloseTo(0.841192, 6);
    expect(out[1]).toBeCloseTo(-0.0454023, 6);
    const far = new Float64Array(3);
    geluForward(far, new Float64Array([60, -60, 0]), 3);
    expect(Array.from(far)).toEqual([60, 0, 0]);
  });

  it('layernorm normalises each row to mean 0, variance 1 before the affine map', () => {
    const out = new Float64Array(4);
    const mean = new Float64Array(1);
    const rstd = new Float64Array(1);
    layernormForward(
      out,
      mean,
      rstd,
      new Float64Array([1, 2, 3, 6]),
      new Float64Array([1, 1, 2, 1]),
      new Float64Array([0, 0, 0, 1]),
      1,
      4,
      0,
    );
    // mean 3, variance (4+1+0+9)/4 = 3.5
    const s = 1 / Math.sqrt(3.5);
    expect(mean[0]).toBe(3);
    expect(out[0]).toBeCloseTo(-2 * s, 12);
    expect(out[2]).toBe(0);
    expect(out[3]).toBeCloseTo(3 * s + 1, 12);
  });

  it('attention of a single position returns its own value vector', () => {
    const C = 4;
    const qkv = new Float64Array([0.3, -1, 2, 0.5, 1, 1, 1, 1, 7, 8, 9, 10]);
    const out = new Float64Array(C);
    const att = new Float64Array(2);
    attentionForward(out, att, qkv, 0, 1, C, 2);
    expect(Array.from(out)).toEqual([7, 8, 9, 10]);
    expect(Array.from(att)).toEqual([1, 1]);
  });
});

describe('CPU layers: gradients against finite differences (float64)', () => {
  const rng = new Rng(1234);

  it('matmulBackward (with bias, odd sizes so every blocking remainder runs)', () => {
    for (const [N, C, OC] of [
      [5, 3, 7],
      [4, 6, 8],
      [1, 2, 1],
    ]) {
      const inp = randn(rng, N * C);
      const w = randn(rng, OC * C);
      const b = randn(rng, OC);
      const probe = randn(rng, N * OC);
      const out = new Float64Array(N * OC);
      const loss = () => {
        matmulForward(out, inp, w, b, N, C, OC);
        return dot(out, probe);
      };
      const dinp = new Float64Array(N * C);
      const dw = new Float64Array(OC * C);
      const db = new Float64Array(OC);
      matmulBackward(dinp, dw, db, probe, inp, w, N, C, OC);
      expect(checkGrad(inp, dinp, loss)).toBeLessThan(REL_TOL);
      expect(checkGrad(w, dw, loss)).toBeLessThan(REL_TOL);
      expect(checkGrad(b, db, loss)).toBeLessThan(REL_TOL);
    }
  });

  it('layernormBackward', () => {
    const N = 3;
    const C = 5;
    const inp = randn(rng, N * C, 2);
    const w = randn(rng, C);
    const b = randn(rng, C);
    const probe = randn(rng, N * C);
    const out = new Float64Array(N * C);
    const mean = new Float64Array(N);
    const rstd = new Float64Array(N);
    const loss = () => {
      layernormForward(out, mean, rstd, inp, w, b, N, C, 1e-5);
      return dot(out, probe);
    };
    loss();
    const dinp = new Float64Array(N * C);
    const dw = new Float64Array(C);
    const db = new Float64Array(C);
    layernormBackward(dinp, dw, db, probe, inp, w, mean, rstd, N, C);
    expect(checkGrad(inp, dinp, loss)).toBeLessThan(REL_TOL);
    expect(checkGrad(w, dw, loss)).toBeLessThan(REL_TOL);
    expect(checkGrad(b, db, loss)).toBeLessThan(REL_TOL);
  });

  it('attentionBackward (causal, 3 heads)', () => {
    const T = 5;
    const C = 6;
    const NH = 3;
    const qkv = randn(rng, T * 3 * C);
    const probe = randn(rng, T * C);
    const out = new Float64Array(T * C);
    const att = new Float64Array(NH * T * T);
    const loss = () => {
      attentionForward(out, att, qkv, 0, T, C, NH);
      return dot(out, probe);
    };
    loss();
    const dqkv = new Float64Array(T * 3 * C);
    attentionBackward(dqkv, probe, qkv, att, T, C, NH);
    expect(checkGrad(qkv, dqkv, loss)).toBeLessThan(REL_TOL);
  });

  it('geluBackward', () => {
    const N = 40;
    const inp = randn(rng, N, 3);
    const probe = randn(rng, N);
    const out = new Float64Array(N);
    const loss = () => {
      geluForward(out, inp, N);
      return dot(out, probe);
    };
    const dinp = new Float64Array(N);
    geluBackward(dinp, inp, probe, N);
    expect(checkGrad(inp, dinp, loss)).toBeLessThan(REL_TOL);
  });

  it('residualBackward', () => {
    const N = 7;
    const a = randn(rng, N);
    const b = randn(rng, N);
    const probe = randn(rng, N);
    const out = new Float64Array(N);
    const loss = () => {
      residualForward(out, a, b, N);
      return dot(out, probe);
    };
    const da = new Float64Array(N);
    const db = new Float64Array(N);
    residualBackward(da, db, probe, N);
    expect(checkGrad(a, da, loss)).toBeLessThan(REL_TOL);
    expect(checkGrad(b, db, loss)).toBeLessThan(REL_TOL);
  });

  it('encoderBackward (a repeated token accumulates both rows)', () => {
    const V = 4;
    const C = 3;
    const T = 3;
    const tokens = new Int32Array([2, 0, 2]);
    const wte = randn(rng, V * C);
    const wpe = randn(rng, 5 * C);
    const probe = randn(rng, T * C);
    const out = new Float64Array(T * C);
    const loss = () => {
      encoderForward(out, tokens, wte, wpe, T, C, 1);
      return dot(out, probe);
    };
    const dwte = new Float64Array(V * C);
    const dwpe = new Float64Array(5 * C);
    encoderBackward(dwte, dwpe, probe, tokens, T, C, 1);
    expect(checkGrad(wte, dwte, loss)).toBeLessThan(REL_TOL);
    expect(checkGrad(wpe, dwpe, loss)).toBeLessThan(REL_TOL);
    expect(dwpe[0]).toBe(0); // position 0 is not used with pos0 = 1
  });
});
