import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { householdEnvironment } from '../worlds/household/env/environment.ts';
import { SHOP } from '../worlds/shop/env/environment.ts';
import { groupAdvantages, groupStats, rewardProblem, rewardsStage } from './advantages.ts';
import { totalReward } from './rollout.ts';
import type { UpdateState } from './update_state.ts';

const bySuccess = { winReward: 10, invalidPenalty: 0.1, scoreReward: 0 };
const byScore = { ...bySuccess, scoreReward: 1 };

describe('rewards and group advantages', () => {
  it('R = 10 won - 0.1 invalid (scoreReward 0), whatever the score', () => {
    expect(totalReward({ won: true, invalid: 3, score: 1 }, bySuccess)).toBeCloseTo(9.7, 12);
    expect(totalReward({ won: false, invalid: 2, score: 0.75 }, bySuccess)).toBeCloseTo(-0.2, 12);
    expect(totalReward({ won: false, invalid: 0, score: null }, bySuccess)).toBe(0);
  });

  it('R = 10 score - 0.1 invalid (scoreReward 1), and no reward from a score a world has not', () => {
    expect(totalReward({ won: false, invalid: 2, score: 0.75 }, byScore)).toBeCloseTo(7.3, 12);
    expect(totalReward({ won: true, invalid: 0, score: 1 }, byScore)).toBe(10);
    expect(totalReward({ won: false, invalid: 1, score: 0 }, byScore)).toBeCloseTo(-0.1, 12);
    // winReward 4, invalidPenalty 0.5: 4 * 0.6 - 0.5 = 1.9.
    expect(totalReward({ won: false, invalid: 1, score: 0.6 }, { ...byScore, winReward: 4, invalidPenalty: 0.5 })).toBe(
      1.9,
    );
    expect(() => totalReward({ won: true, invalid: 0, score: null }, byScore)).toThrow(/gives none/);
  });

  it('takes scoreReward 1 only in a world with a score', () => {
    expect(rewardProblem(SHOP, byScore)).toBeNull();
    expect(rewardProblem(householdEnvironment(), bySuccess)).toBeNull();
    expect(rewardProblem(householdEnvironment(), byScore)).toBe(
      "scoreReward=1 trains on the world's score, and the household has none (success is its only result): use scoreReward=0",
    );
  });

  it('computes the group advantages from the scores under scoreReward 1, from success under 0', () => {
    // One group of four: scores 1 (won), 0.5, 0, 0.5, no invalid command.
    const trajectories = [1, 0.5, 0, 0.5].map((score) => ({
      task: 0,
      won: score === 1,
      score,
      invalid: 0,
      records: [{}, {}],
    }));
    const stage = (config: typeof bySuccess) => {
      const st = { config, trajectories } as unknown as UpdateState;
      rewardsStage(st);
      return st;
    };
    // Rewards 10, 5, 0, 5: mean 5, std sqrt(50 / 3) = 4.0825.
    const scored = stage(byScore);
    expect(Array.from(scored.rewards)).toEqual([10, 5, 0, 5]);
    const std = Math.sqrt(50 / 3) + 1e-6;
    expect(Array.from(scored.advantages)).toEqual([5 / std, 0, -5 / std, 0]);
    // By success: 10, 0, 0, 0: mean 2.5, std 5.
    const won = stage(bySuccess);
    expect(Array.from(won.rewards)).toEqual([10, 0, 0, 0]);
    expect(won.advantages[0]).toBeCloseTo(7.5 / (5 + 1e-6), 12);
    expect(won.advantages[1]).toBeCloseTo(-2.5 / (5 + 1e-6), 12);
  });

  it('matches hand-computed values (std with N - 1, eps 1e-6)', () => {
    // Group 0: rewards 10, 0, 0, 10 -> mean 5, std sqrt(100/3) = 5.7735.
    // Group 1: 9.8, -0.1 -> mean 4.85, std sqrt(2 * 4.95^2) = 7.0004.
    const a = groupAdvantages([10, 0, 9.8, 0, 10, -0.1], [0, 0, 1, 0, 0, 1], [3, 5, 2, 5, 4, 5], false).advantages;
    const s0 = Math.sqrt(100 / 3) + 1e-6;
    expect(a[0]).toBeCloseTo(5 / s0, 9);
    expect(a[1]).toBeCloseTo(-5 / s0, 9);
    expect(a[2]).toBeCloseTo(4.95 / (Math.sqrt(2 * 4.95 * 4.95) + 1e-6), 9);
    expect(a[5]).toBeCloseTo(-Math.SQRT1_2, 6);
  });

  it('a group of one: mean 0, std 1; an all-equal group: advantage 0', () => {
    expect(groupAdvantages([9.7], [0], [3], false).advantages[0]).toBeCloseTo(9.7 / (1 + 1e-6), 12);
    expect(Array.from(groupAdvantages([0, 0, 0], [1, 1, 1], [1, 1, 1], false).advantages)).toEqual([0, 0, 0]);
  });

  it('step-normalised statistics weigh each trajectory by its steps', () => {
    // Rewards 10 (2 steps) and 0 (6 steps): samples 10,10,0,0,0,0,0,0 -> mean 2.5, std sqrt((2*56.25+6*6.25)/7).
    const { advantages: a, groups } = groupAdvantages([10, 0], [0, 0], [2, 6], true);
    const std = Math.sqrt((2 * 56.25 + 6 * 6.25) / 7);
    expect(a[0]).toBeCloseTo(7.5 / (std + 1e-6), 9);
    expect(a[1]).toBeCloseTo(-2.5 / (std + 1e-6), 9);
    // The statistics the advantages used are returned with them: the step-weighted ones, not the plain mean 5.
    expect(groups).toHaveLength(1);
    expect(groups[0].mean).toBeCloseTo(2.5, 12);
    expect(groups[0].std).toBeCloseTo(std, 12);
  });

  it('returns each group with its members, in order of their first trajectory', () => {
    const { groups } = groupAdvantages([10, 0, 9.8, 0, 10, -0.1], [1, 1, 0, 1, 1, 0], [1, 1, 1, 1, 1, 1], false);
    expect(groups.map((g) => [g.task, g.members])).toEqual([
      [1, [0, 1, 3, 4]],
      [0, [2, 5]],
    ]);
    expect(groups[0].mean).toBeCloseTo(5, 12);
    expect(groups[1].mean).toBeCloseTo(4.85, 12);
  });

  it('advantages of a group sum to zero (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: -5, max: 10, noNaN: true }), { minLength: 2, maxLength: 9 }), (rewards) => {
        const a = groupAdvantages(
          rewards,
          rewards.map(() => 0),
          rewards.map(() => 1),
          false,
        ).advantages;
        const sum = a.reduce((x, y) => x + y, 0);
        expect(Math.abs(sum)).toBeLessThan(1e-6 * rewards.length + 1e-9);
        const { std } = groupStats(rewards);
        if (std > 0.1) expect(Math.abs(a.reduce((x, y) => x + y * y, 0) - (rewards.length - 1))).toBeLessThan(1e-3);
      }),
    );
  });
});
