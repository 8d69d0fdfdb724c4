import { describe, expect, it } from 'vitest';
import { Rng } from '../../common/rng.ts';
import { bootstrap } from './learn.ts';

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
