import { describe, expect, it } from 'vitest';
import { Rng } from '../../../common/rng.ts';
import { bootstrap, dataEfficiency, pairedBootstrap } from './stats.ts';

describe('bench learn: bootstrap interval over seeds and games', () => {
  it('is a point when every game agrees', () => {
    expect(bootstrap([[true, true], [true, true, true]], new Rng(1), 200)).toEqual([1, 1]);
    expect(bootstrap([[false, false]], new Rng(1), 200)).toEqual([0, 0]);
  });

  it('brackets the mean, and narrows with more games', () => {
    const games = (n: number) => Array.from({ length: n }, (_, i) => i % 2 === 0);
    const [lo, hi] = bootstrap([games(40), games(40), games(40)], new Rng(2), 1000);
    expect(lo).toBeLessThan(0.5);
    expect(hi).toBeGreaterThan(0.5);
    // Binomial: the std of a mean of 120 fair games is 0.046, so the 95% interval is about +-0.09.
    expect(hi - lo).toBeGreaterThan(0.1);
    expect(hi - lo).toBeLessThan(0.26);
    const [lo2, hi2] = bootstrap([games(400), games(400), games(400)], new Rng(2), 1000);
    expect(hi2 - lo2).toBeLessThan((hi - lo) / 2);
  });
});

describe('bench learn: paired bootstrap of a difference over the same games', () => {
  // Games of graded difficulty: game g is won by a run of skill p when (g * 0.37) % 1 < p (deterministic).
  const runOf = (p: number, n = 120) => Array.from({ length: n }, (_, g) => (g * 0.37) % 1 < p);

  it('is the point 0 for identical runs, and brackets the true difference', () => {
    expect(pairedBootstrap([runOf(0.3)], [runOf(0.3)], new Rng(1), 300)).toEqual([0, 0]);
    const [lo, hi] = pairedBootstrap([runOf(0.4), runOf(0.4)], [runOf(0.2)], new Rng(2), 1000);
    expect(lo).toBeGreaterThan(0);
    expect(lo).toBeLessThan(0.2);
    expect(hi).toBeGreaterThan(0.2);
  });

  it('is narrower than the two unpaired intervals when the same games are hard for both', () => {
    const a = [runOf(0.35)];
    const b = [runOf(0.25)];
    const [lo, hi] = pairedBootstrap(a, b, new Rng(3), 1000);
    const [aLo, aHi] = bootstrap(a, new Rng(4), 1000);
    const [bLo, bHi] = bootstrap(b, new Rng(5), 1000);
    // Unpaired, the difference's interval would be about sqrt(wa^2 + wb^2) wide (~0.23 here); paired, the
    // games both win or both lose drop out and only the 10% that differ are left (~0.11).
    expect(hi - lo).toBeLessThan(0.6 * Math.hypot(aHi - aLo, bHi - bLo));
  });

  it('refuses runs of different games', () => {
    expect(() => pairedBootstrap([runOf(0.3, 10)], [runOf(0.3, 12)], new Rng(1), 10)).toThrow(/same games/);
  });
});

describe('bench learn: intervals over per-game fractions (several sampled episodes per game)', () => {
  it('a fraction counts as its share of a win', () => {
    expect(bootstrap([[0.5, 0.5, 0.5]], new Rng(1), 100)).toEqual([0.5, 0.5]);
    expect(pairedBootstrap([[0.75, 0.25]], [[0.5, 0]], new Rng(1), 100)).toEqual([0.25, 0.25]);
  });
});

describe('bench learn: data efficiency', () => {
  const grpo: [number, number][] = [[0, 0.2], [100, 0.22], [200, 0.25], [300, 0.3]];
  it('counts the episodes from which SEED stays at or above GRPO\'s final success', () => {
    const seed: [number, number][] = [[0, 0.2], [100, 0.31], [200, 0.28], [300, 0.3]];
    expect(dataEfficiency(grpo, seed, 0.2, 300, ['grpo', 'seed'])).toBe(
      "SEED reaches GRPO's final eval-unseen success (30.0%) after 300 of 300 episodes (100.0%) and stays there (its mean curve first touched it after 100).",
    );
    const early: [number, number][] = [[0, 0.2], [100, 0.25], [200, 0.3], [300, 0.35]];
    expect(dataEfficiency(grpo, early, 0.2, 300, ['grpo', 'seed'])).toBe(
      "SEED reaches GRPO's final eval-unseen success (30.0%) after 200 of 300 episodes (66.7%) and stays there.",
    );
  });
  it('does not count a touch that does not last', () => {
    const seed: [number, number][] = [[0, 0.2], [100, 0.31], [200, 0.26], [300, 0.27]];
    expect(dataEfficiency(grpo, seed, 0.2, 300, ['grpo', 'seed'])).toBe(
      "SEED does not reach GRPO's final eval-unseen success (30.0%) to stay: its mean curve touches it after 100 of 300 episodes (33.3%) but ends at 27.0%.",
    );
    expect(dataEfficiency(grpo, [[0, 0.2], [300, 0.1]], 0.2, 300, ['grpo', 'seed'])).toMatch(/does not reach .* within 300 episodes/);
  });
  it('gives no figure when GRPO did not beat the warm start, or one side is missing', () => {
    expect(dataEfficiency(grpo, grpo, 0.3, 300, ['grpo', 'seed'])).toMatch(/no data-efficiency figure/);
    expect(dataEfficiency([], grpo, 0.2, 300, ['seed'])).toMatch(/ran only seed/);
  });
});
