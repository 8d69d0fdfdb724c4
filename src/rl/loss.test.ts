import { describe, expect, it } from 'vitest';
import { deltaAdvantageCorrelation } from './loss.ts';
import type { UpdateState } from './update_state.ts';

// Masks of two 32-bit words per token: a choice between two tokens that lie in different words, and a
// single allowed token.
const CHOICE = [1 << 3, 1 << 7];
const FORCED = [0, 1 << 7];

function sequence(masks: number[][]) {
  return { ids: new Int32Array(masks.length + 1), positions: Int32Array.from(masks, (_, k) => k + 1), masks: Uint32Array.from(masks.flat()) };
}

/** Trajectory 0 (advantage 1) has two sequences (windowed layout), trajectory 1 (advantage -1) one. */
function state(delta: number[], opdMask: number[], advantages = [1, -1]): UpdateState {
  return {
    trajectories: [{ sequences: [sequence([CHOICE, CHOICE]), sequence([FORCED])] }, { sequences: [sequence([CHOICE, CHOICE, CHOICE])] }],
    tokenOffsets: Int32Array.from([0, 3, 6]),
    advantages: Float64Array.from(advantages),
    inputs: { opdMask: Float32Array.from(opdMask) },
    loss: { delta: Float32Array.from(delta) },
  } as unknown as UpdateState;
}

describe('corr(Delta, advantage) on decision tokens', () => {
  it('matches a hand computation, leaving out forced tokens and tokens without a skill', () => {
    // Decision tokens: (0.5, 1), (0.25, 1), (-0.5, -1), (0.125, -1); token 2 is forced, token 5 has no skill.
    const st = state([0.5, 0.25, 9, -0.5, 0.125, 7], [1, 1, 1, 1, 1, 0]);
    const x = [0.5, 0.25, -0.5, 0.125];
    const y = [1, 1, -1, -1];
    const mx = (0.5 + 0.25 - 0.5 + 0.125) / 4;
    const cov = x.reduce((s, xi, k) => s + (xi - mx) * y[k], 0);
    const vx = x.reduce((s, xi) => s + (xi - mx) ** 2, 0);
    expect(deltaAdvantageCorrelation(st)).toBeCloseTo(cov / Math.sqrt(vx * 4), 6);
    // By hand: mean 0.09375, covariance sum 1.125, variance sums 0.54296875 and 4: r = 1.125 / sqrt(2.171875).
    expect(deltaAdvantageCorrelation(st)).toBeCloseTo(0.763370, 5);
  });

  it('is null before the loss, with fewer than 2 decision tokens, or without variance', () => {
    expect(deltaAdvantageCorrelation({ ...state([0, 0, 0, 0, 0, 0], [1, 1, 1, 1, 1, 1]), loss: null })).toBeNull();
    expect(deltaAdvantageCorrelation(state([0.5, 0.25, 9, -0.5, 0.125, 7], [1, 0, 1, 0, 0, 0]))).toBeNull();
    expect(deltaAdvantageCorrelation(state([0.5, 0.25, 9, -0.5, 0.125, 7], [1, 1, 1, 1, 1, 1], [2, 2]))).toBeNull();
    expect(deltaAdvantageCorrelation(state([0.5, 0.5, 9, 0.5, 0.5, 0.5], [1, 1, 1, 1, 1, 1]))).toBeNull();
  });
});
