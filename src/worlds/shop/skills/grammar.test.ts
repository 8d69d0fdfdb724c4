import { describe, expect, it } from 'vitest';
import { Rng } from '../../../common/rng.ts';
import { MARKERS } from '../../../text/markers.ts';
import { splitPieces } from '../../../text/pieces.ts';
import { MIN_SHOP_SKILL_WORDS, SHOP_SKILL_WORDS, formatShopSkill } from './skill.ts';
import { SkillGrammar, type EntityFilter } from '../../../text/skill_language/decoder.ts';
import { SHOP_SKILL_GRAMMAR, shopSkillGrammar } from './grammar.ts';
import { parseShopSkill } from './parser.ts';
import { arbitraryShopSkill, shopTestTokenizer } from './skill_testing.ts';
import { Tokenizer } from '../../../text/tokenizer.ts';
import { grammarConformance, grammarWalks, isSet } from '../../../text/skill_language/grammar_testing.ts';

const tok = shopTestTokenizer();
const grammar = shopSkillGrammar(tok);

const { allowedTokens, randomWalk } = grammarWalks(tok, grammar);
const allowedAfter = (text: string, filter?: EntityFilter) =>
  allowedTokens(grammar.allowed(grammar.walk(tok.encode(text))!, 64, filter)).map((id) => tok.token(id));

/** Every content word and number of a parsed skill: the strings under its terms, options and prices. */
function contentOf(value: unknown, inContent = false): string[] {
  if (typeof value === 'string') return inContent ? [value] : [];
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, v]) =>
    contentOf(v, inContent || ['terms', 'options', 'dollars', 'cents'].includes(key)),
  );
}

/** Whether a run of terms in a skill holds one word three times in a row. */
function hasWordThrice(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) {
    return value.some((w, i) => w !== '-' && w === value[i + 1] && w === value[i + 2]);
  }
  return Object.values(value).some(hasWordThrice);
}

describe('shop skill grammar automaton', () => {
  grammarConformance({
    tok,
    grammar,
    arbitrarySkill: arbitraryShopSkill,
    format: formatShopSkill,
    parse: parseShopSkill,
    minWords: MIN_SHOP_SKILL_WORDS,
    shortestTokens: 7,
    largestBudget: 64,
    // The decoder never writes a content word three times in a row: such a skill is refused at its third word.
    refusedOnTheWay: hasWordThrice,
  });

  it('knows the shortest valid skill: "workflow: search for cotton shirt." is 7 tokens and 5 words', () => {
    expect(grammar.shortest).toBe(7);
    const ids = tok.encode('workflow: search for cotton shirt.');
    expect(grammar.complete(grammar.walk(ids)!)).toBe(true);
    const short = grammar.walk(tok.encode('workflow: search for shirt.'))!;
    expect(grammar.complete(short)).toBe(false);
    expect(isSet(grammar.allowed(short, 64), tok.endId)).toBe(false);
  });

  it('allows exactly the grammar continuations: words after a verb, content after "for", stops after content', () => {
    expect(allowedAfter('').sort()).toEqual(['avoid', 'workflow']);
    expect(allowedAfter('workflow: search').sort()).toEqual(['again', 'for']);
    expect(allowedAfter('workflow: click').sort()).toEqual(['an', 'next']);
    expect(allowedAfter('workflow: search for cotton shirt, buy')).toEqual(['Now', 'now']);
    // After "for": every content word of the vocabulary, grammar words that are no stops among them.
    const content = allowedAfter('workflow: search for');
    expect(content).toContain('cotton');
    expect(content).toContain('Northfold');
    expect(content).toContain('search');
    expect(content).toContain('12');
    expect(content).not.toContain('and');
    expect(content).not.toContain('-');
    // After a content word: more content, "-", or what may follow the run (a stop or a mark).
    const more = allowedAfter('workflow: click an item whose title says regular');
    expect(more).toEqual(expect.arrayContaining(['fit', '-', 'priced', ',', '.']));
    expect(more).not.toContain('and');
    expect(allowedAfter('workflow: choose the black color')).toEqual(expect.arrayContaining(['and', ',', '.', 'size']));
    // A price: digits, then a point or "dollars".
    expect(allowedAfter('avoid: running out of steps; the price bound was').every((t) => /^[0-9]+$/.test(t))).toBe(
      true,
    );
    expect(allowedAfter('avoid: running out of steps; the price bound was 30').sort()).toEqual(['.', 'dollars']);
  });

  it('an entity filter limits content words and numbers to the trajectory, and leaves grammar words alone', () => {
    const trajectory = splitPieces(
      'i need a cotton oxford shirt, in navy, size x-large, and price lower than 40.00 dollars search[cotton oxford shirt]',
    );
    const filter = grammar.entityFilter(trajectory);
    // The vocabulary's content words that the trajectory holds, in any case; "and" is a stop and never content.
    expect(allowedAfter('workflow: search for', filter).sort()).toEqual([
      '00',
      '40',
      'Search',
      'cotton',
      'dollars',
      'large',
      'navy',
      'oxford',
      'price',
      'search',
      'shirt',
      'size',
      'x',
    ]);
    expect(allowedAfter('avoid: running out of steps; the price bound was', filter).sort()).toEqual(['00', '40']);
    // Grammar words stay allowed where they are grammar words, whatever the trajectory says.
    expect(allowedAfter('', filter).sort()).toEqual(['avoid', 'workflow']);
    expect(allowedAfter('workflow: search for cotton shirt. choose the navy', filter)).toEqual(
      expect.arrayContaining(['and', 'before', 'first', '-']),
    );
    // A class the trajectory names nothing of stays whole: no numbers here, so every number is allowed.
    const wordsOnly = grammar.entityFilter(['cotton', 'shirt']);
    expect(allowedAfter('avoid: running out of steps; the price bound was', wordsOnly).length).toBe(110);
    expect(allowedAfter('workflow: search for', grammar.entityFilter(['and', '[', '7'])).sort()).toEqual(['7']);
    // Walks under a filter end in valid skills whose content words all come from the trajectory.
    const named = new Set(trajectory.map((w) => w.toLowerCase()));
    for (let seed = 0; seed < 100; seed++) {
      const ids = randomWalk(new Rng(seed), 40, 0.2, filter);
      const check = parseShopSkill(tok.decode(ids));
      expect(check.ok).toBe(true);
      for (const w of contentOf(check.skill)) if (w !== '-') expect(named.has(w), w).toBe(true);
    }
  });

  it('lets a content word stand twice in a row, not three times, while the parser accepts any run', () => {
    const filter = grammar.entityFilter(splitPieces('price leather loafers cotton shirt'));
    expect(allowedAfter('avoid: buying; the item was titled leather', filter)).toContain('leather');
    expect(allowedAfter('avoid: buying; the item was titled leather leather', filter)).not.toContain('leather');
    expect(allowedAfter('avoid: buying; the item was titled leather leather', filter)).toContain('loafers');
    // Without a filter too, and the run starts again after another word.
    expect(allowedAfter('avoid: buying; the item was titled price price')).not.toContain('price');
    expect(allowedAfter('avoid: buying; the item was titled price price shirt')).toContain('price');
    expect(parseShopSkill('avoid: buying; the item was titled price price price.').ok).toBe(true);
  });

  it('records the masks a skill was decoded under and refuses a skill outside the grammar', () => {
    const ids = tok.encode('workflow: search for cotton shirt.');
    const masks = grammar.skillMasks(ids, 64);
    expect(masks.length).toBe((ids.length + 1) * grammar.maskWords);
    expect(
      allowedTokens(masks.subarray(0, grammar.maskWords))
        .map((id) => tok.token(id))
        .sort(),
    ).toEqual(['avoid', 'workflow']);
    expect(() => grammar.skillMasks(tok.encode('workflow: search for and.'), 64)).toThrow(
      /token 4 of the skill leaves the shop skill grammar/,
    );
  });

  it('needs only the grammar words and a number in the vocabulary, and says which symbol a vocabulary lacks', () => {
    const small = new Tokenizer([...MARKERS, ...SHOP_SKILL_WORDS, '7']);
    expect(new SkillGrammar(SHOP_SKILL_GRAMMAR, small).shortest).toBe(7);
    expect(() => new SkillGrammar(SHOP_SKILL_GRAMMAR, new Tokenizer([...MARKERS, ...SHOP_SKILL_WORDS]))).toThrow(
      'the vocabulary has no token for the shop skill symbol "#number"',
    );
    expect(
      () =>
        new SkillGrammar(
          SHOP_SKILL_GRAMMAR,
          new Tokenizer([...MARKERS, ...SHOP_SKILL_WORDS.filter((w) => w !== 'lacked'), '7']),
        ),
    ).toThrow(/symbol "lacked"/);
  });
});
