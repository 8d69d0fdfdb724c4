// The shop skill's parts for the part controls: the procedure keeps the grammar's words and "this" in place of
// every term and price, the facts keep what the pages and the steps showed, and both are words of the shop's
// vocabulary.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SHOP } from '../env/environment.ts';
import { splitPieces } from '../../../text/pieces.ts';
import { SHOP_SKILL_WORDS, formatShopSkill } from './skill.ts';
import { shopSkillFacts, shopSkillProcedure } from './parts.ts';
import { parseShopSkill } from './parser.ts';
import { arbitraryShopSkill } from './skill_testing.ts';
import { tokenizerOf } from '../../../text/tokenizer.ts';

const tok = tokenizerOf(SHOP);

const usableSkill = arbitraryShopSkill.map(formatShopSkill).filter((text) => parseShopSkill(text).ok);
const FACT_KINDS = ['page', 'bound', 'cost', 'offered', 'titled', 'asked'];

describe('a shop skill as its procedure and its facts', () => {
  const cases: [string, string, string][] = [
    [
      'workflow: search for cotton shirt, click an item whose title says cotton priced under 30 dollars, choose the large size, buy now. the item cost 24 dollars.',
      'workflow: search for this, click an item whose title says this priced under this dollars, choose the this, buy now.',
      'the item offered the large size. the item cost 24 dollars.',
    ],
    [
      'avoid: buying before choosing the x - large size and the black color; the item offered the x - large size. the price bound was 12 . 50 dollars.',
      'avoid: buying before choosing the this and the this.',
      'the item offered the x - large size and the black color. the item offered the x - large size. the price bound was 12. 50 dollars.',
    ],
    [
      'avoid: buying an item priced over 40 dollars instead of clicking next; the first page had no item whose title lacks wool. nothing happens after going back to search. search again first.',
      'avoid: buying an item priced over this dollars instead of clicking next. nothing happens after going back to search. search again first.',
      'the first page had no item whose title lacks wool.',
    ],
    [
      'avoid: forgetting to choose the red color; the instruction asked for red and cotton shirt; the item was titled slim cotton shirt. choose the red color before buying.',
      'avoid: forgetting to choose the this. choose the this before buying.',
      'the instruction asked for red and cotton shirt. the item was titled slim cotton shirt. the item offered the red color.',
    ],
    [
      'avoid: invalid actions; nothing happens after clicking next.',
      'avoid: invalid actions; nothing happens after clicking next.',
      '',
    ],
  ];

  it('writes each hand-written skill as its procedure and its facts', () => {
    for (const [skill, procedure, facts] of cases) {
      expect(parseShopSkill(skill).ok, skill).toBe(true);
      expect(shopSkillProcedure(skill), skill).toBe(procedure);
      expect(shopSkillFacts(skill), skill).toBe(facts);
    }
  });

  it('refuses a text that does not parse: only a usable skill is transformed', () => {
    expect(() => shopSkillProcedure('buy the shirt')).toThrow(/does not parse/);
  });

  it('keeps only the grammar’s own words and "this" in the procedure: no term, title word, option or price', () => {
    fc.assert(
      fc.property(usableSkill, (text) => {
        for (const p of splitPieces(shopSkillProcedure(text))) expect([...SHOP_SKILL_WORDS, 'this'], text).toContain(p);
      }),
      { numRuns: 200 },
    );
  });

  it('keeps in the facts only the fact sentences, each fact of the skill among them', () => {
    fc.assert(
      fc.property(usableSkill, (text) => {
        const facts = shopSkillFacts(text);
        const stated = parseShopSkill(text).skill!;
        const own = [...(stated.kind === 'avoid' ? stated.signs : []), ...stated.facts].filter((f) =>
          FACT_KINDS.includes(f.kind),
        );
        if (facts === '') {
          expect(own).toEqual([]);
          return;
        }
        const read = parseShopSkill(`workflow: buy now. ${facts}`);
        expect(read.ok, facts).toBe(true);
        for (const f of read.skill!.facts) expect(FACT_KINDS).toContain(f.kind);
        expect(read.skill!.facts).toEqual(expect.arrayContaining(own));
      }),
      { numRuns: 200 },
    );
  });

  it('writes every part in the shop’s vocabulary (no <unk>)', () => {
    fc.assert(
      fc.property(usableSkill, (text) => {
        expect(tok.unknownPieces(text)).toEqual([]);
        expect(tok.unknownPieces(shopSkillProcedure(text)), text).toEqual([]);
        expect(tok.unknownPieces(shopSkillFacts(text)), text).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });
});
