// The shop warm start's actor, the household explorer's twin (explorer.ts): a deliberately noisy shopper that
// knows only the instruction (the task line) and what the pages it visited showed, never the catalogue or the
// goal's data. The shop's expert reads attributes no title shows ("machine washable") and so cannot be imitated
// from what a policy sees; this explorer can. It searches with the instruction's attribute and type words; on
// a results page it opens the first listed item whose title shows every word of the instruction's noun phrase
// and whose price is under the bound (the next page when none; back to search and a shorter query when the
// results run out); on the item page it chooses the option values the instruction asks for that the page
// offers, and buys (so an item lacking one, or lacking an attribute no title shows, is bought). Now and then
// (`TAB_RATE` of the items it opens, by a coin drawn from the game's state, so that a replay of the same records
// draws it again) it first reads the item's Description or Features tab and comes back with "< prev"; what the
// tab says does not change its choice, but the warm start sees that the tabs exist. With probability
// `noise` it acts at random instead (a random click, or on the search page a search of a random subset of the
// instruction's words), so it wanders as a weak agent does; those steps are marked, so a corpus need not
// imitate them.
//
// Primed (`prior`, knowledge.ts shopSkillKnowledge), it acts on what a hindsight skill states: the search
// that worked first (and back to it, rather than paging, after another), the listed item whose price is the
// cost the skill names (so a skill from a won episode of the same game carries the hidden knowledge of which
// item is right), a later page when the skill says the first had none, the options it names, and no item the
// skill says was bought wrongly: one with the title it names, or, when it says the item lacked an option
// value, one whose page does not offer it (left with "< prev" and not opened again).
import { Rng, hashString } from '../../../common/rng.ts';
import type { Environment, Episode, FreeTextCommand } from '../../../env/environment.ts';
import { exploreEpisode, type ExploredEpisode } from '../../../rl/explored_episode.ts';
import type { ShopStepRecord } from '../env/game.ts';
import { BUTTONS } from '../env/buttons.ts';
import { ITEM_TABS, SEP, showsItem } from '../env/pages.ts';
import { splitPieces } from '../../../text/pieces.ts';
import { shopTerms } from '../skills/skill.ts';
import { readInstruction, NO_SHOP_PRIOR, type ShopPrior, type WantedItem } from './knowledge.ts';
import { itemPage, listedItems, resultsPageNumber, type ListedItem } from './observed.ts';

interface ShopExplorerOptions {
  maxSteps: number;
  noise: number;
  prior?: ShopPrior;
  /** The share of the items it opens whose Description or Features tab it reads first; TAB_RATE unless given. */
  readTabs?: number;
}

export type ShopExplorerEpisode = ExploredEpisode<ShopStepRecord>;

/** The query of the words that fit the search bar (whole words, up to its limit in word pieces). */
function fitQuery(words: readonly string[], bar: FreeTextCommand | null): string {
  const kept: string[] = [];
  let pieces = 0;
  for (const w of words) {
    const n = splitPieces(w).length;
    if (bar !== null && pieces + n > bar.maxPieces) break;
    kept.push(w);
    pieces += n;
  }
  return kept.join(' ');
}

const click = (label: string) => `click[${label.toLowerCase()}]`;
const PREV = click(BUTTONS.prev);
const NEXT = click(BUTTONS.next);
const BACK = click(BUTTONS.backToSearch);
const BUY = click(BUTTONS.buyNow);
const ITEM_CLICK = /^click\[(b0[a-z0-9]{8})\]$/;
/** The share of the items the explorer opens whose Description or Features tab it reads first (either, evenly). */
export const TAB_RATE = 0.2;

const holdsAll = (words: ReadonlySet<string>, terms: readonly string[]) => terms.every((t) => words.has(t));
const sameTerms = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((t, i) => t === b[i]);

/** What the explorer has seen in this episode: where it is, which searches it paged to the end, which items it turned down. */
interface Seen {
  page: ShopStepRecord;
  /** The last search's words. */
  query: string;
  spent: Set<string>;
  rejected: Set<string>;
}

/** The page shown now (the last valid step's), the searches whose last results page it saw and the items opened and turned down. */
function seenSoFar(records: readonly ShopStepRecord[], wanted: WantedItem, prior: ShopPrior): Seen {
  const spent = new Set<string>();
  const rejected = new Set<string>();
  let page = records[0];
  let query = '';
  for (const r of records) {
    if (!r.valid) continue;
    page = r;
    const search = /^search\[(.*)\]$/.exec(r.action);
    if (search) query = search[1];
    if (r.page === 'results' && !r.observation.includes(`${SEP}${BUTTONS.next}`)) spent.add(query);
    const opened = ITEM_CLICK.exec(r.action);
    const item = opened ? itemPage(r) : null;
    if (opened && item && !acceptable(item.title, item.cents, wanted, prior, item.optionParts)) rejected.add(opened[1]);
  }
  return { page, query, spent, rejected };
}

/** Whether an option value a skill writes as terms ("x - large size") is this value ("x-large"). */
const namesValue = (terms: readonly string[], value: string) => {
  const v = shopTerms(value);
  return sameTerms(v, terms.slice(0, v.length));
};

/**
 * Whether an item is one to open (title and price as listed) or, with the options its page offers, to buy: its
 * title shows the instruction's words (and the skill's), its price is under the bound (and, to buy, the cost a
 * skill names), a skill names it as no wrong purchase, and it offers the values a skill says an earlier purchase
 * lacked.
 */
function acceptable(
  title: string,
  cents: number,
  wanted: WantedItem,
  prior: ShopPrior,
  offered?: readonly string[],
): boolean {
  const terms = shopTerms(title);
  const words = new Set(terms);
  if (!holdsAll(words, wanted.titleTerms) || !holdsAll(words, prior.titleTerms)) return false;
  if (cents > Math.min(wanted.boundCents, prior.maxCents ?? Infinity)) return false;
  if (prior.avoidTitles.some((t) => sameTerms(t, terms))) return false;
  if (offered !== undefined && prior.cents !== null && cents !== prior.cents) return false;
  return offered === undefined || prior.mustOffer.every((o) => offered.some((v) => namesValue(o, v)));
}

/** The queries in the order tried: the skill's, the instruction's words, its noun phrase, its last two words. */
function queries(wanted: WantedItem, prior: ShopPrior, bar: FreeTextCommand | null): string[] {
  const list = [prior.query, wanted.searchWords, wanted.titleTerms, wanted.titleTerms.slice(-2)]
    .filter((q): q is string[] => q !== null && q.length > 0)
    .map((q) => fitQuery(q.join(' ').replace(/ - /g, '-').split(' '), bar));
  return [...new Set(list)];
}

/** The listed item to open on a results page, or null. */
function chooseListed(
  items: readonly ListedItem[],
  pageNumber: number,
  seen: Seen,
  wanted: WantedItem,
  prior: ShopPrior,
): ListedItem | null {
  const fitting = items.filter(
    (l) => !seen.rejected.has(l.id.toLowerCase()) && acceptable(l.title, l.cents, wanted, prior),
  );
  if (prior.cents !== null) return fitting.find((l) => l.cents === prior.cents) ?? null;
  if (prior.laterPage && pageNumber === 1) return null;
  return fitting[0] ?? null;
}

/** The option values to choose on an item page: the instruction's, and those a skill names that the page offers. */
function wantedOptions(offered: readonly string[], wanted: WantedItem, prior: ShopPrior): string[] {
  const named = offered.filter((v) => prior.options.some((o) => namesValue(o, v)));
  return [...new Set([...wanted.options, ...named])];
}

/**
 * The tab to read on an item just opened, or null: a coin seeded by the game's opening page, the item and the step,
 * so that the same records always draw the same (a primed and an unprimed choice at one state agree on it).
 */
function tabToRead(records: readonly ShopStepRecord[], opened: ShopStepRecord, rate: number): string | null {
  const coin = new Rng(hashString(`shop-explorer/tab/${records[0].observation}/${opened.item}/${opened.step}`)).float();
  return coin < rate ? ITEM_TABS[coin < rate / 2 ? 0 : 1] : null;
}

/** The explorer's own choice from what the pages showed. */
function deliberateCommand(
  records: readonly ShopStepRecord[],
  admissible: readonly string[],
  bar: FreeTextCommand | null,
  wanted: WantedItem,
  prior: ShopPrior,
  readTabs = TAB_RATE,
): string {
  const seen = seenSoFar(records, wanted, prior);
  const { page } = seen;
  if (page.page === 'search') {
    const list = queries(wanted, prior, bar);
    return `search[${list.find((q) => !seen.spent.has(q)) ?? list[0]}]`;
  }
  if (page.page === 'results') {
    const chosen = chooseListed(listedItems(page), resultsPageNumber(page) ?? 1, seen, wanted, prior);
    if (chosen) return click(chosen.id);
    // The skill names the search that found the right item: results of another are not paged through.
    const elsewhere = prior.query !== null && seen.query !== queries(wanted, prior, bar)[0];
    return admissible.includes(NEXT) && !elsewhere ? NEXT : BACK;
  }
  // On an item's tab: back to the item.
  if (page.page !== 'item' && showsItem(page.page)) return PREV;
  const tab = ITEM_CLICK.test(page.action) ? tabToRead(records, page, readTabs) : null;
  if (tab !== null && admissible.includes(click(tab))) return click(tab);
  const item = itemPage(page);
  if (item === null) return BACK;
  // What the item offers: the values listed and those chosen (the tiny shop no longer lists a chosen option).
  const chosen = new Set(item.selected.values());
  if (!acceptable(item.title, item.cents, wanted, prior, [...item.optionParts, ...chosen])) return PREV;
  const missing = wantedOptions(item.optionParts, wanted, prior).find(
    (v) => !chosen.has(v) && admissible.includes(click(v)),
  );
  return missing === undefined ? BUY : click(missing);
}

/** The explorer's own choice in a game under way (primed with `prior`, or not): what a reader of a skill would do. */
export function explorerCommand(
  game: Episode<ShopStepRecord>,
  wanted: WantedItem,
  prior: ShopPrior = NO_SHOP_PRIOR,
): string {
  return deliberateCommand(game.records, game.admissibleCommands(), game.freeText(), wanted, prior);
}

/** A random command: a listed click, or on the search page a search of a random subset of the instruction's words. */
function randomCommand(
  admissible: readonly string[],
  bar: FreeTextCommand | null,
  wanted: WantedItem,
  rng: Rng,
): string {
  if (admissible.length > 0) return rng.pick(admissible);
  const words = wanted.queryWords.length ? wanted.queryWords : wanted.titleTerms;
  let subset = words.filter(() => rng.float() < 0.5);
  if (subset.length === 0) subset = [rng.pick(words)];
  return `search[${fitQuery(subset, bar)}]`;
}

/** One episode of the scene by the explorer; the scene is read only through the world (its task line and its pages). */
export function runShopExplorer<S>(
  env: Environment<S, ShopStepRecord>,
  scene: S,
  rng: Rng,
  options: ShopExplorerOptions,
): ShopExplorerEpisode {
  const game = env.episode(scene, options.maxSteps);
  const wanted = readInstruction(env.goal(scene));
  const prior = options.prior ?? NO_SHOP_PRIOR;
  const readTabs = options.readTabs ?? TAB_RATE;
  return exploreEpisode(game, rng, options.noise, {
    random: (commands, bar) => randomCommand(commands, bar, wanted, rng),
    deliberate: (commands, bar, primed) =>
      deliberateCommand(game.records, commands, bar, wanted, primed ? prior : NO_SHOP_PRIOR, readTabs),
    primed: prior !== NO_SHOP_PRIOR,
  });
}
