// Random shop skills for property tests, built without undefined fields so that they compare equal to what the
// parser returns, and a tokenizer over the shop's words and the grammar's (what the shop's vocabulary holds).
import fc from 'fast-check';
import { BRANDS, CATEGORIES } from '../env/categories.ts';
import { MARKERS } from '../../../text/markers.ts';
import { splitPieces } from '../../../text/pieces.ts';
import {
  SHOP_SKILL_WORDS,
  isContentWord,
  type ItemDescription,
  type ShopAction,
  type ShopFact,
  type ShopMistake,
  type ShopPrice,
  type ShopSkill,
} from './skill.ts';
import { Tokenizer } from '../../../text/tokenizer.ts';

/** Every word the catalogue can print: types, attributes, option names and values, brands (both cases). */
export function shopCatalogueWords(): string[] {
  const texts = CATEGORIES.flatMap((c) => [
    c.audience,
    ...c.types.map((t) => t.name),
    ...c.attributes.flatMap((g) => g.values),
    ...c.options.flatMap((o) => [o.name, ...o.values]),
  ]);
  return [...new Set([...texts, ...BRANDS].flatMap((t) => splitPieces(t)).flatMap((p) => [p, p.toLowerCase()]))];
}

/** Markers, the grammar's words, the catalogue's words, numbers 0..99 (and 00..09) and a few page marks. */
export function shopTestTokenizer(): Tokenizer {
  const numbers = Array.from({ length: 100 }, (_, i) => String(i)).concat(
    Array.from({ length: 10 }, (_, i) => `0${i}`),
  );
  const words = new Set([
    ...SHOP_SKILL_WORDS,
    ...shopCatalogueWords(),
    ...numbers,
    '$',
    '[',
    ']',
    'SEP',
    'Search',
    'Buy',
    'Now',
    'Instruction',
  ]);
  return new Tokenizer([...MARKERS, ...[...words].sort()]);
}

// Content words include grammar words that are no stops ("search", "the", "item"): a run may hold them.
const contentWord = fc.constantFrom(
  ...shopCatalogueWords()
    .map((w) => w.toLowerCase())
    .filter(isContentWord),
  'search',
  'the',
  'item',
  'now',
  '12',
);
const terms: fc.Arbitrary<string[]> = fc
  .array(fc.tuple(fc.boolean(), contentWord), { minLength: 1, maxLength: 4 })
  .map((parts) => parts.flatMap(([dash, w], i) => (dash && i > 0 ? ['-', w] : [w])));
const digits = fc.integer({ min: 0, max: 99 }).map(String);
const price: fc.Arbitrary<ShopPrice> = fc
  .tuple(digits, fc.option(digits, { nil: undefined }))
  .map(([dollars, cents]) => (cents === undefined ? { dollars } : { dollars, cents }));
const item: fc.Arbitrary<ItemDescription> = fc
  .tuple(
    fc.option(fc.tuple(fc.boolean(), terms), { nil: undefined }),
    fc.option(fc.tuple(fc.boolean(), price), { nil: undefined }),
  )
  .map(([title, bound]) => ({
    ...(title === undefined ? {} : { title: { lacks: title[0], terms: title[1] } }),
    ...(bound === undefined ? {} : { price: { over: bound[0], price: bound[1] } }),
  }));
const options = fc.array(terms, { minLength: 1, maxLength: 3 });

function action(gerund: boolean): fc.Arbitrary<ShopAction> {
  return fc.oneof(
    fc
      .option(terms, { nil: undefined })
      .map((t): ShopAction => (t === undefined ? { verb: 'search' } : { verb: 'search', terms: t })),
    item.map((i): ShopAction => ({ verb: 'click', item: i })),
    fc.constantFrom<ShopAction>({ verb: 'next' }, { verb: 'back' }),
    options.map((o): ShopAction => ({ verb: 'choose', options: o })),
    gerund
      ? fc
          .option(item, { nil: undefined })
          .map((i): ShopAction => (i === undefined ? { verb: 'buy' } : { verb: 'buy', item: i }))
      : fc.constant<ShopAction>({ verb: 'buy' }),
  );
}
const step = action(false);
const gerund = action(true);

const mistake: fc.Arbitrary<ShopMistake> = fc.oneof(
  gerund.map((a): ShopMistake => ({ kind: 'doing', action: a })),
  fc.tuple(gerund, gerund).map(([a, b]): ShopMistake => ({ kind: 'before', action: a, then: b })),
  fc.tuple(gerund, gerund).map(([a, b]): ShopMistake => ({ kind: 'instead', action: a, of: b })),
  step.map((a): ShopMistake => ({ kind: 'forgetting', action: a })),
  fc.constantFrom<ShopMistake>({ kind: 'invalid' }, { kind: 'steps' }),
);

const fact: fc.Arbitrary<ShopFact> = fc.oneof(
  fc
    .tuple(fc.constantFrom('first' as const, 'next' as const), fc.boolean(), item)
    .map(([which, had, i]): ShopFact => ({ kind: 'page', which, had, item: i })),
  price.map((p): ShopFact => ({ kind: 'bound', price: p })),
  price.map((p): ShopFact => ({ kind: 'cost', price: p })),
  fc.tuple(fc.boolean(), options).map(([offered, o]): ShopFact => ({ kind: 'offered', offered, options: o })),
  terms.map((t): ShopFact => ({ kind: 'titled', terms: t })),
  fc.array(terms, { minLength: 1, maxLength: 3 }).map((t): ShopFact => ({ kind: 'asked', terms: t })),
  fc
    .option(gerund, { nil: undefined })
    .map((a): ShopFact => (a === undefined ? { kind: 'nothing' } : { kind: 'nothing', after: a })),
  step.map((a): ShopFact => ({ kind: 'first', action: a })),
  fc.tuple(step, gerund).map(([a, b]): ShopFact => ({ kind: 'order', action: a, then: b })),
);

const facts = fc.array(fact, { maxLength: 3 });
export const arbitraryShopSkill: fc.Arbitrary<ShopSkill> = fc.oneof(
  fc
    .tuple(fc.array(step, { minLength: 1, maxLength: 5 }), facts)
    .map(([actions, fs]): ShopSkill => ({ kind: 'workflow', actions, facts: fs })),
  fc
    .tuple(mistake, fc.array(fact, { maxLength: 3 }), facts)
    .map(([m, signs, fs]): ShopSkill => ({ kind: 'avoid', mistake: m, signs, facts: fs })),
);
