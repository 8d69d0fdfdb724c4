import { describe, expect, it } from 'vitest';
import { canonicalCommand, commandRefusal, overPieces, parseCommand, wordPieces } from './commands.ts';

describe('search-QA commands', () => {
  it("read Search-R1's two commands, with any spacing a tokenizer writes back", () => {
    expect(parseCommand('search [ Marno  Nular born ] ')).toEqual({ verb: 'search', argument: 'Marno Nular born' });
    expect(parseCommand('answer[1847]')).toEqual({ verb: 'answer', argument: '1847' });
    expect(parseCommand('answer[]')).toEqual({ verb: 'answer', argument: '' });
    for (const text of ['look', 'search Marno', 'click[1847]', 'search[Marno', 'Search[Marno]'])
      expect(parseCommand(text)).toBeNull();
    expect(canonicalCommand(' answer [ the  Vawick Society ]')).toBe('answer[the Vawick Society]');
    expect(canonicalCommand('  look ')).toBe('look');
  });

  it("split text into word pieces by the tokenizer's rule", () => {
    expect(wordPieces('Doc 1: The Vawick Society was founded in 1881.\nDoc 2:')).toEqual([
      'Doc',
      '1',
      ':',
      'The',
      'Vawick',
      'Society',
      'was',
      'founded',
      'in',
      '1881',
      '.',
      '\n',
      'Doc',
      '2',
      ':',
    ]);
    expect(wordPieces("B07x it's in/on -=")).toEqual(['B', '##0', '##7', '##x', "it's", 'in/on', '-=']);
  });

  it('count pieces as the split does, stopping past the limit', () => {
    for (const text of ['Marno Nular born', 'B07x a b', 'a, b. c', '']) {
      const n = wordPieces(text).length;
      expect(overPieces(text, n)).toBe(false);
      if (n > 0) expect(overPieces(text, n - 1)).toBe(true);
    }
    expect(overPieces('x '.repeat(1_000_000), 8)).toBe(true);
  });

  it('refuse only a search or an answer too long for a policy', () => {
    expect(commandRefusal('search[a b c d e f g h]', 79)).toBeNull();
    expect(commandRefusal('search[a b c d e f g h i]', 79)).toMatch(/^a search query holds at most 8 word pieces/);
    expect(commandRefusal('answer[a,b,c,d,e]', 79)).toMatch(/^an answer holds at most 8 word pieces/);
    expect(commandRefusal(`look ${'x '.repeat(100)}`, 79)).toBeNull();
  });
});
