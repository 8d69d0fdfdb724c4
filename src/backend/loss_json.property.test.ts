// Property tests of the loss input read from a file: any text is a loss problem or a one-line LossJsonError;
// mutations of a valid file, deep nesting and long token lists included.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mutate, nested, parsesOrRefuses } from '../common/parser_testing.ts';
import { LossJsonError, parseLossProblem } from './loss_json.ts';

const token =
  '{"l_student": -1.2, "l_skill": -0.8, "l_old": -1.1, "l_ref": -1.3, "advantage": 0.5, "mask": 1, "opd_mask": 1}';
const valid = `{"lambda": 0.01, "beta": 5, "clip": 0.2, "kl_coef": 0.01, "tokens": [${token}, ${token}]}`;
const edit = fc.tuple(
  fc.nat(),
  fc.nat(),
  fc.oneof(
    fc.constantFrom('{', '}', '[', ']', '"', ',', ':', '\n', '\u001b', '\u2028', '0', '-', 'e', 'x'),
    fc.string({ maxLength: 1 }),
  ),
);

// The valid file itself is one of the texts, so that every run reads some value, whatever the draws.
const lossText = fc.oneof(
  fc.constant(valid),
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.json({ maxDepth: 5 }),
  fc.array(edit, { minLength: 1, maxLength: 8 }).map((edits) => mutate(valid, edits)),
  fc
    .tuple(fc.integer({ min: 1, max: 200_000 }), fc.boolean())
    .map(([depth, objects]) => valid.replace('"beta": 5', `"beta": ${nested(depth, '5', objects)}`)),
  fc
    .tuple(fc.integer({ min: 0, max: 50_000 }), fc.constantFrom('{}', token, '1', '[]'))
    .map(([n, t]) => valid.replace('"tokens": [', `"tokens": [${`${t},`.repeat(n)}`)),
  fc
    .record({ key: fc.string({ maxLength: 8 }), value: fc.jsonValue({ maxDepth: 2 }) })
    .map(({ key, value }) => valid.replace('"clip"', `${JSON.stringify(key)}: ${JSON.stringify(value)}, "clip"`)),
);

describe('loss JSON text (property)', () => {
  it('is a loss problem or a one-line LossJsonError', () => {
    const outcomes = { value: 0, refused: 0 };
    fc.assert(
      fc.property(lossText, (text) => {
        outcomes[parsesOrRefuses(() => parseLossProblem(text), LossJsonError)]++;
      }),
      { numRuns: 400 },
    );
    expect(outcomes.value).toBeGreaterThan(0);
    expect(outcomes.refused).toBeGreaterThan(0);
  });

  it('prints an unknown field with a line break or terminal escape escaped', () => {
    expect(() => parseLossProblem(valid.replace('"clip"', '"a\\n\\u001b[2J": 1, "clip"'))).toThrow(
      'unknown field "a\\n\\u001b[2J" (expected lambda, beta, clip, kl_coef, tokens)',
    );
  });
});
