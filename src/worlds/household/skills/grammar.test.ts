import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Rng } from '../../../common/rng.ts';
import { OBJECT_KINDS, RECEPTACLE_KINDS } from '../env/knowledge.ts';
import { splitPieces } from '../../../text/pieces.ts';
import { MIN_SKILL_WORDS, SKILL_WORDS, formatSkill } from './skill.ts';
import { parseSkill } from './parser.ts';
import { skillGrammar, type ObjectPlaces } from './grammar.ts';
import { arbitrarySkill } from './skill_testing.ts';
import { defaultTokenizer } from '../../../text/tokenizer.ts';
import { grammarConformance, grammarWalks, isSet } from '../../../text/skill_language/grammar_testing.ts';

const tok = defaultTokenizer();
const grammar = skillGrammar(tok);

const { allowedTokens } = grammarWalks(tok, grammar);

describe('skill grammar automaton', () => {
  grammarConformance({
    tok,
    grammar,
    arbitrarySkill,
    format: formatSkill,
    parse: parseSkill,
    minWords: MIN_SKILL_WORDS,
    shortestTokens: 7,
    largestBudget: 48,
  });

  it('knows the shortest valid skill: "workflow: find the mug 1." is 7 tokens and 5 words', () => {
    expect(grammar.shortest).toBe(7);
    const ids = tok.encode('workflow: find the mug 1.');
    expect(ids.length).toBe(7);
    expect(grammar.complete(grammar.walk(ids)!)).toBe(true);
    // One word short: complete in the grammar, but not a usable skill, so the end token is not allowed.
    const short = grammar.walk(tok.encode('workflow: find the mug.'))!;
    expect(grammar.complete(short)).toBe(false);
    expect(isSet(grammar.allowed(short, 48), tok.endId)).toBe(false);
  });

  it("reads a type name one way: none is a grammar word or a number, none both an object's and a receptacle's", () => {
    // parseSkill's one-word look-ahead (startsThing, startsPlace) relies on it, as the automaton does.
    const objects = Object.keys(OBJECT_KINDS);
    const receptacles = Object.keys(RECEPTACLE_KINDS);
    expect(objects.filter((o) => receptacles.includes(o))).toEqual([]);
    const words = new Set(SKILL_WORDS);
    expect([...objects, ...receptacles].filter((t) => words.has(t) || /^[0-9]+$/.test(t))).toEqual([]);
  });

  it('allows exactly the continuations of the grammar at the start and after a verb', () => {
    const start = allowedTokens(grammar.allowed(grammar.initial, 48)).map((id) => tok.token(id));
    expect(start.sort()).toEqual(['avoid', 'workflow']);
    const afterGo = allowedTokens(grammar.allowed(grammar.walk(tok.encode('workflow: go'))!, 48)).map((id) =>
      tok.token(id),
    );
    expect(afterGo).toEqual(['to']);
    // After "the" in a place: "same" or any receptacle type (29 of them), nothing else.
    const afterThe = allowedTokens(grammar.allowed(grammar.walk(tok.encode('workflow: go to the'))!, 48)).map((id) =>
      tok.token(id),
    );
    expect(afterThe.length).toBe(30);
    expect(afterThe).toContain('same');
    expect(afterThe).toContain('cabinet');
    expect(afterThe).not.toContain('mug');
    // Case-insensitive like parseSkill: "The" continues a fact as "the" does.
    expect(grammar.walk(tok.encode('workflow: find the mug 1. The mug 1 was on the countertop 2.'))).not.toBeNull();
  });

  it('an entity filter keeps only the named types, and leaves a class whole when it names none of it', () => {
    const filter = grammar.entityFilter(['Mug', 'cabinet', 'countertop', 'You', 'see']);
    const afterFind = allowedTokens(grammar.allowed(grammar.walk(tok.encode('workflow: find the'))!, 48, filter)).map(
      (id) => tok.token(id),
    );
    expect(afterFind).toEqual(['mug']);
    const afterGoTo = allowedTokens(grammar.allowed(grammar.walk(tok.encode('workflow: go to the'))!, 48, filter)).map(
      (id) => tok.token(id),
    );
    expect(afterGoTo.sort()).toEqual(['cabinet', 'countertop', 'same']);
    // No receptacle named: every receptacle type stays allowed (29), objects stay limited to the mug.
    const objectsOnly = grammar.entityFilter(['mug']);
    expect(
      allowedTokens(grammar.allowed(grammar.walk(tok.encode('workflow: go to the'))!, 48, objectsOnly)).length,
    ).toBe(30);
    expect(
      allowedTokens(grammar.allowed(grammar.walk(tok.encode('workflow: find a'))!, 48, objectsOnly)).map((id) =>
        tok.token(id),
      ),
    ).toEqual(['mug']);
    // Instance numbers: after a type, only the numbers the words gave it; none after a type seen without one.
    const instances = grammar.entityFilter(
      splitPieces('you arrive at cabinet 2. on the cabinet 2, you see a mug 1. put a mug in countertop'),
    );
    const numbersAfter = (text: string) =>
      allowedTokens(grammar.allowed(grammar.walk(tok.encode(text))!, 48, instances))
        .map((id) => tok.token(id))
        .filter((t) => /^[0-9]+$/.test(t));
    expect(numbersAfter('workflow: go to the cabinet')).toEqual(['2']);
    expect(numbersAfter('workflow: find the mug')).toEqual(['1']);
    expect(numbersAfter('workflow: go to the countertop')).toEqual([]);
    expect(numbersAfter('workflow: go to the cabinet 2, take the mug')).toEqual(['1']);
    expect(
      grammar.skillMasks(tok.encode('workflow: take the mug 1 from the cabinet 2.'), 48, instances).length,
    ).toBeGreaterThan(0);
    expect(() => grammar.next(grammar.walk(tok.encode('workflow: go to the cabinet'))!, tok.id('3'))).not.toThrow();
    // Walks under a filter still end in valid skills that name only the filtered types.
    for (let seed = 0; seed < 50; seed++) {
      const rng = new Rng(seed);
      const ids: number[] = [];
      let prefix = grammar.initial;
      for (;;) {
        const allowed = allowedTokens(grammar.allowed(prefix, 30, filter));
        if (allowed.includes(tok.endId) && (allowed.length === 1 || rng.float() < 0.3)) break;
        const id = rng.pick(allowed.filter((a) => a !== tok.endId));
        ids.push(id);
        prefix = grammar.next(prefix, id)!;
      }
      const text = tok.decode(ids);
      expect(parseSkill(text).ok).toBe(true);
      for (const w of splitPieces(text))
        if (w in OBJECT_KINDS || w in RECEPTACLE_KINDS) expect(['mug', 'cabinet', 'countertop']).toContain(w);
    }
  });

  it('a places filter names as where an object was only where it started, as where it was not only where it was never seen', () => {
    // mug 1 started in the cabinet 2 and was put on the countertop 1; the drawer 1 was looked into, empty.
    const text =
      'put a mug in diningtable. you arrive at cabinet 2. you see a mug 1. you pick up the mug 1 from the cabinet 2. ' +
      'you arrive at countertop 1. you put the mug 1 in/on the countertop 1. you arrive at drawer 1. you see an apple 1. you arrive at diningtable 1.';
    const places: ObjectPlaces = {
      subject: 'mug',
      looked: ['cabinet 2', 'countertop 1', 'drawer 1', 'diningtable 1'],
      startedIn: new Map([
        ['mug 1', ['cabinet 2']],
        ['apple 1', ['drawer 1']],
      ]),
      seenIn: new Map([
        ['mug 1', ['cabinet 2', 'countertop 1']],
        ['apple 1', ['drawer 1']],
      ]),
      goal: 'diningtable',
    };
    const filter = grammar.entityFilter(splitPieces(text), places);
    const next = (prefix: string) =>
      allowedTokens(grammar.allowed(grammar.walk(tok.encode(prefix))!, 48, filter))
        .map((id) => tok.token(id))
        .sort();
    expect(next('workflow: take the mug 1 from the')).toEqual(['cabinet', 'same']);
    expect(next('workflow: take the mug 1 from the cabinet')).toContain('2');
    expect(next('workflow: take the mug 1 from the cabinet').filter((t) => /^[0-9]+$/.test(t))).toEqual(['2']);
    // Where it goes: the task's object only to the goal receptacle, another object to any the episode showed.
    expect(next('workflow: take the mug 1 from the cabinet 2, put it in the')).toEqual(['diningtable', 'same']);
    expect(next('avoid: putting the mug in the diningtable before putting the apple 1 in the')).toEqual([
      'cabinet',
      'countertop',
      'diningtable',
      'drawer',
      'same',
    ]);
    expect(
      next('workflow: take the mug 1 from the cabinet 2, put it in the diningtable').filter((t) => /^[0-9]+$/.test(t)),
    ).toEqual(['1']);
    // Before any object is named, "it" is the task's object; after "the apple", the apple.
    expect(next('avoid: forgetting to heat it with the microwave 1; it was in the')).toEqual(['cabinet', 'same']);
    expect(next('avoid: running out of steps; the apple was on the')).toEqual(['drawer', 'same']);
    expect(next('avoid: running out of steps; the mug was not in the')).toEqual(['diningtable', 'drawer', 'same']);
    expect(next('avoid: running out of steps; the apple 1 was not in the')).toEqual([
      'cabinet',
      'countertop',
      'diningtable',
      'same',
    ]);
    // The grammar is unchanged: the same words parse, whatever the filter allows.
    expect(grammar.walk(tok.encode('workflow: take the mug 1 from the countertop 1.'))).not.toBeNull();
  });

  it('a places filter closes every path into an empty slot, so a mask never leads to a dead end', () => {
    // Nothing was looked into: no object may be said to have been anywhere, or not been anywhere.
    // The goal receptacle is not among the named types: the task's object cannot be put anywhere either.
    const filter = grammar.entityFilter(['mug', 'apple', 'cabinet', '1'], {
      subject: 'mug',
      looked: [],
      startedIn: new Map(),
      seenIn: new Map(),
      goal: 'fridge',
    });
    const next = (prefix: string) =>
      allowedTokens(grammar.allowed(grammar.walk(tok.encode(prefix))!, 48, filter)).map((id) => tok.token(id));
    expect(next('workflow: take the mug')).not.toContain('from');
    // A fact about an object ("the mug was ...", "it was ...") cannot be completed, so it cannot be started.
    expect(next('avoid: running out of steps;')).not.toContain('it');
    expect(next('avoid: running out of steps; the')).not.toContain('mug');
    expect(next('avoid: running out of steps; the')).toContain('cabinet');
    expect(next('workflow: take the mug, put')).not.toContain('it');
    expect(next('workflow: take the mug, put the')).toEqual(['apple']);
    expect(() => next('workflow: take the mug, put it')).toThrow(/no valid skill completes/);
    expect(next('workflow: take the apple, put it in the')).toEqual(['cabinet', 'same']);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.integer({ min: 7, max: 40 }),
        fc.boolean(),
        (seed, maxTokens, seen) => {
          const rng = new Rng(seed);
          const places: ObjectPlaces = seen
            ? {
                subject: 'mug',
                looked: ['cabinet 1'],
                startedIn: new Map([['mug 1', ['cabinet 1']]]),
                seenIn: new Map([['mug 1', ['cabinet 1']]]),
                goal: 'drawer',
              }
            : { subject: 'mug', looked: [], startedIn: new Map(), seenIn: new Map(), goal: null };
          const walkFilter = grammar.entityFilter(['mug', 'apple', 'cabinet', '1', 'drawer', '2'], places);
          const ids: number[] = [];
          let prefix = grammar.initial;
          for (;;) {
            const allowed = allowedTokens(grammar.allowed(prefix, maxTokens, walkFilter));
            if (allowed.includes(tok.endId) && (allowed.length === 1 || rng.float() < 0.2)) break;
            const id = rng.pick(allowed.filter((a) => a !== tok.endId));
            ids.push(id);
            prefix = grammar.next(prefix, id)!;
          }
          expect(parseSkill(tok.decode(ids)).ok).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('records the masks a skill was decoded under and refuses a skill outside the grammar', () => {
    const ids = tok.encode('workflow: go to the cabinet 1.');
    const masks = grammar.skillMasks(ids, 48);
    expect(masks.length).toBe((ids.length + 1) * grammar.maskWords);
    expect(
      allowedTokens(masks.subarray(0, grammar.maskWords))
        .map((id) => tok.token(id))
        .sort(),
    ).toEqual(['avoid', 'workflow']);
    expect(() => grammar.skillMasks(tok.encode('workflow: go to the mug.'), 48)).toThrow(
      /token 5 of the skill leaves the skill grammar/,
    );
  });
});
