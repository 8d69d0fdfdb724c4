import { describe, expect, it } from 'vitest';
import { SEARCHQA_VIEW } from './view.ts';

/** A command's tokens as the page writes them. */
function shown(tokens: string[]): string {
  return tokens
    .map((_, k) => SEARCHQA_VIEW.commandToken!(tokens, k, k === 0))
    .map((t, k) => (k > 0 && !t.glued ? ' ' : '') + t.text)
    .join('');
}

describe('the search-QA view', () => {
  it('writes a command as Search-R1 writes its actions, and shows pages as their text', () => {
    expect(shown(['search', '[', 'Marno', 'Nular', 'born', ']'])).toBe('search[Marno Nular born]');
    expect(shown(['answer', '[', '1847', ']'])).toBe('answer[1847]');
    expect(SEARCHQA_VIEW.Page).toBeNull();
  });
});
