// What a shop trajectory showed, read back from its step records (the pages' text, pages.ts): the items a results
// page listed, and an item page's title, price, offered option values and chosen options; and all the words it
// showed, which the shop skill grammar's entity filter limits a skill's content words to. The annotator reads
// only these, never the catalogue, so a skill says nothing the trajectory did not see.
import type { ShopStepRecord } from '../env/game.ts';
import { BUTTONS } from '../env/buttons.ts';
import { readSelectedPart, SELECTED, SEP } from '../env/pages.ts';
import { splitPieces } from '../../../text/pieces.ts';

export interface ListedItem {
  id: string;
  title: string;
  cents: number;
}

export interface ItemPage {
  title: string;
  cents: number;
  /** The parts between the buttons and the title: the option names and their values. */
  optionParts: readonly string[];
  /** Option name to the value chosen on the page ("Selected: color: grey, size: large"). */
  selected: ReadonlyMap<string, string>;
}

const ID = /^B0[A-Z0-9]{8}$/;
const PRICE = /^(?:Price: )?\$([0-9]+)\.([0-9]{2})$/;

function centsOf(part: string): number | null {
  const m = PRICE.exec(part);
  return m ? Number(m[1]) * 100 + Number(m[2]) : null;
}

/** The items a results page lists, in page order (empty for another page). */
export function listedItems(record: ShopStepRecord): ListedItem[] {
  if (record.page !== 'results') return [];
  const parts = record.observation.split(SEP);
  const out: ListedItem[] = [];
  for (let i = 0; i + 2 < parts.length; i++) {
    const cents = centsOf(parts[i + 2]);
    if (ID.test(parts[i]) && cents !== null) out.push({ id: parts[i], title: parts[i + 1], cents });
  }
  return out;
}

/** The results page number a record shows ("Page 2 (Total results: 50)"), or null on another page. */
export function resultsPageNumber(record: ShopStepRecord): number | null {
  if (record.page !== 'results') return null;
  const m = /\[SEP\] Page ([0-9]+) \(Total results/.exec(record.observation);
  return m ? Number(m[1]) : null;
}

/** The item page a record shows, or null on another page (its tabs and the purchase page included). */
export function itemPage(record: ShopStepRecord): ItemPage | null {
  if (record.page !== 'item' || !record.observation.endsWith(`${SEP}${BUTTONS.buyNow}`)) return null;
  const parts = record.observation.split(SEP);
  // The price follows the title; the tabs' buttons and Buy Now follow the price.
  const priceAt = parts.findLastIndex((p) => p.startsWith('Price: '));
  const cents = priceAt > 0 ? centsOf(parts[priceAt]) : null;
  if (cents === null) return null;
  const prev = parts.indexOf(BUTTONS.prev);
  const selectedPart = parts.find((p) => p.startsWith(`${SELECTED} `));
  const selected = readSelectedPart(selectedPart);
  const optionsEnd = selectedPart === undefined ? priceAt - 1 : parts.indexOf(selectedPart);
  return { title: parts[priceAt - 1], cents, optionParts: parts.slice(prev + 1, optionsEnd), selected };
}

/** The pieces of every page a trajectory showed and every action it took: the words its skill may use. */
export function shopTrajectoryWords(records: readonly ShopStepRecord[]): string[] {
  return records.flatMap((r) => splitPieces(`${r.observation} ${r.action}`)).filter((p) => p !== '\n');
}
