import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Rng } from '../common/rng.ts';
import { householdEnvironment } from '../worlds/household/env/environment.ts';
import { SHOP } from '../worlds/shop/env/environment.ts';
import { formatShopSkill } from '../worlds/shop/skills/skill.ts';
import { arbitraryShopSkill } from '../worlds/shop/skills/skill_testing.ts';
import { formatSkill } from '../worlds/household/skills/skill.ts';
import { arbitrarySkill } from '../worlds/household/skills/skill_testing.ts';
import { tokenizerOf } from './tokenizer.ts';
import { joinPieces, shufflePieces, splitPieces } from './pieces.ts';

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

describe('shufflePieces: a text’s words in a random order (the shuffled part control)', () => {
  const skill = 'workflow: take the mug 1 from the cabinet 2, heat it. the mug 1 was in the cabinet 2.';

  it('draws the order from its stream: the same stream gives the same text, bit for bit', () => {
    expect(shufflePieces(skill, new Rng(7))).toBe(shufflePieces(skill, new Rng(7)));
    expect(shufflePieces(skill, new Rng(7))).toBe(
      'mug from workflow 1 the cabinet mug: take in 2. the the it. was cabinet, the 2 heat 1',
    );
    expect(shufflePieces(skill, new Rng(8))).not.toBe(shufflePieces(skill, new Rng(7)));
  });

  it('moves a spelled id as one, so that the text encodes to the same tokens', () => {
    const tok = tokenizerOf(SHOP);
    const text = 'click b07x4 and buy now';
    const shuffled = shufflePieces(text, new Rng(1));
    expect(shuffled).toContain('b07x4');
    expect(tok.encode(shuffled).sort()).toEqual(tok.encode(text).sort());
  });

  it('encodes every skill of both worlds to its own tokens, permuted', () => {
    const worlds = [
      { tok: tokenizerOf(householdEnvironment()), skills: arbitrarySkill.map(formatSkill) },
      { tok: tokenizerOf(SHOP), skills: arbitraryShopSkill.map(formatShopSkill) },
    ];
    for (const { tok, skills } of worlds)
      fc.assert(
        fc.property(skills, fc.integer({ min: 0, max: 0xffffffff }), (text, seed) => {
          const shuffled = shufflePieces(text, new Rng(seed));
          expect(tok.unknownPieces(shuffled)).toEqual([]);
          expect(tok.encode(shuffled).sort((a, b) => a - b)).toEqual(tok.encode(text).sort((a, b) => a - b));
        }),
        { numRuns: 200 },
      );
  });
});
