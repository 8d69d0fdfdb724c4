// The shop's rule-based annotator (the household's is annotator.ts): it reads a finished shop trajectory's step
// records and writes one skill in the grammar of ../skills/skill.ts, in the trajectory's own words (its query,
// the titles, prices and options its pages showed, the instruction's words), never a hidden fact of the
// catalogue. The goal is the instruction's content: its attributes, option values and price bound.
//   success -> "workflow:" the procedure that bought the right item: the search that found it (its words),
//              "click next" when the item was on a later page, the item it opened (the goal's words its title
//              said, priced under the bound), the options it chose, "buy now"; then what the item cost, the
//              bound, and, when it paged, that the first page had no item whose title said those words.
//   failure -> "avoid:" the core mistake, the first that applies:
//              1. more than 2 invalid actions          -> "invalid actions" (nothing happens after ...)
//              2. bought the wrong type                -> "buying an item whose title lacks <type>"
//              3. bought over the bound                -> "buying an item priced over <bound>"
//              4. bought, a titled attribute missing   -> "buying an item whose title lacks <attribute>"
//              5. bought, an option value missing      -> "choosing the black color instead of choosing the navy
//                                                         color" / "buying before choosing the navy color" /
//                                                         "buying" when the item lacked it
//              6. bought, the rest right (an attribute no title shows) -> "buying an item", with what the
//                                                         instruction asked for
//              7. never searched                       -> "forgetting to search for <the goal's words>"
//              8. never opened an item                 -> "clicking next instead of searching again" after
//                                                         paging twice or more, else "running out of steps"
//              9. opened a fitting item, never bought  -> "forgetting to buy now"; otherwise "running out of steps"
//              with warning signs (what the item was titled, cost, offered or lacked; the first page's lack;
//              the price bound).
// When a skill must be cut to a token budget, what carries least goes first (annotateShop).
import type { ShopStepRecord } from '../env/game.ts';
import type { ShopGoal } from '../env/goal.ts';
import { CATEGORIES } from '../env/categories.ts';
import { ITEM_TABS, showsItem } from '../env/pages.ts';
import {
  formatShopSkill,
  priceOfCents,
  shopOptionTerms,
  shopTerms,
  type ShopAction,
  type ShopFact,
  type ShopMistake,
  type ShopSkill,
} from '../skills/skill.ts';
import { parseShopSkill } from '../skills/parser.ts';
import { itemPage, listedItems, resultsPageNumber, type ItemPage } from './observed.ts';

const lower = (s: string) => s.toLowerCase();

/** The words of a text as a set, to ask whether a title holds some words in any order. */
const wordsOf = (text: string) => new Set(shopTerms(text));
const holdsAll = (title: ReadonlySet<string>, terms: readonly string[]) => terms.every((w) => title.has(w));

/** The goal's attributes that titles show at all (style, then material, as titles and instructions order them). */
function titledAttributes(goal: ShopGoal): string[] {
  const category = CATEGORIES.find((c) => c.types.some((t) => t.name === goal.typeName));
  if (!category) return [];
  const [material, ...rest] = category.attributes.filter((g) => g.inTitle).map((g) => g.values);
  return [...rest.flat(), ...material].filter((a) => goal.attributes.includes(a));
}

/** The goal's words a fitting title says: its titled attributes and its type ("casual crossbody bag"). */
const goalTitleTerms = (goal: ShopGoal) => shopTerms([...titledAttributes(goal), goal.typeName].join(' '));

/** Whether a title says every word of the goal's titled attributes and type. */
const titleFits = (title: string, goal: ShopGoal) => holdsAll(wordsOf(title), goalTitleTerms(goal));

const bound = (goal: ShopGoal): ShopFact => ({ kind: 'bound', price: priceOfCents(goal.priceUpperCents) });

/** A raw action as a skill step, when the grammar has one ("< prev" and the item's tabs have none). */
function stepOf(action: string): ShopAction | null {
  const search = /^search\[(.*)\]$/s.exec(action.trim());
  if (search) {
    const terms = shopTerms(search[1]);
    return terms.length ? { verb: 'search', terms } : null;
  }
  const click = /^click\[(.*)\]$/s.exec(action.trim());
  if (!click) return null;
  const label = lower(click[1].trim());
  if (label === 'next >') return { verb: 'next' };
  if (label === 'back to search') return { verb: 'back' };
  if (label === 'buy now') return { verb: 'buy' };
  if (/^b0[a-z0-9]{8}$/.test(label)) return { verb: 'click', item: {} };
  if ((ITEM_TABS as readonly string[]).includes(label)) return null;
  const terms = shopTerms(label);
  return terms.length && label !== '< prev' ? { verb: 'choose', options: [terms] } : null;
}

/** The last item page shown before record `end` (exclusive). */
function lastItemPage(records: readonly ShopStepRecord[], end = records.length): ItemPage | null {
  for (let i = end - 1; i >= 0; i--) {
    const page = itemPage(records[i]);
    if (!page) continue;
    // The tiny shop stops listing an option once it is chosen: the item offers what any page of this visit listed
    // (a visit goes on through the item's tabs).
    const offered = new Set(page.optionParts);
    for (let j = i - 1; j >= 0 && showsItem(records[j].page); j--)
      for (const part of itemPage(records[j])?.optionParts ?? []) offered.add(part);
    return { ...page, optionParts: [...offered] };
  }
  return null;
}

/** The results page the bought item was opened from: its number, and the first page of that search. */
function openedFrom(records: readonly ShopStepRecord[]): { page: number; firstPage: ShopStepRecord | null } {
  let open = records.length - 1;
  while (open > 0 && showsItem(records[open].page)) open--;
  const page = resultsPageNumber(records[open]) ?? 1;
  let first = open;
  while (first > 0 && !(records[first].page === 'results' && resultsPageNumber(records[first]) === 1)) first--;
  return { page, firstPage: records[first].page === 'results' ? records[first] : null };
}

function workflow(records: readonly ShopStepRecord[], goal: ShopGoal): ShopSkill {
  const bought = records[records.length - 1];
  const item = lastItemPage(records);
  const actions: ShopAction[] = [];
  const query = shopTerms(bought.query ?? '');
  if (query.length) actions.push({ verb: 'search', terms: query });
  const { page, firstPage } = openedFrom(records);
  if (page > 1) actions.push({ verb: 'next' });
  const says = goalTitleTerms(goal);
  actions.push({
    verb: 'click',
    item: { title: { lacks: false, terms: says }, price: { over: false, price: priceOfCents(goal.priceUpperCents) } },
  });
  const chosen = [...(item?.selected ?? [])].filter(([name, value]) => goal.options[name] === value);
  if (chosen.length)
    actions.push({ verb: 'choose', options: chosen.map(([name, value]) => shopOptionTerms(name, value)) });
  actions.push({ verb: 'buy' });
  const facts: ShopFact[] = [];
  if (item) facts.push({ kind: 'cost', price: priceOfCents(item.cents) });
  facts.push(bound(goal));
  const firstTitles = firstPage ? listedItems(firstPage).map((l) => l.title) : [];
  if (page > 1 && firstTitles.length && !firstTitles.some((t) => titleFits(t, goal))) {
    facts.push({ kind: 'page', which: 'first', had: false, item: { title: { lacks: false, terms: says } } });
  }
  return { kind: 'workflow', actions, facts };
}

/** The mistake of a purchase that earned less than 1, and its signs. */
function wrongPurchase(
  records: readonly ShopStepRecord[],
  goal: ShopGoal,
  signs: ShopFact[],
  facts: ShopFact[],
): ShopMistake {
  const item = lastItemPage(records);
  if (item === null) return { kind: 'doing', action: { verb: 'buy' } };
  const titled: ShopFact = { kind: 'titled', terms: shopTerms(item.title) };
  const title = wordsOf(item.title);
  const lacks = (terms: string[]): ShopMistake => ({
    kind: 'doing',
    action: { verb: 'buy', item: { title: { lacks: true, terms } } },
  });
  const type = shopTerms(goal.typeName);
  if (!holdsAll(title, type)) {
    signs.push(titled);
    return lacks(type);
  }
  if (item.cents > goal.priceUpperCents) {
    signs.push({ kind: 'cost', price: priceOfCents(item.cents) });
    return {
      kind: 'doing',
      action: { verb: 'buy', item: { price: { over: true, price: priceOfCents(goal.priceUpperCents) } } },
    };
  }
  const missing = titledAttributes(goal).find((a) => !holdsAll(title, shopTerms(a)));
  if (missing !== undefined) {
    signs.push(titled);
    return lacks(shopTerms(missing));
  }
  const wrong = Object.entries(goal.options).filter(([name, value]) => item.selected.get(name) !== value);
  const lacked = wrong.find(([, value]) => !item.optionParts.includes(value));
  if (lacked) {
    signs.push({ kind: 'offered', offered: false, options: [shopOptionTerms(...lacked)] });
    return { kind: 'doing', action: { verb: 'buy' } };
  }
  if (wrong.length) {
    const options = wrong.map(([name, value]) => shopOptionTerms(name, value));
    const wanted: ShopAction = { verb: 'choose', options };
    signs.push({ kind: 'offered', offered: true, options });
    facts.push({ kind: 'order', action: wanted, then: { verb: 'buy' } });
    const misChosen = wrong.find(([name]) => item.selected.has(name));
    if (misChosen === undefined) return { kind: 'before', action: { verb: 'buy' }, then: wanted };
    const [name, value] = misChosen;
    return {
      kind: 'instead',
      action: { verb: 'choose', options: [shopOptionTerms(name, item.selected.get(name)!)] },
      of: { verb: 'choose', options: [shopOptionTerms(name, value)] },
    };
  }
  const attributes = goal.attributes.map((a) => shopTerms(a)).filter((t) => t.length);
  if (attributes.length) signs.push({ kind: 'asked', terms: attributes });
  return { kind: 'doing', action: { verb: 'buy', item: {} } };
}

function avoidance(records: readonly ShopStepRecord[], goal: ShopGoal): ShopSkill {
  const steps = records.slice(1);
  const signs: ShopFact[] = [];
  const facts: ShopFact[] = [];
  const invalid = steps.filter((r) => !r.valid);
  const purchased = steps.some(
    (r) => r.valid && r.done && r.page === 'item' && lower(r.action).trim() === 'click[buy now]',
  );
  const searched = steps.some((r) => r.valid && r.action.trim().startsWith('search['));
  const opened = records.some((r) => itemPage(r) !== null);
  let mistake: ShopMistake;
  if (invalid.length > 2) {
    mistake = { kind: 'invalid' };
    const after = stepOf(invalid[0].action);
    signs.push(after ? { kind: 'nothing', after } : { kind: 'nothing' });
  } else if (purchased) {
    mistake = wrongPurchase(records, goal, signs, facts);
  } else if (!searched) {
    mistake = { kind: 'forgetting', action: { verb: 'search', terms: goalTitleTerms(goal) } };
  } else if (!opened) {
    const nexts = steps.filter((r) => r.valid && lower(r.action).trim() === 'click[next >]').length;
    mistake = nexts >= 2 ? { kind: 'instead', action: { verb: 'next' }, of: { verb: 'search' } } : { kind: 'steps' };
    const says = goalTitleTerms(goal);
    const firstPage = [...records].reverse().find((r) => resultsPageNumber(r) === 1);
    const titles = firstPage ? listedItems(firstPage).map((l) => l.title) : [];
    if (titles.length && !titles.some((t) => titleFits(t, goal)))
      signs.push({ kind: 'page', which: 'first', had: false, item: { title: { lacks: false, terms: says } } });
  } else {
    const item = lastItemPage(records)!;
    const fits = titleFits(item.title, goal) && item.cents <= goal.priceUpperCents;
    mistake = fits ? { kind: 'forgetting', action: { verb: 'buy' } } : { kind: 'steps' };
    signs.push({ kind: 'titled', terms: shopTerms(item.title) }, { kind: 'cost', price: priceOfCents(item.cents) });
  }
  signs.push(bound(goal));
  return { kind: 'avoid', mistake, signs, facts };
}

/** One cut that shortens a skill by what carries least, or false when nothing is left to cut. */
function shorten(skill: ShopSkill): boolean {
  if (skill.facts.length) return skill.facts.pop() !== undefined;
  if (skill.kind === 'avoid') return skill.signs.pop() !== undefined;
  const click = skill.actions.find((a) => a.verb === 'click');
  if (click?.item.price) return delete click.item.price;
  if (click?.item.title) return delete click.item.title;
  const next = skill.actions.findIndex((a) => a.verb === 'next');
  return next >= 0 && skill.actions.splice(next, 1).length > 0;
}

/**
 * The skill of a finished shop trajectory (records[0] is the opening page). With `length` (tokens of a text)
 * and `maxTokens`, parts are dropped until the skill fits: trailing facts, warning signs from the last, then a
 * workflow's price bound and title words of the item it opened, then its "click next"; never so many that
 * the skill has too few words to be usable.
 */
export function annotateShop(
  records: readonly ShopStepRecord[],
  goal: ShopGoal,
  won: boolean,
  fit?: { length: (text: string) => number; maxTokens: number },
): string {
  let skill = won ? workflow(records, goal) : avoidance(records, goal);
  while (fit && fit.length(formatShopSkill(skill)) > fit.maxTokens) {
    const shorter = structuredClone(skill);
    if (!shorten(shorter) || !parseShopSkill(formatShopSkill(shorter)).ok) break;
    skill = shorter;
  }
  return formatShopSkill(skill);
}
