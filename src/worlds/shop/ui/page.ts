// A shop page as the episode view shows it: WebShop's text form (../env/pages.ts, parts joined by " [SEP] ")
// read back into its parts, so that a results page reads as a list of products, an item page as its options
// (the chosen ones marked) and price, its Description tab as its text and its Features tab as a list, and the
// purchase page as what was bought and its score. The instruction, which the task line already shows, is set
// apart so that the view prints it once, and so is the search bar that pages after the search page show. Pages
// of runs recorded before the shop had tabs and a search bar on every page read as well. Text that is no shop
// page ("Nothing happens.", a page of a form this reader does not know) stays text.
import { CATEGORIES } from '../env/categories.ts';
import { BUTTONS, SEARCH_BAR } from '../env/buttons.ts';
import { PURCHASE_TEXTS, readSelectedPart, SELECTED, SEP } from '../env/pages.ts';

interface ShopResult {
  id: string;
  title: string;
  price: string;
}

interface ShopOption {
  name: string;
  values: { value: string; chosen: boolean }[];
}

export type ShopPageView =
  | { kind: 'search' }
  | { kind: 'results'; page: number; total: number; prev: boolean; next: boolean; results: ShopResult[] }
  | { kind: 'item'; title: string; price: string; options: ShopOption[]; tabs: boolean }
  | { kind: 'description'; text: string }
  | { kind: 'features'; features: string[] }
  | { kind: 'purchase'; id: string; score: string | null }
  | { kind: 'text'; text: string };

export interface ReadShopPage {
  page: ShopPageView;
  /** The instruction the page printed at its head (WebShop prints it on every page; the tiny shop on the search page). */
  instruction: string | null;
  /** Whether a page after the search page showed the search bar (every one does, since the shop takes a search anywhere). */
  searchBar: boolean;
}

/** The option names of the catalogue's categories: on an item page, each starts its list of values. */
const OPTION_NAMES: ReadonlySet<string> = new Set(CATEGORIES.flatMap((c) => c.options.map((o) => o.name)));

const RESULTS_HEAD = /^Page (\d+) \(Total results: (\d+)\)$/;
const SELECTED_PART = `${SELECTED} `;
const PRICE = 'Price: ';

function resultsPage(parts: readonly string[]): ShopPageView | null {
  const head = RESULTS_HEAD.exec(parts[1] ?? '');
  if (!head) return null;
  let at = 2;
  const prev = parts[at] === BUTTONS.prev;
  if (prev) at++;
  const next = parts[at] === BUTTONS.next;
  if (next) at++;
  const rest = parts.slice(at);
  if (rest.length % 3 !== 0) return null;
  const results: ShopResult[] = [];
  for (let i = 0; i < rest.length; i += 3) results.push({ id: rest[i], title: rest[i + 1], price: rest[i + 2] });
  return { kind: 'results', page: Number(head[1]), total: Number(head[2]), prev, next, results };
}

function itemPage(parts: readonly string[]): ShopPageView | null {
  if (parts[1] !== BUTTONS.prev || parts[parts.length - 1] !== BUTTONS.buyNow) return null;
  let end = parts.length - 1;
  const tabs = parts[end - 2] === BUTTONS.description && parts[end - 1] === BUTTONS.features;
  if (tabs) end -= 2;
  const n = end + 1;
  if (n < 5 || !parts[n - 2].startsWith(PRICE)) return null;
  let middle = parts.slice(2, n - 3);
  const chosen = readSelectedPart(middle[middle.length - 1]);
  if (middle[middle.length - 1]?.startsWith(SELECTED_PART)) middle = middle.slice(0, -1);
  const options: ShopOption[] = [];
  for (const part of middle) {
    if (OPTION_NAMES.has(part)) options.push({ name: part, values: [] });
    else if (options.length === 0) return null;
    else {
      const option = options[options.length - 1];
      option.values.push({ value: part, chosen: chosen.get(option.name) === part });
    }
  }
  // The tiny shop stops listing an option once it is chosen: it shows as its chosen value alone.
  for (const [name, value] of chosen)
    if (!options.some((o) => o.name === name)) options.push({ name, values: [{ value, chosen: true }] });
  return { kind: 'item', title: parts[n - 3], price: parts[n - 2].slice(PRICE.length), options, tabs };
}

/** An item's tab: its Description (one part, a sentence or two) or its Features (one part a bullet, none a sentence). */
function tabPage(parts: readonly string[]): ShopPageView | null {
  const content = parts.slice(2);
  // An item page cut short is no tab: it holds buttons or a price.
  const buttons: readonly string[] = Object.values(BUTTONS);
  const itemPart = (p: string) => buttons.includes(p) || p.startsWith(PRICE);
  if (parts[1] !== BUTTONS.prev || content.length === 0 || content.some(itemPart)) return null;
  if (content.length === 1 && content[0].endsWith('.')) return { kind: 'description', text: content[0] };
  return content.some((p) => p.endsWith('.')) ? null : { kind: 'features', features: content };
}

function purchasePage(parts: readonly string[]): ShopPageView | null {
  if (parts[1] !== PURCHASE_TEXTS.purchased || parts.length < 3) return null;
  return { kind: 'purchase', id: parts[2], score: parts[3] === PURCHASE_TEXTS.score ? (parts[4] ?? null) : null };
}

/** The parts of a shop page's text; a text that is no page of the shop reads as text. */
export function readShopPage(text: string): ReadShopPage {
  let parts = text.split(SEP);
  const search = parts[0] === 'WebShop';
  if (search) parts = parts.slice(1);
  let instruction: string | null = null;
  if (parts[0] === 'Instruction:' && parts.length > 1) {
    instruction = parts[1];
    parts = parts.slice(2);
  }
  const searchBar = !search && parts[0] === SEARCH_BAR;
  if (searchBar) parts = parts.slice(1);
  let page: ShopPageView | null = null;
  if (search) page = parts.length === 1 && parts[0] === SEARCH_BAR ? { kind: 'search' } : null;
  else if (parts[0] === BUTTONS.backToSearch) page = resultsPage(parts) ?? itemPage(parts) ?? tabPage(parts);
  else if (parts[0] === PURCHASE_TEXTS.thanks) page = purchasePage(parts);
  return page
    ? { page, instruction, searchBar }
    : { page: { kind: 'text', text }, instruction: null, searchBar: false };
}
