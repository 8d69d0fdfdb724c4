import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Rng } from '../../common/rng.ts';
import type { LossHyper, LossInputs } from '../backend.ts';
import { firstNonFinite } from '../contract.ts';
import { grpoClipped, seedLoss, sigmoid } from './seed_loss.ts';

type Token = { ls: number; lSkill: number; lOld: number; lRef: number; a: number; mask: number; opd: number };

function pack(tokens: Token[]): { lStudent: Float32Array; inputs: LossInputs } {
  const col = (f: (t: Token) => number) => Float32Array.from(tokens.map(f));
  return {
    lStudent: col((t) => t.ls),
    inputs: {
      advantage: col((t) => t.a),
      mask: col((t) => t.mask),
      opdMask: col((t) => t.opd),
      lSkill: col((t) => t.lSkill),
      lOld: col((t) => t.lOld),
      lRef: col((t) => t.lRef),
    },
  };
}

const LN2 = Math.log(2);
const LN3 = Math.log(3);
const LN1_5 = Math.log(1.5);

describe('seedLoss on a hand-worked example', () => {
  // lambda 0.5, beta 2, clip 0.2, klCoef 0.1, gate on. Masks: mask = [1,1,1,0] (N = 3),
  // opd_mask = [1,1,0,1] (N_opd = 3; token 3 is in opd_mask but not in mask).
  //
  // token 0: l_student -1, l_old -1 -> r = 1, A = 2: unclipped, term -min(2, 2) = -2, coefGrpo = -A r / N = -2/3.
  //          l_skill -1 -> Delta 0, g = sigmoid(0) = 1/2; OPD term 0; coefOpd = -lambda g / N_opd = -1/12.
  //          l_ref -1 -> KL term e^0 - 0 - 1 = 0; coefKl = 0.1 (1 - e^0) / 3 = 0.
  // token 1: l_student -2, l_old -2 - ln 1.5 -> r = 1.5 > 1.2 with A = 1 > 0: clipped, term -min(1.5, 1.2) = -1.2,
  //          coefGrpo = 0. l_skill = -2 + ln(3)/2 -> beta Delta = ln 3, g = 3/(3+1) = 3/4,
  //          OPD term 3/4 * ln(3)/2; coefOpd = -0.5 * 3/4 / 3 = -1/8.
  //          l_ref = -2 + ln 2 -> KL term 2 - ln 2 - 1 = 1 - ln 2; coefKl = 0.1 (1 - 2) / 3 = -1/30.
  // token 2: l_student -0.5, l_old -0.5 + ln 2 -> r = 1/2 < 0.8 with A = -1 < 0: clipped,
  //          term -min(-0.5, -0.8) = 0.8, coefGrpo = 0. Not in opd_mask. l_ref = l_student: KL 0, coefKl 0.
  // token 3: not in mask (no GRPO, no KL). l_student -3, l_skill = -3 - ln(3)/2 -> beta Delta = -ln 3, g = 1/4,
  //          OPD term 1/4 * -ln(3)/2; coefOpd = -0.5 * 1/4 / 3 = -1/24.
  //
  // L_GRPO = (-2 - 1.2 + 0.8) / 3 = -0.8
  // L_OPD  = (0 + 3/8 ln 3 - 1/8 ln 3) / 3 = ln(3) / 12
  // KL     = (1 - ln 2) / 3
  // total  = -0.8 + 0.5 ln(3)/12 + 0.1 (1 - ln 2)/3
  const hyper: LossHyper = { lambda: 0.5, beta: 2, clip: 0.2, klCoef: 0.1, gate: true };
  const tokens: Token[] = [
    { ls: -1, lSkill: -1, lOld: -1, lRef: -1, a: 2, mask: 1, opd: 1 },
    { ls: -2, lSkill: -2 + LN3 / 2, lOld: -2 - LN1_5, lRef: -2 + LN2, a: 1, mask: 1, opd: 1 },
    { ls: -0.5, lSkill: -0.5, lOld: -0.5 + LN2, lRef: -0.5, a: -1, mask: 1, opd: 0 },
    { ls: -3, lSkill: -3 - LN3 / 2, lOld: -3, lRef: -3, a: 5, mask: 0, opd: 1 },
  ];
  const { lStudent, inputs } = pack(tokens);
  const out = seedLoss(lStudent, inputs, hyper);
  const tol = 1e-6;

  it('computes the loss terms', () => {
    expect(out.L_GRPO).toBeCloseTo(-0.8, 6);
    expect(out.L_OPD).toBeCloseTo(LN3 / 12, 6);
    expect(out.KL).toBeCloseTo((1 - LN2) / 3, 6);
    expect(out.total).toBeCloseTo(-0.8 + (0.5 * LN3) / 12 + (0.1 * (1 - LN2)) / 3, 6);
  });

  it('computes the per-token shift and gate', () => {
    const delta = [0, LN3 / 2, 0, -LN3 / 2];
    const gate = [0.5, 0.75, 0.5, 0.25];
    for (let k = 0; k < 4; k++) {
      expect(Math.abs(out.delta[k] - delta[k])).toBeLessThan(tol);
      expect(Math.abs(out.gate[k] - gate[k])).toBeLessThan(tol);
      expect(out.lStudent[k]).toBe(lStudent[k]);
    }
  });

  it('computes the per-token coefficients and their parts', () => {
    const grpo = [-2 / 3, 0, 0, 0];
    const opd = [-1 / 12, -1 / 8, 0, -1 / 24];
    const kl = [0, -1 / 30, 0, 0];
    for (let k = 0; k < 4; k++) {
      expect(Math.abs(out.coefGrpo[k] - grpo[k])).toBeLessThan(tol);
      expect(Math.abs(out.coefOpd[k] - opd[k])).toBeLessThan(tol);
      expect(Math.abs(out.coefKl[k] - kl[k])).toBeLessThan(tol);
      expect(Math.abs(out.coef[k] - (grpo[k] + opd[k] + kl[k]))).toBeLessThan(tol);
    }
    expect(firstNonFinite(out)).toBeNull();
  });
});

describe('seedLoss clip cases', () => {
  const hyper: LossHyper = { lambda: 0, beta: 5, clip: 0.2, klCoef: 0, gate: true };
  // One token, mask 1, l_old = 0 so r = exp(l_student). Expected: [term, coefGrpo] with N = 1.
  const cases: [string, number, number, number, number][] = [
    // name, r, A, expected term -min(rA, clip(r)A), expected coef
    ['A > 0, r inside', 1.1, 2, -2.2, -2.2],
    ['A > 0, r above 1+eps: clipped', 1.5, 2, -2.4, 0],
    ['A > 0, r below 1-eps: unclipped', 0.5, 2, -1.0, -1.0],
    ['A < 0, r inside', 0.9, -2, 1.8, 1.8],
    ['A < 0, r below 1-eps: clipped', 0.5, -2, 1.6, 0],
    ['A < 0, r above 1+eps: unclipped', 1.5, -2, 3.0, 3.0],
    ['A = 0', 3, 0, 0, 0],
  ];
  for (const [name, r, a, term, coef] of cases) {
    it(name, () => {
      const { lStudent, inputs } = pack([{ ls: Math.log(r), lSkill: 0, lOld: 0, lRef: 0, a, mask: 1, opd: 0 }]);
      const rr = Math.exp(lStudent[0]); // r after the float32 rounding of l_student
      const out = seedLoss(lStudent, inputs, hyper);
      expect(out.L_GRPO).toBeCloseTo(term, 5);
      expect(out.coefGrpo[0]).toBeCloseTo(coef === 0 ? 0 : -a * rr, 5);
      expect(out.coefGrpo[0]).toBeCloseTo(coef, 5);
      expect(grpoClipped(rr, a, 0.2)).toBe(coef === 0 && a !== 0);
    });
  }
});

describe('seedLoss edge cases', () => {
  it('gives zero means and zero coefficients over empty masks', () => {
    const { lStudent, inputs } = pack([
      { ls: -1, lSkill: -0.5, lOld: -2, lRef: -0.3, a: 1, mask: 0, opd: 0 },
      { ls: -2, lSkill: -2.5, lOld: -1, lRef: -3, a: -1, mask: 0, opd: 0 },
    ]);
    const out = seedLoss(lStudent, inputs, { lambda: 1, beta: 5, clip: 0.2, klCoef: 1, gate: true });
    expect([out.L_GRPO, out.L_OPD, out.KL, out.total]).toEqual([0, 0, 0, 0]);
    expect(Array.from(out.coef, Math.abs)).toEqual([0, 0]);
    // The shift and gate are still reported for the UI: Delta = -0.5 - (-1) = 0.5, g = sigmoid(2.5).
    expect(out.delta[0]).toBeCloseTo(0.5, 6);
    expect(out.gate[0]).toBeCloseTo(1 / (1 + Math.exp(-2.5)), 6);
  });

  it('handles an empty batch', () => {
    const { lStudent, inputs } = pack([]);
    const out = seedLoss(lStudent, inputs, { lambda: 1, beta: 5, clip: 0.2, klCoef: 1, gate: true });
    expect([out.L_GRPO, out.L_OPD, out.KL, out.total]).toEqual([0, 0, 0, 0]);
  });

  it('uses g = 1 with the gate off', () => {
    // opd_mask = [1, 1]: L_OPD = ((-1 - -2) + (-4 - -3)) / 2 = (1 - 1) / 2 = 0; coefOpd = -lambda / 2 = -0.25.
    const { lStudent, inputs } = pack([
      { ls: -2, lSkill: -1, lOld: -2, lRef: -2, a: 0, mask: 1, opd: 1 },
      { ls: -3, lSkill: -4, lOld: -3, lRef: -3, a: 0, mask: 1, opd: 1 },
    ]);
    const out = seedLoss(lStudent, inputs, { lambda: 0.5, beta: 5, clip: 0.2, klCoef: 0, gate: false });
    expect(Array.from(out.gate)).toEqual([1, 1]);
    expect(out.L_OPD).toBeCloseTo(0, 7);
    expect(Array.from(out.coefOpd)).toEqual([-0.25, -0.25]);
    // With the gate on the same tokens weigh sigmoid(+5) and sigmoid(-5).
    const gated = seedLoss(lStudent, inputs, { lambda: 0.5, beta: 5, clip: 0.2, klCoef: 0, gate: true });
    expect(gated.L_OPD).toBeCloseTo((sigmoid(5) * 1 + sigmoid(-5) * -1) / 2, 6);
    expect(gated.coefOpd[0]).toBeCloseTo(-0.25 * sigmoid(5), 6);
  });

  it('counts opd_mask on its own when it is not a subset of mask', () => {
    // mask = [1, 0, 0], opd_mask = [0, 1, 1]: N = 1, N_opd = 2. Token 0 gets only GRPO/KL, tokens 1-2 only OPD.
    const { lStudent, inputs } = pack([
      { ls: -1, lSkill: -1, lOld: -1, lRef: -1 + LN2, a: 1, mask: 1, opd: 0 },
      { ls: -1, lSkill: -1, lOld: -5, lRef: -9, a: 3, mask: 0, opd: 1 },
      { ls: -2, lSkill: -2, lOld: -5, lRef: -9, a: 3, mask: 0, opd: 1 },
    ]);
    const out = seedLoss(lStudent, inputs, { lambda: 1, beta: 5, clip: 0.2, klCoef: 1, gate: true });
    // token 0: coefGrpo = -1 * 1 / 1; coefKl = 1 * (1 - 2) / 1 = -1; KL = 2 - ln 2 - 1.
    expect(out.coefGrpo[0]).toBeCloseTo(-1, 6);
    expect(out.coefKl[0]).toBeCloseTo(-1, 6);
    expect(Math.abs(out.coefOpd[0])).toBe(0);
    expect(out.KL).toBeCloseTo(1 - LN2, 6);
    expect(out.L_GRPO).toBeCloseTo(-1, 6);
    // tokens 1-2: Delta = 0, g = 1/2, coefOpd = -1 * 0.5 / 2.
    for (const k of [1, 2]) {
      expect(Math.abs(out.coefGrpo[k])).toBe(0);
      expect(Math.abs(out.coefKl[k])).toBe(0);
      expect(out.coefOpd[k]).toBeCloseTo(-0.25, 7);
    }
  });

  it('reports non-finite results', () => {
    const { lStudent, inputs } = pack([{ ls: 0, lSkill: 0, lOld: -800, lRef: 0, a: -1, mask: 1, opd: 0 }]);
    const out = seedLoss(lStudent, inputs, { lambda: 0, beta: 5, clip: 0.2, klCoef: 0, gate: true });
    expect(firstNonFinite(out)).toEqual(['L_GRPO', 'value Infinity']);
  });

  it('rejects arrays of different lengths', () => {
    const { lStudent, inputs } = pack([{ ls: 0, lSkill: 0, lOld: 0, lRef: 0, a: 1, mask: 1, opd: 0 }]);
    inputs.lRef = new Float32Array(2);
    expect(() => seedLoss(lStudent, inputs, { lambda: 0, beta: 5, clip: 0.2, klCoef: 0, gate: true })).toThrow(
      /lRef has 2 tokens, l_student has 1/,
    );
  });
});

describe('seedLoss gradient matches finite differences', () => {
  // coef must be d total / d l_student with Delta and g held fixed (stop-gradient). Moving l_skill together with
  // l_student keeps Delta, g and the OPD term fixed, so that difference measures the GRPO + KL parts; with the
  // gate off (g = 1, no stop-gradient subtlety) the plain difference measures the whole coefficient.
  function randomTokens(rng: Rng, n: number, clip: number): Token[] {
    const tokens: Token[] = [];
    while (tokens.length < n) {
      const ls = -4 * rng.float() - 0.05;
      const lOld = ls + (rng.float() - 0.5);
      const r = Math.exp(ls - lOld);
      // Stay away from the clip kinks, where the derivative jumps.
      if (Math.abs(r - (1 + clip)) < 0.03 || Math.abs(r - (1 - clip)) < 0.03) continue;
      tokens.push({
        ls,
        lOld,
        lSkill: ls + rng.normal(),
        lRef: ls + 0.5 * rng.normal(),
        a: 2 * rng.normal(),
        mask: rng.float() < 0.8 ? 1 : 0,
        opd: rng.float() < 0.6 ? 1 : 0,
      });
    }
    return tokens;
  }

  function central(
    lStudent: Float32Array,
    inputs: LossInputs,
    hyper: LossHyper,
    k: number,
    moveSkill: boolean,
  ): number {
    // A power of two keeps l_student +- h and l_skill +- h exact in float32, so the quotient measures the
    // loss, not the rounding of the moved inputs.
    const h = 2 ** -10;
    const plus = Math.fround(lStudent[k] + h);
    const minus = Math.fround(lStudent[k] - h);
    const at = (v: number) => {
      const ls = lStudent.slice();
      const skill = inputs.lSkill.slice();
      if (moveSkill) skill[k] = inputs.lSkill[k] + (v - lStudent[k]);
      ls[k] = v;
      return seedLoss(ls, { ...inputs, lSkill: skill }, hyper).total;
    };
    return (at(plus) - at(minus)) / (plus - minus);
  }

  it('for random tokens, gate on and off', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.integer({ min: 1, max: 8 }),
        fc.boolean(),
        (seed, n, gate) => {
          const rng = new Rng(seed);
          const hyper: LossHyper = {
            lambda: 0.05 + rng.float(),
            beta: 0.5 + 5 * rng.float(),
            clip: 0.1 + 0.2 * rng.float(),
            klCoef: 0.05 + 0.5 * rng.float(),
            gate,
          };
          const { lStudent, inputs } = pack(randomTokens(rng, n, hyper.clip));
          const out = seedLoss(lStudent, inputs, hyper);
          for (let k = 0; k < n; k++) {
            const grpoKl = central(lStudent, inputs, hyper, k, true);
            expect(Math.abs(grpoKl - (out.coefGrpo[k] + out.coefKl[k]))).toBeLessThan(1e-4 + 1e-3 * Math.abs(grpoKl));
            if (!gate) {
              const all = central(lStudent, inputs, hyper, k, false);
              expect(Math.abs(all - out.coef[k])).toBeLessThan(1e-4 + 1e-3 * Math.abs(all));
            }
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
