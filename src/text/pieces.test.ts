import { describe, expect, it } from 'vitest';
import { joinPieces, splitPieces } from './pieces.ts';

describe('pieces: ids spelled as WordPiece continuations', () => {
  it('spells a run that mixes letters and digits one character per piece, and joins it back', () => {
    expect(splitPieces('click[b0qx7]')).toEqual(['click', '[', 'b', '##0', '##q', '##x', '##7', ']']);
    expect(splitPieces('B07X4KQ2ZM [SEP] $15.00')).toEqual([
      'B',
      '##0',
      '##7',
      '##X',
      '##4',
      '##K',
      '##Q',
      '##2',
      '##Z',
      '##M',
      '[',
      'SEP',
      ']',
      '$',
      '15',
      '.',
      '00',
    ]);
    expect(joinPieces(splitPieces('Purchased B07X4KQ2ZM'))).toBe('Purchased B07X4KQ2ZM');
  });

  it('leaves words of letters only or digits only whole', () => {
    expect(splitPieces("There's a cabinet 12, and a mug.")).toEqual([
      "There's",
      'a',
      'cabinet',
      '12',
      ',',
      'and',
      'a',
      'mug',
      '.',
    ]);
    expect(joinPieces(splitPieces('go to cabinet 12'))).toBe('go to cabinet 12');
  });

  it('a continuation mark alone, or first, is written as it is', () => {
    expect(joinPieces(['##a', 'b'])).toBe('##a b');
    expect(joinPieces(['a', '##'])).toBe('a ##');
  });
});
