import { describe, expect, it } from 'vitest';
import { Rng } from '../../../common/rng.ts';
import { MARKERS } from '../../../text/markers.ts';
import { splitPieces } from '../../../text/pieces.ts';
import { type EntityFilter, SkillGrammar } from '../../../text/skill_language/decoder.ts';
import { Tokenizer } from '../../../text/tokenizer.ts';
import { formatQaSkill, isNameWord, isYear, MIN_QA_SKILL_WORDS, QA_SKILL_WORDS } from './skill.ts';
import { QA_SKILL_GRAMMAR, qaSkillGrammar } from './grammar.ts';
import { parseQaSkill } from './parser.ts';
import { arbitraryQaSkill, qaTokenizer } from './skill_testing.ts';
import { grammarConformance, grammarWalks, isSet } from '../../../text/skill_language/grammar_testing.ts';

const tok = qaTokenizer();
const grammar = qaSkillGrammar(tok);

const { allowedTokens, randomWalk } = grammarWalks(tok, grammar);
const allowedAfter = (text: string, filter?: EntityFilter) =>
  allowedTokens(grammar.allowed(grammar.walk(tok.encode(text))!, 64, filter)).map((id) => tok.token(id));

/** Whether a text holds one name word three times in a row. */
const nameThrice = (text: string) =>
  splitPieces(text).some((w, i, all) => isNameWord(w) && w === all[i + 1] && w === all[i + 2]);

describe('the search-QA skill grammar automaton', () => {
  grammarConformance({
    tok,
    grammar,
    arbitrarySkill: arbitraryQaSkill,
    format: formatQaSkill,
    parse: parseQaSkill,
    minWords: MIN_QA_SKILL_WORDS,
    shortestTokens: 6,
    largestBudget: 64,
    // The decoder never writes a name word three times in a row: such a skill is refused at its third word.
    refusedOnTheWay: (_skill, text) => nameThrice(text),
  });

  it('knows the shortest valid skill: "workflow: search Thamia capital." is 6 tokens and 4 words', () => {
    expect(grammar.shortest).toBe(6);
    expect(grammar.complete(grammar.walk(tok.encode('workflow: search Thamia capital.'))!)).toBe(true);
    const short = grammar.walk(tok.encode('workflow: answer 1847.'))!;
    expect(grammar.complete(short)).toBe(false);
    expect(isSet(grammar.allowed(short, 64), tok.endId)).toBe(false);
  });

  it('allows exactly the grammar continuations', () => {
    expect(allowedAfter('').sort()).toEqual(['avoid', 'workflow']);
    expect(allowedAfter('workflow:').sort()).toEqual(['answer', 'search', 'then']);
    const afterSearch = allowedAfter('workflow: search');
    expect(afterSearch).toEqual(expect.arrayContaining(['Marno', 'Thamia', 'Theirnane', 'Museum', 'the', 'The']));
    expect(afterSearch.filter((t) => !isNameWord(t)).sort()).toEqual(['The', 'the']);
    expect(allowedAfter('workflow: search the').sort()).toEqual(['city', 'country', 'organisation', 'person']);
    expect(allowedAfter('workflow: answer the').sort()).toEqual(['city', 'country', 'organisation', 'person', 'year']);
    const afterAnswer = allowedAfter('workflow: answer');
    expect(afterAnswer).toContain('1847');
    expect(afterAnswer).not.toContain('1');
    // After a name: more of it, a relation word, or the end of the step.
    const afterName = allowedAfter('workflow: search Marno');
    expect(afterName).toEqual(expect.arrayContaining(['Nular', 'born', 'capital', 'city', ',', '.']));
    expect(afterName).not.toContain('first');
    // A fact: a name, "the", a step or "nothing".
    expect(allowedAfter('workflow: search Thamia capital. the').filter((t) => !isNameWord(t))).toEqual(['capital']);
    expect(allowedAfter('workflow: search Thamia capital. Marno Nular').sort()).toEqual(
      expect.arrayContaining(['is', 'was']),
    );
    expect(allowedAfter('workflow: search Thamia capital. Marno Nular was born in').every(isYear)).toBe(true);
    // "first" only after a step in a fact, never inside one.
    expect(allowedAfter('workflow: search Thamia capital. search the person')).toEqual(
      expect.arrayContaining(['first', 'before']),
    );
  });

  it('an entity filter limits names and years to the trajectory, and leaves grammar words alone', () => {
    const trajectory = splitPieces(
      'Question: What is the capital of the country where Marno Nular was born? search[Marno Nular born]\n' +
        'Doc 1: Marno Nular was born in 1847 in Thamia.',
    );
    const filter = grammar.entityFilter(trajectory);
    expect(allowedAfter('workflow: search', filter).sort()).toEqual(['Marno', 'Nular', 'Thamia', 'The', 'the']);
    expect(allowedAfter('workflow: answer', filter).sort()).toEqual(['1847', 'Marno', 'Nular', 'Thamia', 'The', 'the']);
    expect(allowedAfter('', filter).sort()).toEqual(['avoid', 'workflow']);
    // A class the trajectory names nothing of stays whole: no year here, so every year is allowed.
    const namesOnly = grammar.entityFilter(['Thamia']);
    expect(allowedAfter('workflow: answer', namesOnly).filter(isYear).length).toBe(100);
    // Walks under a filter end in valid skills whose names and years all come from the trajectory.
    const named = new Set(trajectory.map((w) => w.toLowerCase()));
    for (let seed = 0; seed < 100; seed++) {
      const text = tok.decode(randomWalk(new Rng(seed), 40, 0.2, filter));
      expect(parseQaSkill(text).ok).toBe(true);
      for (const w of splitPieces(text).filter((p) => isNameWord(p) || isYear(p)))
        expect(named.has(w.toLowerCase()), w).toBe(true);
    }
  });

  it('lets a name word stand twice in a row, not three times, while the parser accepts any run', () => {
    expect(allowedAfter('workflow: search Nular')).toContain('Nular');
    expect(allowedAfter('workflow: search Nular Nular')).not.toContain('Nular');
    expect(allowedAfter('workflow: search Nular Nular Marno')).toContain('Nular');
    expect(parseQaSkill('workflow: search Nular Nular Nular.').ok).toBe(true);
  });

  it('needs only the grammar words, a name and a year in the vocabulary, and says which symbol a vocabulary lacks', () => {
    const small = new Tokenizer([...MARKERS, ...QA_SKILL_WORDS, 'Thamia', '1847']);
    expect(new SkillGrammar(QA_SKILL_GRAMMAR, small).shortest).toBe(6);
    expect(() => new SkillGrammar(QA_SKILL_GRAMMAR, new Tokenizer([...MARKERS, ...QA_SKILL_WORDS, 'Thamia']))).toThrow(
      'the vocabulary has no token for the search-QA skill symbol "#year"',
    );
    expect(() => grammar.skillMasks(tok.encode('workflow: search Thamia first.'), 64)).toThrow(
      /token 4 of the skill leaves the search-QA skill grammar/,
    );
  });
});
