// The shop's pages as text, in WebShop's simple observation form: the page's parts joined by " [SEP] ",
// buttons written as their labels. The item page leaves out WebShop's Description, Features and Reviews
// tabs (the catalogue has no text behind them) and adds a "Selected" part once an option is chosen.
import type { Product } from './catalogue.ts';
import type { ShopScale } from './scale.ts';

export const SEP = ' [SEP] ';

export const BUTTONS = {
  backToSearch: 'Back to Search',
  next: 'Next >',
  prev: '< Prev',
  buyNow: 'Buy Now',
} as const;

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

export type ShopPage =
  | { kind: 'search' }
  | { kind: 'results'; query: string; results: readonly Product[]; page: number }
  | {
      kind: 'item';
      query: string;
      results: readonly Product[];
      page: number;
      product: Product;
      chosen: Readonly<Record<string, string>>;
    };

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
      return ['WebShop', ...head, 'Search'].join(SEP);
    case 'results': {
      const parts = [...head, BUTTONS.backToSearch, `Page ${page.page} (Total results: ${page.results.length})`];
      if (page.page > 1) parts.push(BUTTONS.prev);
      if (page.page < pageCount(page.results, scale.resultsPerPage)) parts.push(BUTTONS.next);
      for (const p of resultsOnPage(page.results, page.page, scale.resultsPerPage))
        parts.push(p.id, p.title, formatPrice(p.priceCents));
      return parts.join(SEP);
    }
    case 'item': {
      const parts = [...head, BUTTONS.backToSearch, BUTTONS.prev];
      for (const [name, values] of listedOptions(page, scale)) parts.push(name, ...values);
      const chosen = Object.entries(page.chosen).map(([name, value]) => `${name}: ${value}`);
      if (chosen.length > 0) parts.push(`${SELECTED} ${chosen.join(', ')}`);
      parts.push(page.product.title, `Price: ${formatPrice(page.product.priceCents)}`, BUTTONS.buyNow);
      return parts.join(SEP);
    }
  }
}
