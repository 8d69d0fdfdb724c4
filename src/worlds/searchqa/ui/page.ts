// A page of the search-QA world read into its parts for the episode view (Page.tsx): the results page's
// passages one by one, as Search-R1 numbers them ("Doc 1: ..."), the question, or a line of text (the answer's
// grade, "Nothing happens.", no passage found).
import { OBSERVATIONS } from '../env/observations.ts';

interface QaPassage {
  /** Its number on the page, 1 for the best match. */
  n: number;
  text: string;
}

export type QaPageView =
  | { kind: 'question'; question: string }
  | { kind: 'results'; passages: QaPassage[] }
  | { kind: 'answer'; correct: boolean; text: string }
  | { kind: 'text'; text: string };

const DOC_LINE = new RegExp(`^${OBSERVATIONS.doc} (\\d+): (.+)$`);

/**
 * What a page of the world shows. The opening is the question, which the transcript's task line already states
 * (the page gets it empty, its frame line left out), so an empty page is the question, unstated.
 */
export function readQaPage(text: string): QaPageView {
  const trimmed = text.trim();
  if (trimmed === '') return { kind: 'question', question: '' };
  if (trimmed.startsWith(`${OBSERVATIONS.question} `))
    return { kind: 'question', question: trimmed.slice(OBSERVATIONS.question.length + 1) };
  if (trimmed === OBSERVATIONS.correct || trimmed === OBSERVATIONS.wrong)
    return { kind: 'answer', correct: trimmed === OBSERVATIONS.correct, text: trimmed };
  const lines = trimmed.split('\n');
  const docs = lines.map((line) => DOC_LINE.exec(line));
  if (docs.every((m) => m !== null))
    return { kind: 'results', passages: docs.map((m) => ({ n: Number(m![1]), text: m![2] })) };
  return { kind: 'text', text: trimmed };
}
