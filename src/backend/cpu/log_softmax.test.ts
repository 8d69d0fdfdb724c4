import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MASKED_LOG_PROB, allowToken, isAllowed } from '../contract.ts';
import { freeHeapFloats, heapFloats } from './heap.ts';
import { gatherLogProbs, logitGradient, maskedLogSoftmax } from './log_softmax.ts';

function maskOf(rows: number, vocab: number, allowed: (row: number, token: number) => boolean): Uint32Array {
  const words = Math.ceil(vocab / 32);
  const masks = new Uint32Array(rows * words);
  for (let r = 0; r < rows; r++) for (let v = 0; v < vocab; v++) if (allowed(r, v)) allowToken(masks, r, words, v);
  return masks;
}

function run(logits: number[], vocab: number, allowed: (row: number, token: number) => boolean): Float32Array {
  const rows = logits.length / vocab;
  const out = new Float32Array(logits.length);
  maskedLogSoftmax(out, Float32Array.from(logits), maskOf(rows, vocab, allowed), rows, vocab);
  return out;
}

/** The float64 loop: max over the allowed logits, log of the sum of exp(logit - max), in double precision. */
function reference(logits: Float32Array, masks: Uint32Array, rows: number, vocab: number): Float64Array {
  const words = Math.ceil(vocab / 32);
  const out = new Float64Array(rows * vocab).fill(MASKED_LOG_PROB);
  for (let r = 0; r < rows; r++) {
    let max = -Infinity;
    for (let v = 0; v < vocab; v++) if (isAllowed(masks, r, words, v)) max = Math.max(max, logits[r * vocab + v]);
    if (max === -Infinity) continue;
    let sum = 0;
    for (let v = 0; v < vocab; v++) if (isAllowed(masks, r, words, v)) sum += Math.exp(logits[r * vocab + v] - max);
    for (let v = 0; v < vocab; v++)
      if (isAllowed(masks, r, words, v)) out[r * vocab + v] = logits[r * vocab + v] - (max + Math.log(sum));
  }
  return out;
}

describe('maskedLogSoftmax', () => {
  it('matches the float64 loop to float32 accuracy on random rows and masks, in the heap or staged (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 77 }),
        fc.integer({ min: 1, max: 2 ** 30 }),
        fc.boolean(),
        (rows, vocab, seed, inHeap) => {
          let x = seed;
          const next = () => {
            x = (x * 1103515245 + 12345) % 2 ** 31;
            return x / 2 ** 31;
          };
          const words = Math.ceil(vocab / 32);
          const logits = inHeap ? heapFloats(rows * vocab) : new Float32Array(rows * vocab);
          for (let i = 0; i < logits.length; i++) logits[i] = 30 * (next() - 0.5);
          const masks = Uint32Array.from({ length: rows * words }, () => Math.floor(next() * 2 ** 32));
          const want = reference(logits, masks, rows, vocab);
          const out = inHeap ? heapFloats(rows * vocab) : new Float32Array(rows * vocab);
          maskedLogSoftmax(out, logits, masks, rows, vocab);
          const ok = Array.from(want).every((w, i) =>
            w === MASKED_LOG_PROB ? out[i] === Math.fround(w) : Math.abs(out[i] - w) <= 2e-6 * (1 + Math.abs(w)),
          );
          if (inHeap) {
            freeHeapFloats(logits);
            freeHeapFloats(out);
          }
          return ok;
        },
      ),
      { numRuns: 300 },
    );
  });

  it('matches hand-computed values with every token allowed', () => {
    // p = (1/4, 3/4) for logits (0, ln 3): log p = (ln 1/4, ln 3/4) = (-1.3862944, -0.2876821).
    const out = run([0, Math.log(3)], 2, () => true);
    expect(out[0]).toBeCloseTo(-1.3862944, 6);
    expect(out[1]).toBeCloseTo(-0.2876821, 6);
    // (1, 2, 3): logsumexp = 3 + ln(e^-2 + e^-1 + 1) = 3 + ln 1.5032147 = 3.4076060.
    const out3 = run([1, 2, 3], 3, () => true);
    expect(Array.from(out3)).toEqual([-2.407606, -1.407606, -0.407606].map((x) => expect.closeTo(x, 5)));
  });

  it('leaves disallowed tokens out of the normalisation and marks them', () => {
    // Token 2 (logit 100) is disallowed: the row is (0, ln 3) renormalised, as above.
    const out = run([0, Math.log(3), 100], 3, (_r, v) => v !== 2);
    expect(out[0]).toBeCloseTo(-1.3862944, 6);
    expect(out[1]).toBeCloseTo(-0.2876821, 6);
    expect(out[2]).toBe(Math.fround(MASKED_LOG_PROB));
  });

  it('stays finite and exact for logits of +-80', () => {
    // (80, -80, 80): logsumexp = 80 + ln(2 + e^-160) = 80 + ln 2 to double precision.
    const out = run([80, -80, 80, -80, -80, -80], 3, () => true);
    expect(out[0]).toBeCloseTo(-Math.LN2, 6);
    expect(out[1]).toBeCloseTo(-160 - Math.LN2, 4);
    expect(out[2]).toBeCloseTo(-Math.LN2, 6);
    // All -80: uniform over 3, log p = -ln 3.
    for (let v = 3; v < 6; v++) expect(out[v]).toBeCloseTo(-Math.log(3), 6);
  });

  it('gives log p = 0 to a single allowed token, whatever its logit', () => {
    const out = run([5, -80, 80, 3], 4, (_r, v) => v === 1);
    expect(Array.from(out)).toEqual([MASKED_LOG_PROB, 0, MASKED_LOG_PROB, MASKED_LOG_PROB].map(Math.fround));
  });

  it('gives -ln V to each of V equal logits', () => {
    const vocab = 300;
    const out = run(new Array(vocab).fill(7.25), vocab, () => true);
    for (const x of out) expect(x).toBeCloseTo(-Math.log(vocab), 6);
  });

  it('ignores mask bits past the vocabulary and reads the second word of a 33-token row', () => {
    const vocab = 33;
    const words = 2;
    const masks = new Uint32Array([0, 0xffffffff]); // only token 32 of the vocabulary, plus bits past it
    const logits = new Float32Array(vocab).fill(1);
    const out = new Float32Array(vocab);
    maskedLogSoftmax(out, logits, masks, 1, vocab);
    expect(isAllowed(masks, 0, words, 32)).toBe(true);
    expect(out[32]).toBe(0);
    expect(out[31]).toBe(Math.fround(MASKED_LOG_PROB));
  });

  it('marks a row with no allowed token entirely', () => {
    const out = run([1, 2, 3, 4, 5, 6], 3, (r) => r === 1);
    expect(Array.from(out.subarray(0, 3))).toEqual(new Array(3).fill(Math.fround(MASKED_LOG_PROB)));
    expect(out[5]).toBeCloseTo(-0.407606, 5);
  });

  it('works in place', () => {
    const logits = Float32Array.from([0, Math.log(3)]);
    maskedLogSoftmax(
      logits,
      logits,
      maskOf(1, 2, () => true),
      1,
      2,
    );
    expect(logits[0]).toBeCloseTo(-1.3862944, 6);
  });

  it('rejects arrays too short for the shape', () => {
    expect(() => maskedLogSoftmax(new Float32Array(6), new Float32Array(5), new Uint32Array(2), 2, 3)).toThrow(
      /logits hold 5 < 6/,
    );
    expect(() => maskedLogSoftmax(new Float32Array(6), new Float32Array(6), new Uint32Array(1), 2, 3)).toThrow(
      /masks hold 1 < 2/,
    );
  });

  it('normalises the allowed tokens and is shift-invariant (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 70 }),
        fc.array(fc.float({ min: -80, max: 80, noNaN: true }), { minLength: 70, maxLength: 70 }),
        fc.array(fc.boolean(), { minLength: 70, maxLength: 70 }),
        fc.float({ min: -20, max: 20, noNaN: true }),
        (vocab, values, allowedFlags, shift) => {
          // The last token is always allowed, so no row is empty.
          const allowed = (_r: number, v: number) => allowedFlags[v] || v === vocab - 1;
          const logits = values.slice(0, vocab);
          const out = run(logits, vocab, allowed);
          const shifted = run(
            logits.map((x) => x + shift),
            vocab,
            allowed,
          );
          let total = 0;
          for (let v = 0; v < vocab; v++) {
            if (allowed(0, v)) {
              total += Math.exp(out[v]);
              expect(out[v]).toBeLessThanOrEqual(0);
              expect(Math.abs(shifted[v] - out[v])).toBeLessThan(1e-4 * (1 + Math.abs(out[v])));
            } else {
              expect(out[v]).toBe(Math.fround(MASKED_LOG_PROB));
            }
          }
          expect(total).toBeCloseTo(1, 5);
        },
      ),
      { numRuns: 200, seed: 7 },
    );
  });
});

describe('logitGradient', () => {
  it('gives c (onehot(target) - p) over the allowed tokens and 0 elsewhere, to float32 accuracy', () => {
    const rows = 3;
    const vocab = 37;
    const logits = Float32Array.from({ length: rows * vocab }, (_, i) => Math.sin(i) * 4);
    const masks = maskOf(rows, vocab, (r, v) => (v * (r + 2)) % 3 !== 0 || v === r);
    const logp = new Float32Array(rows * vocab);
    maskedLogSoftmax(logp, logits, masks, rows, vocab);
    const coef = Float32Array.from([0.5, -2, 0]);
    const targets = Int32Array.from([0, 1, 2]);
    const want = reference(logits, masks, rows, vocab);
    logitGradient(logp, masks, coef, targets, rows, vocab);
    for (let r = 0; r < rows; r++) {
      for (let v = 0; v < vocab; v++) {
        const allowed = isAllowed(masks, r, Math.ceil(vocab / 32), v);
        const expected = allowed ? coef[r] * ((v === targets[r] ? 1 : 0) - Math.exp(want[r * vocab + v])) : 0;
        expect(Math.abs(logp[r * vocab + v] - expected)).toBeLessThanOrEqual(1e-6 * (1 + Math.abs(expected)));
      }
    }
    expect(() => logitGradient(logp, masks, coef, Int32Array.from([0, vocab, 0]), rows, vocab)).toThrow(
      /targets\[1\] = 37 is outside/,
    );
  });
});

describe('gatherLogProbs', () => {
  it('picks each row its target', () => {
    const logProbs = Float32Array.from([-1, -2, -3, -4, -5, -6]);
    const out = new Float32Array(2);
    gatherLogProbs(out, logProbs, Int32Array.from([2, 0]), 2, 3);
    expect(Array.from(out)).toEqual([-3, -4]);
  });

  it('rejects a target outside the vocabulary, naming the row', () => {
    const out = new Float32Array(2);
    expect(() => gatherLogProbs(out, new Float32Array(6), Int32Array.from([0, 3]), 2, 3)).toThrow(
      /targets\[1\] = 3 is outside \[0, 3\)/,
    );
    expect(() => gatherLogProbs(out, new Float32Array(6), Int32Array.from([-1, 0]), 2, 3)).toThrow(/targets\[0\]/);
  });
});
