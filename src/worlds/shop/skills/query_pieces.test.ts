// The shop's query limit counts pieces without the tokenizer (the env layer sits below it): its count must be
// the tokenizer's split, or the limit would refuse a query the policy writes, or take one it cannot.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { overPieces } from '../env/site.ts';
import { queryTexts } from '../env/vocabulary.ts';
import { splitPieces } from '../../../text/pieces.ts';

const text = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc
    .array(fc.constantFrom(...queryTexts(), 'b07x4kq2zm', "men's", 'in/on', '-=', '\n', ',', ' ', '8.5'), {
      maxLength: 16,
    })
    .map((parts) => parts.join(' ')),
);

describe('overPieces', () => {
  it('is the tokenizer split holding more pieces than the limit', () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 0, max: 20 }), (t, limit) => {
        expect(overPieces(t, limit)).toBe(splitPieces(t).length > limit);
      }),
      { numRuns: 1000 },
    );
  });
});
