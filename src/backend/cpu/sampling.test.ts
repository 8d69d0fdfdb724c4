import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { allocSampleScratch, sampleToken } from './sampling.ts';

const V = 40;
const scratch = allocSampleScratch(V);

function maskOf(allowed: number[]): Uint32Array {
  const m = new Uint32Array(2);
  for (const v of allowed) m[v >> 5] |= 1 << (v & 31);
  return m;
}

describe('sampleToken', () => {
  // Allowed tokens 3, 33, 7 with logits ln 1, ln 2, ln 1 -> p = 1/4, 2/4, 1/4 in id order 3, 7, 33.
  const logits = new Float32Array(V).fill(5);
  logits[3] = 0;
  logits[7] = 0;
  logits[33] = Math.log(2);
  const mask = maskOf([3, 7, 33]);

  it('inverts the cumulative distribution in token-id order', () => {
    expect(sampleToken(logits, mask, V, 1, 0, scratch)[0]).toBe(3);
    expect(sampleToken(logits, mask, V, 1, 0.24, scratch)[0]).toBe(3);
    expect(sampleToken(logits, mask, V, 1, 0.26, scratch)[0]).toBe(7);
    expect(sampleToken(logits, mask, V, 1, 0.49, scratch)[0]).toBe(7);
    expect(sampleToken(logits, mask, V, 1, 0.51, scratch)[0]).toBe(33);
    expect(sampleToken(logits, mask, V, 1, 0.999, scratch)[0]).toBe(33);
  });

  it('returns the masked log-prob at temperature 1 whatever the sampling temperature', () => {
    const [token, logp] = sampleToken(logits, mask, V, 0.5, 0.9, scratch);
    expect(token).toBe(33);
    expect(logp).toBeCloseTo(Math.log(0.5), 6);
    // temperature 0.5 squares the odds: p = 1/6, 4/6, 1/6 -> u = 0.2 falls in token 7's interval (1/6, 5/6)
    expect(sampleToken(logits, mask, V, 0.5, 0.2, scratch)[0]).toBe(7);
    expect(sampleToken(logits, mask, V, 0.5, 0.16, scratch)[0]).toBe(3);
  });

  it('greedy picks the largest allowed logit, the lowest id on a tie', () => {
    expect(sampleToken(logits, mask, V, 0, 0.99, scratch)[0]).toBe(33);
    expect(sampleToken(logits, maskOf([3, 7]), V, 0, 0.5, scratch)[0]).toBe(3);
  });

  it('always returns an allowed token (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.float({ min: -20, max: 20, noNaN: true }), { minLength: V, maxLength: V }),
        fc.uniqueArray(fc.integer({ min: 0, max: V - 1 }), { minLength: 1, maxLength: V }),
        fc.double({ min: 0, max: 0.999999, noNaN: true }),
        fc.constantFrom(0, 0.4, 1, 3),
        (ls, allowed, u, temp) =>
          allowed.includes(sampleToken(Float32Array.from(ls), maskOf(allowed), V, temp, u, scratch)[0]),
      ),
      { numRuns: 200 },
    );
  });

  it('refuses an empty mask, non-finite logits and bad draws', () => {
    expect(() => sampleToken(logits, new Uint32Array(2), V, 1, 0.5, scratch)).toThrow(/allows no token/);
    const bad = logits.slice();
    bad[7] = NaN;
    expect(() => sampleToken(bad, mask, V, 1, 0.5, scratch)).toThrow(/not finite/);
    expect(() => sampleToken(logits, mask, V, 1, 1, scratch)).toThrow(/uniform/);
    expect(() => sampleToken(logits, mask, V, -1, 0.5, scratch)).toThrow(/temperature/);
  });
});
