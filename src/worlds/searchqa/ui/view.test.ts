import { describe, expect, it } from 'vitest';
import { SEARCHQA } from '../env/environment.ts';
import { OBSERVATIONS } from '../env/observations.ts';
import { readQaPage } from './page.ts';
import { SEARCHQA_VIEW } from './view.ts';

/** A command's tokens as the page writes them. */
function shown(tokens: string[]): string {
  return tokens
    .map((_, k) => SEARCHQA_VIEW.commandToken!(tokens, k, k === 0))
    .map((t, k) => (k > 0 && !t.glued ? ' ' : '') + t.text)
    .join('');
}

describe('the search-QA view', () => {
  it('writes a command as Search-R1 writes its actions', () => {
    expect(shown(['search', '[', 'Marno', 'Nular', 'born', ']'])).toBe('search[Marno Nular born]');
    expect(shown(['answer', '[', '1847', ']'])).toBe('answer[1847]');
    expect(SEARCHQA_VIEW.Page).not.toBeNull();
  });

  it('reads every page of expert and failed episodes back into the question, the passages or the grade', () => {
    for (const split of ['train', 'seen', 'unseen'] as const) {
      for (let i = 0; i < 20; i++) {
        const scene = SEARCHQA.sceneOf(split, i, 3);
        const won = SEARCHQA.episode(scene);
        const lost = SEARCHQA.episode(scene);
        expect(readQaPage(won.observation)).toEqual({ kind: 'question', question: SEARCHQA.goal(scene) });
        for (const command of won.expertPlan()) won.step(command);
        for (const command of ['look around', 'search[zzz]', 'answer[nobody]']) lost.step(command);
        const pages = [...won.records.slice(1), ...lost.records.slice(1)].map((r) => r.observation);
        for (const page of pages) {
          const read = readQaPage(page);
          if (read.kind === 'results') {
            expect(read.passages.map((p) => p.n)).toEqual(read.passages.map((_, k) => k + 1));
            expect(read.passages.map((p) => `${OBSERVATIONS.doc} ${p.n}: ${p.text}`).join('\n')).toBe(page.trim());
          } else if (read.kind === 'answer') expect(read.correct).toBe(page.trim() === OBSERVATIONS.correct);
          else expect(read).toEqual({ kind: 'text', text: page.trim() });
        }
        expect(readQaPage(won.records.at(-1)!.observation)).toEqual({
          kind: 'answer',
          correct: true,
          text: OBSERVATIONS.correct,
        });
        expect(pages.filter((p) => readQaPage(p).kind === 'results').length).toBeGreaterThan(0);
      }
    }
  });

  it('reads the opening as the transcript gets it (its question line left out) and a text that is no page as text', () => {
    expect(readQaPage('')).toEqual({ kind: 'question', question: '' });
    expect(readQaPage(OBSERVATIONS.nothingHappens)).toEqual({ kind: 'text', text: OBSERVATIONS.nothingHappens });
    expect(readQaPage('Doc 1: a passage\nnot a passage').kind).toBe('text');
  });
});
