import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { seedLoss } from './cpu/seed_loss.ts';
import {
  LossJsonError,
  lossOutputToJson,
  lossProblemFromJson,
  lossProblemToJson,
  parseLossProblem,
  shortestFloat32,
} from './loss_json.ts';

const token = { l_student: -1.2, l_skill: -0.8, l_old: -1.1, l_ref: -1.3, advantage: 0.5, mask: 1, opd_mask: 1 };
const valid = { lambda: 0.01, beta: 5, clip: 0.2, kl_coef: 0.01, tokens: [token, { ...token, mask: 0 }] };

function errorOf(value: unknown): string {
  try {
    lossProblemFromJson(value);
  } catch (err) {
    expect(err).toBeInstanceOf(LossJsonError);
    return (err as Error).message;
  }
  throw new Error('expected a LossJsonError');
}

describe('loss JSON input', () => {
  it('reads the hyper-parameters and the per-token columns', () => {
    const p = parseLossProblem(JSON.stringify(valid));
    expect(p.hyper).toEqual({ lambda: 0.01, beta: 5, clip: 0.2, klCoef: 0.01, gate: true });
    expect(Array.from(p.lStudent)).toEqual([Math.fround(-1.2), Math.fround(-1.2)]);
    expect(p.inputs.lSkill[0]).toBe(Math.fround(-0.8));
    expect(p.inputs.lOld[1]).toBe(Math.fround(-1.1));
    expect(p.inputs.lRef[0]).toBe(Math.fround(-1.3));
    expect(Array.from(p.inputs.mask)).toEqual([1, 0]);
    expect(Array.from(p.inputs.opdMask)).toEqual([1, 1]);
    expect(Array.from(p.inputs.advantage)).toEqual([0.5, 0.5]);
  });

  it('round-trips through lossProblemToJson', () => {
    const p = parseLossProblem(JSON.stringify(valid));
    expect(lossProblemToJson(p)).toEqual(valid);
  });

  it('names the problem of a malformed input', () => {
    const withToken = (patch: object) => ({
      ...valid,
      tokens: [token, token, token, { ...token, ...patch }],
    });
    const { l_skill: _dropped, ...noSkill } = token;
    const cases: [unknown, RegExp][] = [
      [[1, 2], /must be a JSON object \(got an array\)/],
      [{ ...valid, beta: 'five' }, /^beta must be a finite number \(got the string "five"\)/],
      [{ ...valid, lambda: null }, /^lambda must be a finite number \(got null\)/],
      [{ ...valid, clip: -0.1 }, /^setting clip is outside \[0, 1\), got -0.1$/],
      [{ ...valid, clip: 7 }, /^setting clip is outside \[0, 1\), got 7$/],
      [{ ...valid, lambda: -50 }, /^setting lambda is outside \[0, 100\], got -50$/],
      [{ ...valid, beta: -3 }, /^setting beta is outside \[0, 100\], got -3$/],
      [{ ...valid, kl_coef: -1 }, /^setting klCoef is outside \[0, 10\], got -1$/],
      [{ ...valid, kl_coef: undefined }, /^kl_coef is missing/],
      [{ ...valid, tokens: [] }, /^tokens must hold at least one token/],
      [{ ...valid, tokens: {} }, /^tokens must be an array/],
      [{ ...valid, tokens: undefined }, /^tokens must be an array \(got nothing\)/],
      [{ ...valid, tokens: [token, 3] }, /^tokens\[1\] must be an object \(got 3\)/],
      [{ ...valid, tokens: [token, token, token, noSkill] }, /^tokens\[3\]\.l_skill is missing/],
      [withToken({ l_skill: '1' }), /^tokens\[3\]\.l_skill must be a finite number/],
      [withToken({ advantage: 1e39 }), /^tokens\[3\]\.advantage .*overflows float32/],
      [withToken({ mask: 0.5 }), /^tokens\[3\]\.mask must be 0 or 1 \(got 0\.5\)/],
      [withToken({ opd_mask: true }), /^tokens\[3\]\.opd_mask must be a finite number \(got a boolean\)/],
      [withToken({ lstudent: 1 }), /^unknown field tokens\[3\]\.lstudent/],
      [{ ...valid, gamma: 1 }, /^unknown field gamma/],
    ];
    for (const [value, message] of cases) expect(errorOf(value)).toMatch(message);
  });

  it('reads past what a run noted beside each token, and checks its types', () => {
    const note = {
      trajectory: 2,
      step: 1,
      token: 'go',
      delta: 0.25,
      gate: 0.5,
      coef: -0.1,
      coef_grpo: 0,
      coef_opd: -0.1,
      coef_kl: 0,
    };
    const noted = { ...valid, tokens: valid.tokens.map((t) => ({ ...t, ...note })) };
    expect(parseLossProblem(JSON.stringify(noted))).toEqual(parseLossProblem(JSON.stringify(valid)));
    const p = parseLossProblem(JSON.stringify(valid));
    expect(lossProblemToJson(p, [note, { token: 'to' }])).toEqual({
      ...valid,
      tokens: [
        { ...token, ...note },
        { ...token, mask: 0, token: 'to' },
      ],
    });
    const bad = (patch: object) => errorOf({ ...valid, tokens: [token, { ...token, ...patch }] });
    expect(bad({ token: 3 })).toMatch(/^tokens\[1\]\.token must be a string \(got 3\)/);
    expect(bad({ gate: 'high' })).toMatch(/^tokens\[1\]\.gate must be a finite number/);
    expect(bad({ step: 1.5 })).toMatch(/^tokens\[1\]\.step must be an integer >= 0 \(got 1\.5\)/);
    expect(bad({ trajectory: -1 })).toMatch(/^tokens\[1\]\.trajectory must be an integer >= 0/);
    expect(bad({ deltta: 1 })).toMatch(/^unknown field tokens\[1\]\.deltta/);
  });

  it('names infinite numbers and bad JSON', () => {
    expect(() => parseLossProblem('{"lambda": 1e999}')).toThrow(/^lambda must be a finite number \(got Infinity\)/);
    expect(() => parseLossProblem('{"lambda": NaN}')).toThrow(/^not valid JSON/);
    expect(() => parseLossProblem('')).toThrow(/^not valid JSON/);
  });
});

describe('loss JSON output', () => {
  it('holds the terms and per-token delta, gate and coef', () => {
    const p = parseLossProblem(JSON.stringify(valid));
    const out = seedLoss(p.lStudent, p.inputs, p.hyper);
    const json = lossOutputToJson(out) as {
      L_GRPO: number;
      total: number;
      tokens: { delta: number; gate: number; coef: number }[];
    };
    expect(json.L_GRPO).toBe(out.L_GRPO);
    expect(json.total).toBe(out.total);
    expect(json.tokens).toHaveLength(2);
    expect(Object.keys(json.tokens[0])).toEqual(['delta', 'gate', 'coef']);
    expect(Math.fround(json.tokens[1].coef)).toBe(out.coef[1]);
    expect(json.tokens[0].delta).toBe(0.40000004);
  });

  it('prints float32 values with the fewest digits that read back the same', () => {
    expect(shortestFloat32(Math.fround(0.1))).toBe(0.1);
    expect(shortestFloat32(Math.fround(-1.2))).toBe(-1.2);
    expect(shortestFloat32(0)).toBe(0);
    fc.assert(
      fc.property(fc.float({ noNaN: true, noDefaultInfinity: true }), (x) => {
        expect(Math.fround(shortestFloat32(x))).toBe(x);
        const significand = Math.abs(shortestFloat32(x)).toExponential().split('e')[0].replace('.', '');
        expect(significand.length).toBeLessThanOrEqual(9);
      }),
    );
  });
});
