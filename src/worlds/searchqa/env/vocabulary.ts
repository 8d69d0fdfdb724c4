// Every text the world prints or accepts, for its tokenizer: the name stock (name_stock.ts, the same for every
// encyclopedia seed), the years, the occupations, the words of the passages' and questions' frames, the
// observations and the two commands. The list is built from the stock and the frames, not from one
// encyclopedia, so an encyclopedia of any seed prints nothing outside it.
import { PASSAGE_FRAMES } from './encyclopedia.ts';
import { FIRST_YEAR, LAST_YEAR, NAMES, OCCUPATIONS, ORGANISATION_KINDS } from './name_stock.ts';
import { OBSERVATIONS } from './observations.ts';
import { KINDS } from './questions.ts';
import { TOP_K } from './search.ts';

/** A frame's text without its slots, which take names and years listed apart. */
function frameWords(frame: string): string {
  return frame.replace(/\{\w+\}/g, ' ');
}

function years(): string[] {
  return Array.from({ length: LAST_YEAR - FIRST_YEAR + 1 }, (_, i) => String(FIRST_YEAR + i));
}

/** Every name word of the stock, as passages print it (capitalised). */
function nameWords(): string[] {
  return [...Object.values(NAMES).flat(), ...ORGANISATION_KINDS];
}

let query: string[] | null = null;

/**
 * The words a search may hold: every word a passage prints (names, years, occupations and its frame's words),
 * so a policy can copy into a query any name of the question and any word of a page.
 */
export function queryWords(): string[] {
  query ??= [
    ...new Set([
      ...nameWords(),
      ...years(),
      ...OCCUPATIONS,
      ...Object.values(PASSAGE_FRAMES).flatMap((f) => frameWords(f).match(/[A-Za-z]+/g) ?? []),
    ]),
  ];
  return query;
}

export function qaTexts(): string[] {
  return [
    ...queryWords(),
    ...Object.values(PASSAGE_FRAMES).map(frameWords),
    ...Object.values(KINDS).map((k) => frameWords(k.frame)),
    ...Object.values(OBSERVATIONS),
    ...Array.from({ length: TOP_K }, (_, i) => `${OBSERVATIONS.doc} ${i + 1}:`),
    'search[ ] answer[ ]',
  ];
}
