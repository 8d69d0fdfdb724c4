import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isWordPiece, splitPieces } from '../../../text/pieces.ts';
import { MIN_SKILL_WORDS, formatSkill, type Place, type Skill } from './skill.ts';
import { parseSkill } from './parser.ts';
import { arbitrarySkill } from './skill_testing.ts';
import { defaultTokenizer } from '../../../text/tokenizer.ts';

describe('parseSkill', () => {
  it('reads a workflow', () => {
    const r = parseSkill('workflow : find the mug , take it , go to the microwave , heat it , put it in the cabinet .');
    expect(r.ok).toBe(true);
    expect(r.kind).toBe('workflow');
    expect(r.reason).toBe('');
    expect(r.skill).toEqual({
      kind: 'workflow',
      actions: [
        { verb: 'find', thing: { det: 'the', type: 'mug' } },
        { verb: 'take', thing: 'it' },
        { verb: 'go', place: { det: 'the', type: 'microwave' } },
        { verb: 'heat', thing: 'it' },
        { verb: 'put', thing: 'it', prep: 'in', place: { det: 'the', type: 'cabinet' } },
      ],
      facts: [],
    });
  });

  it('reads avoidance rules with warning signs and trajectory facts', () => {
    const r = parseSkill(
      'Avoid: going to the drawer 1 twice; nothing happens after taking the mug 1 from the drawer 1; you searched ' +
        'the drawer 1 and cabinet 2. The mug 1 was on the countertop 2. the fridge 1 was closed. search the countertop 2 first.',
    );
    expect(r.ok).toBe(true);
    expect(r.kind).toBe('avoid');
    const drawer1: Place = { det: 'the', type: 'drawer', number: 1 };
    expect(r.skill).toEqual({
      kind: 'avoid',
      mistake: { kind: 'doing', action: { verb: 'go', place: drawer1 }, how: 'twice' },
      signs: [
        { kind: 'nothing', after: { verb: 'take', thing: { det: 'the', type: 'mug', number: 1 }, place: drawer1 } },
        { kind: 'searched', places: [drawer1, { det: '', type: 'cabinet', number: 2 }] },
      ],
      facts: [
        {
          kind: 'was',
          thing: { det: 'the', type: 'mug', number: 1 },
          not: false,
          prep: 'on',
          places: [{ det: 'the', type: 'countertop', number: 2 }],
        },
        { kind: 'state', place: { det: 'the', type: 'fridge', number: 1 }, state: 'closed' },
        { kind: 'first', action: { verb: 'search', places: [{ det: 'the', type: 'countertop', number: 2 }] } },
      ],
    });
  });

  it('reads type-level facts, a procedure and the wrong object', () => {
    const r = parseSkill(
      'avoid: taking the pot 1 instead of the pan; you searched the stoveburner 1. a pan was in a cabinet. ' +
        'heat it with the microwave 1 before putting it on the diningtable 1.',
    );
    expect(r.ok).toBe(true);
    expect(r.skill).toEqual({
      kind: 'avoid',
      mistake: {
        kind: 'instead',
        action: { verb: 'take', thing: { det: 'the', type: 'pot', number: 1 } },
        of: { det: 'the', type: 'pan' },
      },
      signs: [{ kind: 'searched', places: [{ det: 'the', type: 'stoveburner', number: 1 }] }],
      facts: [
        {
          kind: 'was',
          thing: { det: 'a', type: 'pan' },
          not: false,
          prep: 'in',
          places: [{ det: 'a', type: 'cabinet' }],
        },
        {
          kind: 'order',
          action: { verb: 'heat', thing: 'it', place: { det: 'the', type: 'microwave', number: 1 } },
          then: { verb: 'put', thing: 'it', prep: 'on', place: { det: 'the', type: 'diningtable', number: 1 } },
        },
      ],
    });
    expect(formatSkill(r.skill!)).toBe(
      'avoid: taking the pot 1 instead of the pan; you searched the stoveburner 1. a pan was in a cabinet. heat it with the microwave 1 before putting it on the diningtable 1.',
    );
  });

  it('reads the other mistakes', () => {
    const mistake = (text: string) => {
      const r = parseSkill(`avoid: ${text}; nothing happens.`);
      expect(r.reason).toBe('');
      return (r.skill as Extract<Skill, { kind: 'avoid' }>).mistake;
    };
    expect(mistake('searching the same drawer twice')).toEqual({
      kind: 'doing',
      action: { verb: 'search', places: [{ det: 'the same', type: 'drawer' }] },
      how: 'twice',
    });
    expect(mistake('putting the apple in the fridge 1 before cooling it')).toEqual({
      kind: 'before',
      action: {
        verb: 'put',
        thing: { det: 'the', type: 'apple' },
        prep: 'in',
        place: { det: 'the', type: 'fridge', number: 1 },
      },
      then: { verb: 'cool', thing: 'it' },
    });
    expect(mistake('forgetting to use the desklamp')).toEqual({
      kind: 'forgetting',
      action: { verb: 'use', thing: { det: 'the', type: 'desklamp' } },
    });
    expect(mistake('invalid commands')).toEqual({ kind: 'invalid' });
    expect(mistake('running out of steps')).toEqual({ kind: 'steps' });
  });

  it('refuses short or ungrammatical skills and says why', () => {
    const cases: [string, string | null, RegExp][] = [
      ['workflow: find it.', 'workflow', /too short: 3 words, at least 5 needed/],
      ['', null, /too short: 0 words/],
      ['the mug is somewhere in the kitchen', null, /expected "workflow" or "avoid" at the start, got "the"/],
      [
        'workflow: find the mug, take it, go to the mug',
        'workflow',
        /expected a receptacle type after "the", got "mug"/,
      ],
      ['workflow: find the mug, take it, go to the sinkbasin 1', 'workflow', /the skill ends where "\." was expected/],
      ['avoid: going to the drawer 1 twice.', 'avoid', /expected ";" after "twice", got "\."/],
      [
        'workflow: find the unicorn, take it, put it in the safe.',
        'workflow',
        /expected an object type after "the", got "unicorn"/,
      ],
      [
        'workflow: take the mug from cabinet 31, put it in the safe.',
        'workflow',
        /expected an instance number from 1 to 30 after "cabinet", got "31"/,
      ],
      ['workflow: heat the mug with the microwave 1. the mug was hot.', 'workflow', /expected "in" or "on"/],
      ['workflow: go to the desk 1, examine the desk 1, examine it. banana.', 'workflow', /expected a fact/],
    ];
    for (const [text, kind, reason] of cases) {
      const r = parseSkill(text);
      expect(r.ok).toBe(false);
      expect(r.kind).toBe(kind);
      expect(r.skill).toBeNull();
      expect(r.reason).toMatch(reason);
    }
  });
});

describe('formatSkill', () => {
  it('writes the documented examples', () => {
    expect(
      formatSkill({
        kind: 'avoid',
        mistake: {
          kind: 'doing',
          action: { verb: 'search', places: [{ det: 'the same', type: 'drawer' }] },
          how: 'twice',
        },
        signs: [
          {
            kind: 'was',
            thing: { det: 'the', type: 'mug' },
            not: false,
            prep: 'on',
            places: [{ det: 'the', type: 'countertop' }],
          },
        ],
        facts: [],
      }),
    ).toBe('avoid: searching the same drawer twice; the mug was on the countertop.');
  });

  it('refuses a skill the grammar cannot express', () => {
    expect(() => formatSkill({ kind: 'workflow', actions: [], facts: [] })).toThrow(/at least one action/);
    expect(() => formatSkill({ kind: 'avoid', mistake: { kind: 'invalid' }, signs: [], facts: [] })).toThrow(
      /warning sign/,
    );
    expect(() => formatSkill({ kind: 'workflow', actions: [{ verb: 'put', thing: 'it' }], facts: [] })).toThrow(
      /needs a prep/,
    );
  });

  it('round-trips through parseSkill, and every formatted skill is in the vocabulary', () => {
    const tok = defaultTokenizer();
    fc.assert(
      fc.property(arbitrarySkill, (s) => {
        const text = formatSkill(s);
        const r = parseSkill(text);
        const words = splitPieces(text).filter(isWordPiece).length;
        expect(r.kind).toBe(s.kind);
        expect(r.ok).toBe(words >= MIN_SKILL_WORDS);
        if (r.ok) expect(r.skill).toEqual(s);
        expect(tok.unknownPieces(text)).toEqual([]);
        expect(tok.decode(tok.encode(text))).toBe(text);
        // Upper case reads the same: the model may produce capitalised forms such as "The".
        expect(parseSkill(text.toUpperCase()).skill).toEqual(r.skill);
      }),
      { numRuns: 500 },
    );
  });
});
