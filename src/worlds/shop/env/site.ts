// The shop's state and rules: which page is shown and what each action does there. The grammar is WebShop's:
// search[query] on any page before the purchase (WebShop's text environment takes a search from any page);
// click[x] on any page but the search page, where x is a button ("back to search", "next >", "< prev",
// "description", "features", "buy now"), an item id on a results page or an option value on an item page
// (case is ignored, as WebShop lower-cases its clickables). An item's tab is a sub-page whose "< prev" returns to
// the item as it was, its chosen options kept. An action the page does not offer changes nothing and answers
// "Nothing happens.", as the household does.
import type { Product } from './catalogue.ts';
import { BUTTONS } from './buttons.ts';
import {
  ITEM_TABS,
  type ItemTab,
  PURCHASE_TEXTS,
  SEP,
  listedOptions,
  pageCount,
  renderPage,
  resultsOnPage,
  type ShopPage,
} from './pages.ts';
import type { ShopScale } from './scale.ts';
import type { ShopSearch } from './search.ts';

export const NOTHING_HAPPENS = 'Nothing happens.';
/**
 * Word pieces a query holds at most: the longest instruction's type, attributes and options fit. The policy's
 * search bar writes no more (ShopGame.freeText), and the site takes no longer query from anyone.
 */
export const MAX_QUERY_PIECES = 12;

export interface Purchase {
  product: Product;
  chosen: Readonly<Record<string, string>>;
}

interface Outcome {
  observation: string;
  valid: boolean;
}

const lower = (label: string) => label.toLowerCase();

/**
 * An action's verb and argument; spaces around the brackets and inside the argument are not significant, so a
 * command a tokenizer wrote back with its spacing ("search [ cotton shirt ]") reads as WebShop's form.
 */
function parseAction(action: string): { verb: 'search' | 'click'; argument: string } | null {
  const match = /^(search|click)\s*\[(.*)\]$/s.exec(action.trim());
  return match ? { verb: match[1] as 'search' | 'click', argument: match[2].trim().replace(/\s+/g, ' ') } : null;
}

/**
 * Whether `text` holds more than `limit` word pieces as the tokenizer splits it (text/pieces.ts: a run of
 * letters, digits and apostrophes is one piece, or one per character where it mixes letters and digits, and
 * every other character but whitespace is one). Counting stops past the limit, so a query of megabytes costs
 * one scan of its text up to there and is never split or searched.
 */
export function overPieces(text: string, limit: number): boolean {
  const piece = /in\/on|-=|=-|[A-Za-z0-9']+|\n|[^\sA-Za-z0-9']/g;
  let count = 0;
  for (let m = piece.exec(text); m !== null; m = piece.exec(text)) {
    count += /[A-Za-z]/.test(m[0]) && /[0-9]/.test(m[0]) ? m[0].length : 1;
    if (count > limit) return true;
  }
  return false;
}

/**
 * Why the shop cannot take `action` from a player (a search longer than a policy writes), or null: more than
 * MAX_QUERY_PIECES word pieces, or more than `maxChars` characters (what that many of the longest words a query
 * may hold come to; a single run of letters is one piece however long, and no policy writes one of megabytes).
 */
export function shopActionRefusal(action: string, maxChars = Number.POSITIVE_INFINITY): string | null {
  const parsed = parseAction(action);
  if (parsed?.verb !== 'search') return null;
  const long = parsed.argument.length > maxChars;
  if (!long && !overPieces(parsed.argument, MAX_QUERY_PIECES)) return null;
  return (
    `a search query holds at most ${MAX_QUERY_PIECES} word pieces (each word, number and mark such as "-" is one)` +
    `${Number.isFinite(maxChars) ? ` and ${maxChars} characters` : ''}, as the policy's search bar does; ` +
    `this one holds more (${parsed.argument.length} characters)`
  );
}

/** The action in WebShop's written form ("search[cotton shirt]"); text that is no action is returned trimmed. */
export function canonicalAction(action: string): string {
  const parsed = parseAction(action);
  return parsed ? `${parsed.verb}[${parsed.argument}]` : action.trim();
}

export class ShopSite {
  private current: ShopPage = { kind: 'search' };
  private bought: Purchase | null = null;

  constructor(
    private readonly engine: ShopSearch,
    private readonly instruction: string,
    readonly scale: ShopScale,
  ) {}

  get page(): ShopPage {
    return this.current;
  }

  get purchase(): Purchase | null {
    return this.bought;
  }

  render(): string {
    return renderPage(this.current, this.instruction, this.scale);
  }

  /** Whether the page takes search[query]: every page before the purchase. */
  hasSearchBar(): boolean {
    return this.bought === null;
  }

  /** The labels click[...] takes on this page, lower case, in page order (WebShop's clickables). */
  clickables(): string[] {
    const page = this.current;
    if (this.bought !== null || page.kind === 'search') return [];
    if (page.kind === 'results') {
      const out = [lower(BUTTONS.backToSearch)];
      if (page.page > 1) out.push(lower(BUTTONS.prev));
      if (page.page < pageCount(page.results, this.scale.resultsPerPage)) out.push(lower(BUTTONS.next));
      return [...out, ...resultsOnPage(page.results, page.page, this.scale.resultsPerPage).map((p) => lower(p.id))];
    }
    if (page.kind !== 'item') return [lower(BUTTONS.backToSearch), lower(BUTTONS.prev)];
    return [
      lower(BUTTONS.backToSearch),
      lower(BUTTONS.prev),
      ...listedOptions(page, this.scale).flatMap(([, values]) => values),
      ...ITEM_TABS,
      lower(BUTTONS.buyNow),
    ];
  }

  apply(action: string): Outcome {
    const parsed = parseAction(action);
    if (parsed?.verb === 'search') return this.search(parsed.argument);
    if (parsed?.verb === 'click' && this.clickables().includes(lower(parsed.argument)))
      return this.click(lower(parsed.argument));
    return { observation: NOTHING_HAPPENS, valid: false };
  }

  private show(page: ShopPage): Outcome {
    this.current = page;
    return { observation: this.render(), valid: true };
  }

  private search(query: string): Outcome {
    if (!this.hasSearchBar() || query === '' || overPieces(query, MAX_QUERY_PIECES))
      return { observation: NOTHING_HAPPENS, valid: false };
    return this.show({ kind: 'results', query, results: this.engine.search(query, this.scale.maxResults), page: 1 });
  }

  /** A click on a label that clickables() offers. */
  private click(label: string): Outcome {
    const page = this.current;
    if (label === lower(BUTTONS.backToSearch)) return this.show({ kind: 'search' });
    if (page.kind === 'results') {
      if (label === lower(BUTTONS.next)) return this.show({ ...page, page: page.page + 1 });
      if (label === lower(BUTTONS.prev)) return this.show({ ...page, page: page.page - 1 });
      const product = page.results.find((p) => lower(p.id) === label)!;
      return this.show({
        kind: 'item',
        query: page.query,
        results: page.results,
        page: page.page,
        product,
        chosen: {},
      });
    }
    if (page.kind === 'search') throw new Error('no click on the search page');
    // A tab's one other click is "< prev": back to its item, as it was.
    if (page.kind !== 'item') return this.show({ ...page, kind: 'item' });
    if (label === lower(BUTTONS.prev))
      return this.show({ kind: 'results', query: page.query, results: page.results, page: page.page });
    if ((ITEM_TABS as readonly string[]).includes(label)) return this.show({ ...page, kind: label as ItemTab });
    if (label === lower(BUTTONS.buyNow)) {
      this.bought = { product: page.product, chosen: page.chosen };
      return { observation: [PURCHASE_TEXTS.thanks, PURCHASE_TEXTS.purchased, page.product.id].join(SEP), valid: true };
    }
    const name = Object.keys(page.product.options).find((n) => page.product.options[n].includes(label))!;
    return this.show({ ...page, chosen: { ...page.chosen, [name]: label } });
  }
}
