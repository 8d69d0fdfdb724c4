// What the shop's explorer knows before it acts: the instruction, read into what it asks (the words a fitting
// title shows, the words to search with, the option values, the price bound), and, primed, what a hindsight skill
// states (the search that worked, the right item's title words and cost, the options, the mistakes to avoid).
// Both are read from text only: the instruction the policy reads on its task line and a skill in the grammar
// of ../skills/skill.ts. The categories are the world's vocabulary (the phrases an instruction asks for an
// option with), the same for every game; no catalogue or goal data is read here.
import { CATEGORIES } from '../env/categories.ts';
import { queryTexts } from '../env/vocabulary.ts';
import { splitPieces } from '../../../text/pieces.ts';
import { centsOfPrice, shopTerms, type ItemDescription, type ShopAction, type ShopFact } from '../skills/skill.ts';
import { parseShopSkill } from '../skills/parser.ts';

/** What an instruction asks for, in its own words. */
export interface WantedItem {
  /** The noun phrase's words ("long sleeve cotton oxford shirt"): every word a fitting title shows. */
  titleTerms: string[];
  /** The noun phrase and the attributes no title shows ("... machine washable"): the explorer's first query. */
  searchWords: string[];
  /** Option values the instruction asks for ("navy", "large", "12 oz"). */
  options: string[];
  boundCents: number;
  /** The instruction's words a search may hold (one per word, "x-large" whole), for the noise's random searches. */
  queryWords: string[];
}

let optionPhrases: Map<string, string> | null = null;
let queryPieces: Set<string> | null = null;

/** Phrase as an instruction writes it ("size large") to the option value it asks for ("large"). */
function phrases(): Map<string, string> {
  optionPhrases ??= new Map(
    CATEGORIES.flatMap((c) => c.options.flatMap((o) => o.values.map((v) => [o.phrase.replace('{v}', v), v] as const))),
  );
  return optionPhrases;
}

function searchable(word: string): boolean {
  queryPieces ??= new Set(queryTexts().flatMap((t) => splitPieces(t)));
  const pieces = splitPieces(word);
  return pieces.length > 0 && pieces.every((p) => queryPieces!.has(p));
}

/**
 * Reads an instruction of the shop's form: "i need a <noun phrase>, <attribute>, <option phrase>, ..., and price
 * lower than 40.00 dollars". Throws on text of another form.
 */
export function readInstruction(instruction: string): WantedItem {
  const parts = instruction.split(', ');
  const head = /^i need (?:an? )?(.+)$/.exec(parts[0]);
  const tail = /^and price lower than ([0-9]+)\.([0-9]{2}) dollars$/.exec(parts[parts.length - 1]);
  if (!head || !tail || parts.length < 2) throw new RangeError(`not a shop instruction: "${instruction}"`);
  const options: string[] = [];
  const attributes: string[] = [];
  for (const part of parts.slice(1, -1)) {
    const value = phrases().get(part);
    if (value === undefined) attributes.push(part);
    else options.push(value);
  }
  const titleTerms = shopTerms(head[1]);
  return {
    titleTerms,
    searchWords: [...titleTerms, ...attributes.flatMap((a) => shopTerms(a))],
    options,
    boundCents: Number(tail[1]) * 100 + Number(tail[2]),
    queryWords: instruction.split(/[\s,]+/).filter(searchable),
  };
}

/** What a hindsight skill states, as the explorer's knowledge of one game. */
export interface ShopPrior {
  /** The words of the search that found the right item. */
  query: string[] | null;
  /** Words the right item's title shows, besides the instruction's. */
  titleTerms: string[];
  /** What the right item cost. */
  cents: number | null;
  /** The right item was not on the first results page. */
  laterPage: boolean;
  /** Option values the skill says to choose (as terms: "x - large size"). */
  options: string[][];
  /** Option values an item bought before lacked: an item page that does not offer them is left. */
  mustOffer: string[][];
  /** Items not to buy: whose title says these words exactly, or priced over a bound. */
  avoidTitles: string[][];
  maxCents: number | null;
}

const noPrior = (): ShopPrior => ({
  query: null,
  titleTerms: [],
  cents: null,
  laterPage: false,
  options: [],
  mustOffer: [],
  avoidTitles: [],
  maxCents: null,
});

export const NO_SHOP_PRIOR: Readonly<ShopPrior> = noPrior();

function itemFacts(prior: ShopPrior, item: ItemDescription): void {
  if (item.title && !item.title.lacks)
    prior.titleTerms.push(...item.title.terms.filter((t) => !prior.titleTerms.includes(t)));
  if (item.price && !item.price.over)
    prior.maxCents = Math.min(prior.maxCents ?? Infinity, centsOfPrice(item.price.price));
}

function actionFacts(prior: ShopPrior, a: ShopAction): void {
  if (a.verb === 'search' && a.terms) prior.query ??= a.terms;
  if (a.verb === 'next') prior.laterPage = true;
  if (a.verb === 'click') itemFacts(prior, a.item);
  if (a.verb === 'choose') prior.options.push(...a.options);
}

/**
 * The knowledge a skill states. A workflow: its search, "click next" (a later page), the item it clicked (title
 * words, price bound), its options, and its facts (what the item cost, the first page's lack). An avoidance:
 * the right choice its mistake implies (the option "instead of" which, the title words a bought item lacked,
 * the bound it went over), the title of a wrongly bought item and the option values it lacked. A skill that does
 * not parse states nothing.
 */
export function shopSkillKnowledge(text: string): ShopPrior {
  const prior = noPrior();
  const skill = parseShopSkill(text).skill;
  if (!skill) return prior;
  const fact = (f: ShopFact) => {
    if (f.kind === 'cost' && skill.kind === 'workflow') prior.cents = centsOfPrice(f.price);
    if (f.kind === 'bound') prior.maxCents = Math.min(prior.maxCents ?? Infinity, centsOfPrice(f.price));
    if (f.kind === 'page' && f.which === 'first' && !f.had) prior.laterPage = true;
    if (f.kind === 'first' || f.kind === 'order') actionFacts(prior, f.action);
  };
  if (skill.kind === 'workflow') {
    for (const a of skill.actions) actionFacts(prior, a);
  } else {
    const m = skill.mistake;
    const boughtWrong = m.kind === 'doing' && m.action.verb === 'buy';
    if (m.kind === 'doing' && m.action.verb === 'buy' && m.action.item) {
      const { title, price } = m.action.item;
      if (title?.lacks) prior.titleTerms.push(...title.terms);
      if (price?.over) prior.maxCents = centsOfPrice(price.price);
    }
    if (m.kind === 'instead' && m.of.verb === 'choose') prior.options.push(...m.of.options);
    if (m.kind === 'before' && m.then.verb === 'choose') prior.options.push(...m.then.options);
    for (const s of skill.signs) {
      if (s.kind === 'titled' && boughtWrong) prior.avoidTitles.push(s.terms);
      else if (s.kind === 'offered' && !s.offered && boughtWrong) prior.mustOffer.push(...s.options);
      else fact(s);
    }
  }
  skill.facts.forEach(fact);
  return prior;
}
