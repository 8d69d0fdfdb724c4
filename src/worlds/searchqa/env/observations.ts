// What the world prints besides the question and the passages' own text. A results page is Search-R1's: the
// retrieved passages numbered "Doc 1:", "Doc 2:", ..., one a line, best first.
import type { Passage } from './encyclopedia.ts';

export const OBSERVATIONS = {
  question: 'Question:',
  /** Each retrieved passage is a line "Doc 1: ...", as Search-R1 numbers its documents. */
  doc: 'Doc',
  noMatch: 'No passage matches the search.',
  correct: 'Your answer is correct.',
  wrong: 'Your answer is wrong.',
  nothingHappens: 'Nothing happens.',
} as const;

export function renderPassages(passages: readonly Passage[]): string {
  if (passages.length === 0) return OBSERVATIONS.noMatch;
  return passages.map((p, i) => `${OBSERVATIONS.doc} ${i + 1}: ${p.text}`).join('\n');
}
