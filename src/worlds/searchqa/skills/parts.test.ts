// A search-QA skill's parts for the part controls: the procedure keeps the grammar's words with every name and
// year written as its kind, the facts keep the fact sentences the pages showed, and both are words of the world's
// vocabulary.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitPieces } from '../../../text/pieces.ts';
import { formatQaSkill, QA_SKILL_WORDS } from './skill.ts';
import { parseQaSkill } from './parser.ts';
import { qaSkillFacts, qaSkillProcedure } from './parts.ts';
import { arbitraryQaSkill, qaTokenizer } from './skill_testing.ts';

const tok = qaTokenizer();
const usableSkill = arbitraryQaSkill.map((s) => formatQaSkill(s)).filter((text) => parseQaSkill(text).ok);
const FACT_KINDS = ['born', 'city', 'capital', 'founded', 'based'];

describe('a search-QA skill as its procedure and its facts', () => {
  const cases: [string, string, string][] = [
    [
      'workflow: search Marno Nular born, then search Thamia capital, then answer Zaemdrei. Marno Nular was born in 1847 in Thamia. the capital of Thamia is Zaemdrei.',
      'workflow: search the person born, then search the country capital, then answer the city.',
      'Marno Nular was born in 1847 in Thamia. the capital of Thamia is Zaemdrei.',
    ],
    [
      'workflow: search Theirnane Museum founded, then search Soken Kresar born, then answer 1829. the Theirnane Museum was founded in 1854 by Soken Kresar.',
      'workflow: search the organisation founded, then search the person born, then answer the year.',
      'the Theirnane Museum was founded in 1854 by Soken Kresar.',
    ],
    [
      'avoid: answering Zaemdrei before searching Bemena city; the Vawick Society is based in Bemena. search Vawick Society based first.',
      'avoid: answering the city before searching the city city. search the organisation based first.',
      'the Vawick Society is based in Bemena.',
    ],
    [
      'avoid: answering Mudo Nular instead of answering Marno Nular; Marno Nular was born in 1826 in Surand; Mudo Nular was born in 1830 in Thamia.',
      'avoid: answering the person instead of answering the person.',
      'Marno Nular was born in 1826 in Surand. Mudo Nular was born in 1830 in Thamia.',
    ],
    [
      'avoid: invalid actions; nothing happens after searching Thamia.',
      'avoid: invalid actions; nothing happens after searching the country.',
      '',
    ],
  ];

  it('writes each hand-written skill as its procedure and its facts', () => {
    for (const [skill, procedure, facts] of cases) {
      expect(parseQaSkill(skill).reason, skill).toBe('');
      expect(qaSkillProcedure(skill), skill).toBe(procedure);
      expect(qaSkillFacts(skill), skill).toBe(facts);
    }
  });

  it('refuses a text that does not parse: only a usable skill is transformed', () => {
    expect(() => qaSkillProcedure('answer the question')).toThrow(/search-QA skill does not parse/);
  });

  it('keeps only the grammar’s own words in the procedure: no name and no year', () => {
    fc.assert(
      fc.property(usableSkill, (text) => {
        for (const p of splitPieces(qaSkillProcedure(text))) expect(QA_SKILL_WORDS, text).toContain(p);
      }),
      { numRuns: 200 },
    );
  });

  it('keeps in the facts only the fact sentences, each fact of the skill among them', () => {
    fc.assert(
      fc.property(usableSkill, (text) => {
        const facts = qaSkillFacts(text);
        const stated = parseQaSkill(text).skill!;
        const own = [...(stated.kind === 'avoid' ? stated.signs : []), ...stated.facts].filter((f) =>
          FACT_KINDS.includes(f.kind),
        );
        if (facts === '') {
          expect(own).toEqual([]);
          return;
        }
        const read = parseQaSkill(`workflow: answer the year. ${facts}`);
        expect(read.ok, facts).toBe(true);
        for (const f of read.skill!.facts) expect(FACT_KINDS).toContain(f.kind);
        expect(read.skill!.facts).toEqual(expect.arrayContaining(own));
      }),
      { numRuns: 200 },
    );
  });

  it('writes every part in the world’s vocabulary (no <unk>)', () => {
    fc.assert(
      fc.property(usableSkill, (text) => {
        expect(tok.unknownPieces(qaSkillProcedure(text)), text).toEqual([]);
        expect(tok.unknownPieces(qaSkillFacts(text)), text).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });
});
