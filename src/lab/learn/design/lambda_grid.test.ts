// A lambda grid stated by OPD share: share s is an OPD / GRPO norm ratio s / (1 - s), divided by the world's ratio
// per lambda for the arm's kind of distillation.
import { describe, expect, it } from 'vitest';
import { lambdaForShare, lambdaGrid } from './lambda_grid.ts';

describe('a lambda grid by OPD share', () => {
  it('turns a share into a lambda, to two significant digits', () => {
    expect(lambdaForShare(0.5, 1)).toBe(1);
    // 0.2 / 0.8 = 0.25, / 3.2 = 0.078125.
    expect(lambdaForShare(0.2, 3.2)).toBe(0.078);
    // 0.05 / 0.95 = 0.05263..., / 0.5 = 0.10526...
    expect(lambdaForShare(0.05, 0.5)).toBe(0.11);
    expect(() => lambdaForShare(1, 1)).toThrow(RangeError);
    expect(() => lambdaForShare(0, 1)).toThrow(RangeError);
    expect(() => lambdaForShare(0.5, 0)).toThrow(RangeError);
  });

  it("uses the ratio of the arm's kind of distillation, each lambda once and ascending", () => {
    const facts = { opdRatioPerLambda: { sampled: 1, exact: 4 } };
    expect(lambdaGrid([0.5, 0.2], facts, 'seed')).toEqual([0.25, 1]);
    expect(lambdaGrid([0.5, 0.2], facts, 'seed-exact-crossgame')).toEqual([0.063, 0.25]);
    // Two shares that round to the same lambda give it once.
    expect(lambdaGrid([0.2, 0.2001], facts, 'seed')).toEqual([0.25]);
  });
});
