// Random search-QA skills for property tests, built without undefined fields so that they compare equal to what
// the parser returns (names in lower case), and the world's tokenizer.
import fc from 'fast-check';
import { type Tokenizer, tokenizerOf } from '../../../text/tokenizer.ts';
import { SEARCHQA } from '../env/environment.ts';
import { NAMES, ORGANISATION_KINDS } from '../env/name_stock.ts';
import {
  QA_KINDS,
  QA_RELATIONS,
  QA_ROLES,
  type QaAction,
  type QaFact,
  type QaMistake,
  type QaSkill,
  type QaTarget,
  type QaValue,
} from './skill.ts';

/** The world's tokenizer: its texts' pieces, its skill words and the prompts' words. */
export function qaTokenizer(): Tokenizer {
  return tokenizerOf(SEARCHQA);
}

const nameWord = fc.constantFrom(
  ...[...Object.values(NAMES).flat(), ...ORGANISATION_KINDS].map((w) => w.toLowerCase()),
);
const name = fc.array(nameWord, { minLength: 1, maxLength: 3 });
const year = fc.integer({ min: 1800, max: 1899 }).map(String);
const target: fc.Arbitrary<QaTarget> = fc.oneof(
  name.map((names) => ({ names })),
  fc.constantFrom(...QA_KINDS).map((role) => ({ role })),
);
const value: fc.Arbitrary<QaValue> = fc.oneof(
  name.map((names) => ({ names })),
  year.map((y) => ({ year: y })),
  fc.constantFrom(...QA_ROLES).map((role) => ({ role })),
);

function action(gerund: boolean): fc.Arbitrary<QaAction> {
  const then = gerund ? fc.constant({}) : fc.constantFrom({}, { follows: true as const });
  return fc.oneof(
    fc
      .tuple(target, fc.option(fc.constantFrom(...QA_RELATIONS), { nil: undefined }), then)
      .map(([t, relation, f]): QaAction => ({ verb: 'search', target: t, ...(relation ? { relation } : {}), ...f })),
    fc.tuple(value, then).map(([v, f]): QaAction => ({ verb: 'answer', value: v, ...f })),
  );
}

const ownFact: fc.Arbitrary<QaFact> = fc.oneof(
  fc.record({ kind: fc.constant('born' as const), person: name, year, country: name }),
  fc.record({ kind: fc.constant('city' as const), city: name, country: name }),
  fc.record({ kind: fc.constant('capital' as const), country: name, city: name }),
  fc.record({ kind: fc.constant('founded' as const), organisation: name, year, founder: name }),
  fc.record({ kind: fc.constant('based' as const), organisation: name, city: name }),
);

const fact: fc.Arbitrary<QaFact> = fc.oneof(
  { weight: 3, arbitrary: ownFact },
  fc.constant<QaFact>({ kind: 'nothing' }),
  action(true).map((after): QaFact => ({ kind: 'nothing', after })),
  action(false).map((a): QaFact => ({ kind: 'first', action: a })),
  // biome-ignore lint/suspicious/noThenProperty: the grammar's second step, never awaited
  fc.tuple(action(false), action(true)).map(([a, b]): QaFact => ({ kind: 'order', action: a, then: b })),
);

const mistake: fc.Arbitrary<QaMistake> = fc.oneof(
  action(true).map((a): QaMistake => ({ kind: 'doing', action: a })),
  // biome-ignore lint/suspicious/noThenProperty: the grammar's second step, never awaited
  fc.tuple(action(true), action(true)).map(([a, b]): QaMistake => ({ kind: 'before', action: a, then: b })),
  fc.tuple(action(true), action(true)).map(([a, b]): QaMistake => ({ kind: 'instead', action: a, of: b })),
  action(false).map((a): QaMistake => ({ kind: 'forgetting', action: a })),
  fc.constant<QaMistake>({ kind: 'invalid' }),
  fc.constant<QaMistake>({ kind: 'steps' }),
);

export const arbitraryQaSkill: fc.Arbitrary<QaSkill> = fc.oneof(
  fc.record({
    kind: fc.constant('workflow' as const),
    actions: fc.array(action(false), { minLength: 1, maxLength: 4 }),
    facts: fc.array(fact, { maxLength: 3 }),
  }),
  fc.record({
    kind: fc.constant('avoid' as const),
    mistake,
    signs: fc.array(fact, { maxLength: 3 }),
    facts: fc.array(fact, { maxLength: 2 }),
  }),
);
