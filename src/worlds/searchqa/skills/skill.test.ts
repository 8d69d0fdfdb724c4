import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NAMES } from '../env/name_stock.ts';
import { formatQaSkill, isNameWord, kindOfName, QA_SKILL_WORDS, type QaSkill } from './skill.ts';
import { parseQaSkill } from './parser.ts';
import { arbitraryQaSkill, qaTokenizer } from './skill_testing.ts';

const tok = qaTokenizer();

describe('search-QA skills', () => {
  it('formats a workflow with its names as the pages print them, and parses it back', () => {
    const s: QaSkill = {
      kind: 'workflow',
      actions: [
        { verb: 'search', target: { names: ['marno', 'nular'] }, relation: 'born' },
        { verb: 'search', target: { names: ['thamia'] }, relation: 'capital', follows: true },
        { verb: 'answer', value: { names: ['zaemdrei'] }, follows: true },
      ],
      facts: [
        { kind: 'born', person: ['marno', 'nular'], year: '1847', country: ['thamia'] },
        { kind: 'capital', country: ['thamia'], city: ['zaemdrei'] },
      ],
    };
    const text = formatQaSkill(s);
    expect(text).toBe(
      'workflow: search Marno Nular born, then search Thamia capital, then answer Zaemdrei. ' +
        'Marno Nular was born in 1847 in Thamia. the capital of Thamia is Zaemdrei.',
    );
    expect(tok.unknownPieces(text)).toEqual([]);
    expect(parseQaSkill(text)).toEqual({ ok: true, kind: 'workflow', reason: '', skill: s });
  });

  it('reads every fact a page prints, the procedure words and the rule facts', () => {
    const texts = [
      'workflow: search the organisation founded, then search the person born, then answer the year.',
      'avoid: answering Mudo Nular instead of answering Marno Nular; Marno Nular was born in 1826 in Surand.',
      'avoid: answering Zaemdrei before searching Thamia capital; Bemena is a city in Thamia.',
      'avoid: forgetting to answer 1854; the Theirnane Museum was founded in 1854 by Soken Kresar.',
      'avoid: running out of steps; the Vawick Society is based in Bemena. search the person first.',
      'avoid: invalid actions; nothing happens after searching the city city.',
      'workflow: search Thamia. search the person before searching the country.',
    ];
    for (const text of texts) {
      expect(parseQaSkill(text).reason, text).toBe('');
      expect(formatQaSkill(parseQaSkill(text).skill!), text).toBe(text);
    }
  });

  it('refuses what the grammar does not say, naming what it expected', () => {
    expect(parseQaSkill('workflow: search.').reason).toBe('too short: 2 words, at least 4 needed');
    expect(parseQaSkill('workflow: search Marno first, then answer Mudo.').reason).toBe(
      'expected "." after "marno", got "first"',
    );
    expect(parseQaSkill('workflow: search the year born.').reason).toMatch(/^expected "person" or "country"/);
    expect(parseQaSkill('workflow: answer Marno. Marno was born in Thamia.').reason).toBe(
      'expected a year after "in", got "thamia"',
    );
    expect(parseQaSkill('avoid: then answering Marno Nular.').reason).toBe(
      'expected "searching" or "answering" after ":", got "then"',
    );
  });

  it('formats every skill of the grammar in the vocabulary, and parses it back to itself', () => {
    fc.assert(
      fc.property(arbitraryQaSkill, (s) => {
        const text = formatQaSkill(s);
        expect(tok.unknownPieces(text)).toEqual([]);
        const parsed = parseQaSkill(text);
        if (parsed.reason.startsWith('too short')) expect(text.split(' ').length).toBeLessThan(5);
        else expect(parsed.skill).toEqual(s);
      }),
      { numRuns: 300 },
    );
  });

  it('knows the kind of entity every name word names; no grammar word is a name', () => {
    expect(kindOfName(['marno', 'nular'])).toBe('person');
    expect(kindOfName(['Thamia'])).toBe('country');
    expect(kindOfName(['theirnane', 'museum'])).toBe('organisation');
    expect(kindOfName(['zaemdrei'])).toBe('city');
    expect(kindOfName(['painter'])).toBeNull();
    expect(Object.values(NAMES).flat().every(isNameWord)).toBe(true);
    expect(QA_SKILL_WORDS.filter(isNameWord)).toEqual([]);
  });
});
