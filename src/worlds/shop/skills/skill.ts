// The grammar of the shop's episode skills. In the shop, what a finished trajectory teaches is mostly procedure:
// which words to search with, what the right item's title and price said, which options to choose, and in
// what order. A success gives a workflow (the steps that bought the right item), a failure the core mistake
// and its warning signs; both may add facts the trajectory showed (the price bound, what the item cost or
// offered, what a results page lacked). Content words (TERMS) are the trajectory's own words: its
// instruction, queries, titles, option values; prices are numbers. Only a skill that parses and has at least
// MIN_SHOP_SKILL_WORDS words is used for on-policy distillation.
//
// The shop fills the shape every world's skills share (src/text/skill_language/skeleton.ts: workflow,
// avoidance, mistakes, "nothing happens", rules) with its steps, facts and words:
//
//   step       := "search" ("for" TERMS | "again")                       search for cotton flannel shirt
//               | "click" ("an" "item" item | "next")                   click an item whose title says regular fit
//               | "go" "back" "to" "search"
//               | "choose" option ("and" option)*                       choose the black color and the x - large size
//               | "buy" "now"
//   gerund     := the same with "searching", "clicking", "going", "choosing", and
//                 "buying" ["an" "item" item] in place of "buy now"     buying an item priced over 30 dollars
//   HOW, OF    := none; gerund                                          buying before choosing the large size
//   INVALID    := "actions"; an avoidance rule may have no warning sign
//   item       := ["whose" "title" ("says" | "lacks") TERMS] ["priced" ("under" | "over") price]
//   option     := "the" TERMS                                           the option's value, then its name
//   price      := NUMBER ["." NUMBER] "dollars"                         30 dollars, 12 . 24 dollars
//   own fact   := "the" ("first" | "next") "page" "had" ("no" | "an") "item" item
//               | "the" "price" "bound" "was" price
//               | "the" "item" ("cost" price | ("offered" | "lacked") option ("and" option)* | "was" "titled" TERMS)
//               | "the" "instruction" "asked" "for" TERMS ("and" TERMS)*
//   TERMS      := WORD ("-"? WORD)*                                     regular fit, x - large, 20 oz
//
// WORD is any word piece (pieces.ts) but the CONTENT_STOPS, the grammar words that may follow a run of TERMS
// ("and", "priced", "before", "instead", "first"); everything else ends a run with punctuation. NUMBER is a
// piece of digits. The shop's own words never include a stop (checked by the tests), so every instruction,
// title and option value can be written. Text is read in pieces (pieces.ts: "x-large" is x - large, "12.24" is
// 12 . 24), case-insensitively; the formatter writes the pieces it is given, spaced as pieces.ts joins.
// This file holds the structure and the formatter; parser.ts reads a text back (parseShopSkill),
// grammar.ts holds the same grammar as an automaton for constrained decoding (its tests compare).
import { isWordPiece, splitPieces } from '../../../text/pieces.ts';
import {
  factsText,
  ruleFactWords,
  skillText,
  type Mistake,
  type RuleFact,
  type Skill,
  type SkillShape,
  type SkillWriting,
} from '../../../text/skill_language/skeleton.ts';

export const MIN_SHOP_SKILL_WORDS = 5;

/** Grammar words that may follow a run of TERMS, so never part of one. */
export const CONTENT_STOPS: ReadonlySet<string> = new Set(['and', 'priced', 'before', 'instead', 'first']);

/** A price as written: whole dollars and, when given, the digits after the point. */
export interface ShopPrice {
  dollars: string;
  cents?: string;
}

/** What a step, mistake or fact says of an item: its title has (or lacks) some words, its price is under (over) a bound. */
export interface ItemDescription {
  title?: { lacks: boolean; terms: string[] };
  price?: { over: boolean; price: ShopPrice };
}

/** search: for terms, or again when terms is absent; buy: "buy now", or as a gerund "buying [an item ...]". */
export type ShopAction =
  | { verb: 'search'; terms?: string[] }
  | { verb: 'click'; item: ItemDescription }
  | { verb: 'next' }
  | { verb: 'back' }
  | { verb: 'choose'; options: string[][] }
  | { verb: 'buy'; item?: ItemDescription };

export type ShopMistake = Mistake<ShopAction, ShopAction>;

export type ShopFact =
  | { kind: 'page'; which: 'first' | 'next'; had: boolean; item: ItemDescription }
  | { kind: 'bound'; price: ShopPrice }
  | { kind: 'cost'; price: ShopPrice }
  | { kind: 'offered'; offered: boolean; options: string[][] }
  | { kind: 'titled'; terms: string[] }
  | { kind: 'asked'; terms: string[][] }
  | RuleFact<ShopAction>;

export type ShopSkill = Skill<ShopAction, ShopFact, ShopMistake>;

export const SHOP_GERUND: Readonly<Record<ShopAction['verb'], string>> = {
  search: 'searching',
  click: 'clicking',
  next: 'clicking',
  back: 'going',
  choose: 'choosing',
  buy: 'buying',
};

export const SHOP_IMPERATIVE: Readonly<Record<ShopAction['verb'], string>> = {
  search: 'search',
  click: 'click',
  next: 'click',
  back: 'go',
  choose: 'choose',
  buy: 'buy',
};

/** Every word and mark of the grammar, for the shop's vocabulary (content words come from the shop itself). */
export const SHOP_SKILL_WORDS: readonly string[] = [
  ...new Set([
    ...Object.values(SHOP_IMPERATIVE),
    ...Object.values(SHOP_GERUND),
    ...'workflow avoid for again an item whose title says lacks priced under over dollars next back to the and now'.split(
      ' ',
    ),
    ...'before instead of forgetting invalid actions running out steps first page had no price bound was cost'.split(
      ' ',
    ),
    ...'offered lacked titled instruction asked nothing happens after'.split(' '),
    ...': , ; . -'.split(' '),
  ]),
];

/** What the shop adds to its vocabulary (src/worlds/languages.ts): its skill words. */
export const SHOP_LANGUAGE = { skillWords: SHOP_SKILL_WORDS, notWords: [] };

/** The price of a number of cents: "30" for 3000, "12 . 05" for 1205. */
export function priceOfCents(cents: number): ShopPrice {
  if (!Number.isInteger(cents) || cents < 0) throw new RangeError(`a price is a whole number of cents, got ${cents}`);
  const rest = cents % 100;
  const dollars = String(Math.floor(cents / 100));
  return rest === 0 ? { dollars } : { dollars, cents: String(rest).padStart(2, '0') };
}

/** The cents of a written price ("12 . 5" is 1250). */
export function centsOfPrice(price: ShopPrice): number {
  return Math.round(Number(`${price.dollars}.${price.cents ?? '0'}`) * 100);
}

// ---- formatting ----

function termsWords(terms: readonly string[]): string[] {
  if (terms.length === 0) throw new RangeError('a run of terms needs at least one word');
  return [...terms];
}

function priceWords(p: ShopPrice): string[] {
  return [p.dollars, ...(p.cents === undefined ? [] : ['.', p.cents]), 'dollars'];
}

function itemWords(item: ItemDescription): string[] {
  const out: string[] = [];
  if (item.title) out.push('whose', 'title', item.title.lacks ? 'lacks' : 'says', ...termsWords(item.title.terms));
  if (item.price) out.push('priced', item.price.over ? 'over' : 'under', ...priceWords(item.price.price));
  return out;
}

function optionsWords(options: readonly (readonly string[])[]): string[] {
  if (options.length === 0) throw new RangeError('a choice needs at least one option');
  return options.flatMap((o, i) => [...(i > 0 ? ['and'] : []), 'the', ...termsWords(o)]);
}

function actionWords(a: ShopAction, gerund: boolean): string[] {
  const verb = gerund ? SHOP_GERUND[a.verb] : SHOP_IMPERATIVE[a.verb];
  switch (a.verb) {
    case 'search':
      return a.terms === undefined ? [verb, 'again'] : [verb, 'for', ...termsWords(a.terms)];
    case 'click':
      return [verb, 'an', 'item', ...itemWords(a.item)];
    case 'next':
      return [verb, 'next'];
    case 'back':
      return [verb, 'back', 'to', 'search'];
    case 'choose':
      return [verb, ...optionsWords(a.options)];
    case 'buy':
      if (!gerund && a.item) throw new RangeError('"buy now" names no item: only "buying" does');
      return gerund ? [verb, ...(a.item ? ['an', 'item', ...itemWords(a.item)] : [])] : [verb, 'now'];
  }
}

function factWords(f: ShopFact): string[] {
  switch (f.kind) {
    case 'page':
      return ['the', f.which, 'page', 'had', f.had ? 'an' : 'no', 'item', ...itemWords(f.item)];
    case 'bound':
      return ['the', 'price', 'bound', 'was', ...priceWords(f.price)];
    case 'cost':
      return ['the', 'item', 'cost', ...priceWords(f.price)];
    case 'offered':
      return ['the', 'item', f.offered ? 'offered' : 'lacked', ...optionsWords(f.options)];
    case 'titled':
      return ['the', 'item', 'was', 'titled', ...termsWords(f.terms)];
    case 'asked':
      if (f.terms.length === 0) throw new RangeError('"the instruction asked for" needs at least one run of terms');
      return [
        'the',
        'instruction',
        'asked',
        'for',
        ...f.terms.flatMap((t, i) => [...(i > 0 ? ['and'] : []), ...termsWords(t)]),
      ];
    case 'nothing':
    case 'first':
    case 'order':
      return ruleFactWords(f, actionWords);
  }
}

/** The shop's skills in the shape every world shares (skill_language/skeleton.ts). */
export const SHOP_SHAPE: SkillShape = {
  name: 'shop skill',
  minWords: MIN_SHOP_SKILL_WORDS,
  step: 'step',
  invalid: 'actions',
  signsRequired: false,
  how: [],
};
const WRITING: SkillWriting<ShopAction, ShopFact, ShopAction> = {
  actionWords,
  factWords,
  ofWords: (a) => actionWords(a, true),
};

/** The text of a shop skill, its pieces spaced as pieces.ts joins. */
export function formatShopSkill(s: ShopSkill): string {
  return skillText(s, SHOP_SHAPE, WRITING);
}

/** A piece that TERMS may hold as a word: a word piece (compared in lower case) that is no content stop. */
export function isContentWord(piece: string): boolean {
  return isWordPiece(piece) && !CONTENT_STOPS.has(piece.toLowerCase());
}

/**
 * The TERMS of a text, in lower case: its content words, with "-" kept between two of them ("x-large" is
 * x - large); stops and other marks are dropped. Empty when the text holds no content word.
 */
export function shopTerms(text: string): string[] {
  const pieces = splitPieces(text.toLowerCase());
  const out: string[] = [];
  pieces.forEach((p, i) => {
    if (isContentWord(p)) out.push(p);
    else if (p === '-' && out.length > 0 && isContentWord(pieces[i - 1] ?? '') && isContentWord(pieces[i + 1] ?? ''))
      out.push(p);
  });
  return out;
}

/** An option as a skill writes it: the value, then the option's name, a shared word once ("warm light color"). */
export function shopOptionTerms(name: string, value: string): string[] {
  const v = shopTerms(value);
  const n = shopTerms(name);
  return v.at(-1) === n[0] ? [...v, ...n.slice(1)] : [...v, ...n];
}

/** Fact sentences, each closed by a period, with no head: a shop skill's facts alone (parts.ts). */
export function formatShopFacts(facts: readonly ShopFact[]): string {
  return factsText(facts, factWords);
}
