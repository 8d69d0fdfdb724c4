// The shop's pages as text, in WebShop's simple observation form: the page's parts joined by " [SEP] ",
// buttons written as their labels. The item page offers WebShop's Description and Features tabs (product_text.ts
// writes what they show) and adds a "Selected" part once an option is chosen; it leaves out the Reviews and
// Attributes tabs and the rating, which nothing a goal asks for depends on. Every page before the purchase shows
// the search bar ("Search"): WebShop's text environment takes a search from any page.
import { BUTTONS, SEARCH_BAR } from './buttons.ts';
import type { Product } from './catalogue.ts';
import { productText } from './product_text.ts';
import type { ShopScale } from './scale.ts';

export const SEP = ' [SEP] ';

/** The item page's tabs, each a sub-page of the item, as click[...] names them. */
export const ITEM_TABS = ['description', 'features'] as const;
export type ItemTab = (typeof ITEM_TABS)[number];

/** What opens the item page's part that lists the options chosen so far (absent before the first). */
export const SELECTED = 'Selected:';

/** The page after Buy Now: a thank-you, the purchased id and (added by the game) the purchase's score. */
export const PURCHASE_TEXTS = {
  thanks: 'Thank you for shopping with us!',
  purchased: 'Purchased',
  score: 'Your score (min 0.0, max 1.0)',
} as const;

export function formatPrice(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}

/** An open item: the search and results page it was opened from, and the options chosen so far. */
interface ItemState {
  query: string;
  results: readonly Product[];
  page: number;
  product: Product;
  chosen: Readonly<Record<string, string>>;
}

export type ShopPage =
  | { kind: 'search' }
  | { kind: 'results'; query: string; results: readonly Product[]; page: number }
  | ({ kind: 'item' } & ItemState)
  | ({ kind: ItemTab } & ItemState);

/** Whether a page shows an item: its own page or one of its tabs. */
export function showsItem(kind: ShopPage['kind']): kind is 'item' | ItemTab {
  return kind === 'item' || (ITEM_TABS as readonly string[]).includes(kind);
}

export function pageCount(results: readonly unknown[], perPage: number): number {
  return Math.max(1, Math.ceil(results.length / perPage));
}

export function resultsOnPage(results: readonly Product[], page: number, perPage: number): readonly Product[] {
  return results.slice((page - 1) * perPage, page * perPage);
}

/** The chosen options a "Selected:" part names ("Selected: color: black, size: large"); empty for another part. */
export function readSelectedPart(part: string | undefined): Map<string, string> {
  const chosen = new Map<string, string>();
  if (part === undefined || !part.startsWith(`${SELECTED} `)) return chosen;
  for (const pair of part.slice(SELECTED.length + 1).split(', ')) {
    const at = pair.indexOf(': ');
    if (at > 0) chosen.set(pair.slice(0, at), pair.slice(at + 2));
  }
  return chosen;
}

/** The item page's options as the page lists them: every one (WebShop), or those not yet chosen. */
export function listedOptions(
  page: Extract<ShopPage, { kind: 'item' }>,
  scale: ShopScale,
): [string, readonly string[]][] {
  return Object.entries(page.product.options).filter(
    ([name]) => scale.chosenOptionsListed || page.chosen[name] === undefined,
  );
}

export function renderPage(page: ShopPage, instruction: string, scale: ShopScale): string {
  const head = page.kind === 'search' || scale.instructionOnEveryPage ? ['Instruction:', instruction] : [];
  switch (page.kind) {
    case 'search':
      return ['WebShop', ...head, SEARCH_BAR].join(SEP);
    case 'results': {
      const parts = [
        ...head,
        SEARCH_BAR,
        BUTTONS.backToSearch,
        `Page ${page.page} (Total results: ${page.results.length})`,
      ];
      if (page.page > 1) parts.push(BUTTONS.prev);
      if (page.page < pageCount(page.results, scale.resultsPerPage)) parts.push(BUTTONS.next);
      for (const p of resultsOnPage(page.results, page.page, scale.resultsPerPage))
        parts.push(p.id, p.title, formatPrice(p.priceCents));
      return parts.join(SEP);
    }
    case 'item': {
      const parts = [...head, SEARCH_BAR, BUTTONS.backToSearch, BUTTONS.prev];
      for (const [name, values] of listedOptions(page, scale)) parts.push(name, ...values);
      const chosen = Object.entries(page.chosen).map(([name, value]) => `${name}: ${value}`);
      if (chosen.length > 0) parts.push(`${SELECTED} ${chosen.join(', ')}`);
      parts.push(page.product.title, `Price: ${formatPrice(page.product.priceCents)}`);
      parts.push(BUTTONS.description, BUTTONS.features, BUTTONS.buyNow);
      return parts.join(SEP);
    }
    // WebShop's sub-pages: the search bar, Back to Search, "< Prev" back to the item, then the tab's text.
    case 'description':
      return [...head, SEARCH_BAR, BUTTONS.backToSearch, BUTTONS.prev, productText(page.product).description].join(SEP);
    case 'features':
      return [...head, SEARCH_BAR, BUTTONS.backToSearch, BUTTONS.prev, ...productText(page.product).features].join(SEP);
  }
}
