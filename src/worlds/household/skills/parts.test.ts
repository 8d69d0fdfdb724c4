// The household skill's parts for the part controls: the procedure keeps the grammar's words and nothing of
// this game, the facts keep this game's facts and no procedure, and both are words of the vocabulary.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { householdEnvironment } from '../env/environment.ts';
import { splitPieces } from '../../../text/pieces.ts';
import { SKILL_WORDS, formatSkill } from './skill.ts';
import { skillFacts, skillProcedure } from './parts.ts';
import { parseSkill } from './parser.ts';
import { arbitrarySkill } from './skill_testing.ts';
import { tokenizerOf } from '../../../text/tokenizer.ts';

const tok = tokenizerOf(householdEnvironment());

/** Skills as the analyzer's check lets them through: formatted, and usable. */
const usableSkill = arbitrarySkill.map(formatSkill).filter((text) => parseSkill(text).ok);

describe('a household skill as its procedure and its facts', () => {
  const cases: [string, string, string][] = [
    [
      'workflow: go to the cabinet 2, take the mug 1 from the cabinet 2, put it in the microwave 1. the mug 1 was in the cabinet 2.',
      'workflow: go to it, take it, put it in it.',
      'the mug 1 was in the cabinet 2.',
    ],
    [
      'workflow: take the apple 2 from the countertop 1, open the fridge 1, cool it with the fridge 1, put it on the diningtable 1. nothing happens after opening the drawer 3. heat it with the microwave 1 before putting it in the fridge 1.',
      'workflow: take it, open it, cool it, put it on it. nothing happens after opening it. heat it before putting it in it.',
      'the apple 2 was on the countertop 1. the fridge 1 was closed.',
    ],
    [
      'avoid: searching the same drawer twice; the mug was on the countertop 1.',
      'avoid: searching it twice.',
      'you searched the same drawer. the mug was on the countertop 1.',
    ],
    [
      'avoid: taking the pot 1 from the stoveburner 2 instead of the pan; you searched the stoveburner 1. a pan was in a cabinet.',
      'avoid: taking it instead of it.',
      'the pot 1 was on the stoveburner 2. you searched the stoveburner 1. a pan was in a cabinet.',
    ],
    [
      'avoid: forgetting to take the mug 1 from the cabinet 2; the mug 1 was not in the drawer 1 and the shelf 2; the cabinet 2 was closed. take them first.',
      'avoid: forgetting to take it. take them first.',
      'the mug 1 was not in the drawer 1 and the shelf 2. the cabinet 2 was closed.',
    ],
    [
      'avoid: invalid commands; nothing happens after taking another cd from the desk 1. examine the desk 2 first. search the drawer 1 and a shelf before using the desklamp 1.',
      'avoid: invalid commands; nothing happens after taking it. examine it first. search it before using it.',
      'you searched the drawer 1 and a shelf.',
    ],
    ['workflow: find the mug, heat it, put it in a cabinet.', 'workflow: find it, heat it, put it in it.', ''],
  ];

  it('writes each hand-written skill as its procedure and its facts', () => {
    for (const [skill, procedure, facts] of cases) {
      expect(parseSkill(skill).ok, skill).toBe(true);
      expect(skillProcedure(skill), skill).toBe(procedure);
      expect(skillFacts(skill), skill).toBe(facts);
    }
  });

  it('refuses a text that does not parse: only a usable skill is transformed', () => {
    expect(() => skillProcedure('take the mug')).toThrow(/does not parse/);
    expect(() => skillFacts('workflow: fly away.')).toThrow(/does not parse/);
  });

  it('keeps only the grammar’s own words in the procedure: no object, receptacle or number of the game', () => {
    fc.assert(
      fc.property(usableSkill, (text) => {
        for (const p of splitPieces(skillProcedure(text))) expect(SKILL_WORDS, text).toContain(p);
      }),
      { numRuns: 200 },
    );
  });

  it('keeps in the facts only where things were or were not, states and searches, each fact of the skill among them', () => {
    fc.assert(
      fc.property(usableSkill, (text) => {
        const facts = skillFacts(text);
        const stated = parseSkill(text).skill!;
        const own = [...(stated.kind === 'avoid' ? stated.signs : []), ...stated.facts].filter(
          (f) => f.kind === 'was' || f.kind === 'state' || f.kind === 'searched',
        );
        if (facts === '') {
          expect(own).toEqual([]);
          return;
        }
        const read = parseSkill(`workflow: find it. ${facts}`);
        expect(read.ok, facts).toBe(true);
        for (const f of read.skill!.facts) expect(['was', 'state', 'searched']).toContain(f.kind);
        expect(read.skill!.facts).toEqual(expect.arrayContaining(own));
      }),
      { numRuns: 200 },
    );
  });

  it('writes every part in the household’s vocabulary (no <unk>)', () => {
    fc.assert(
      fc.property(usableSkill, (text) => {
        expect(tok.unknownPieces(text)).toEqual([]);
        expect(tok.unknownPieces(skillProcedure(text)), text).toEqual([]);
        expect(tok.unknownPieces(skillFacts(text)), text).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });
});
