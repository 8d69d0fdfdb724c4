import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { OBJECT_KINDS, RECEPTACLE_KINDS } from '../env/knowledge.ts';
import { isWordPiece, splitPieces } from './pieces.ts';
import { MIN_SKILL_WORDS, formatSkill, parseSkill, type Action, type Fact, type Mistake, type Place, type Skill, type Thing } from './skill.ts';
import { defaultTokenizer } from './tokenizer.ts';

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
        { kind: 'was', thing: { det: 'the', type: 'mug', number: 1 }, not: false, prep: 'on', places: [{ det: 'the', type: 'countertop', number: 2 }] },
        { kind: 'state', place: { det: 'the', type: 'fridge', number: 1 }, state: 'closed' },
        { kind: 'first', action: { verb: 'search', places: [{ det: 'the', type: 'countertop', number: 2 }] } },
      ],
    });
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
      action: { verb: 'put', thing: { det: 'the', type: 'apple' }, prep: 'in', place: { det: 'the', type: 'fridge', number: 1 } },
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
      ['workflow: find the mug, take it, go to the mug', 'workflow', /expected a receptacle type after "the", got "mug"/],
      ['workflow: find the mug, take it, go to the sinkbasin 1', 'workflow', /the skill ends where "\." was expected/],
      ['avoid: going to the drawer 1 twice.', 'avoid', /expected ";" after "twice", got "\."/],
      ['workflow: find the unicorn, take it, put it in the safe.', 'workflow', /expected an object type after "the", got "unicorn"/],
      ['workflow: take the mug from cabinet 31, put it in the safe.', 'workflow', /expected an instance number from 1 to 30 after "cabinet", got "31"/],
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

// Random skills, built without undefined fields so that they compare equal to what the parser returns.
const objectType = fc.constantFrom(...Object.keys(OBJECT_KINDS));
const receptacleType = fc.constantFrom(...Object.keys(RECEPTACLE_KINDS));
const maybeNumber = fc.option(fc.integer({ min: 1, max: 30 }), { nil: undefined });

function withNumber<T extends object>(base: T, number: number | undefined): T & { number?: number } {
  return number === undefined ? base : { ...base, number };
}

const thing: fc.Arbitrary<Thing> = fc.oneof(
  fc.constantFrom<Thing>('it', 'them'),
  fc
    .tuple(fc.constantFrom('the' as const, 'a' as const, 'another' as const), objectType, maybeNumber)
    .map(([det, type, n]) => withNumber({ det, type }, n)),
);
const place: fc.Arbitrary<Place> = fc
  .tuple(fc.constantFrom<Place['det']>('', 'the', 'the same'), receptacleType, maybeNumber)
  .map(([det, type, n]) => withNumber({ det, type }, n));
const places = fc.array(place, { minLength: 1, maxLength: 3 });
const optionalPlace = fc.option(place, { nil: undefined });
const prep = fc.constantFrom('in' as const, 'on' as const);

const action: fc.Arbitrary<Action> = fc.oneof(
  fc.tuple(fc.constantFrom('find' as const, 'use' as const), thing).map(([verb, t]) => ({ verb, thing: t })),
  fc.tuple(fc.constantFrom('go' as const, 'open' as const, 'close' as const), place).map(([verb, p]) => ({ verb, place: p })),
  fc
    .tuple(fc.constantFrom('take' as const, 'heat' as const, 'cool' as const, 'clean' as const), thing, optionalPlace)
    .map(([verb, t, p]): Action => (p === undefined ? { verb, thing: t } : { verb, thing: t, place: p })),
  fc.tuple(thing, prep, place).map(([t, pr, p]): Action => ({ verb: 'put', thing: t, prep: pr, place: p })),
  fc.oneof(thing.map((t): Action => ({ verb: 'examine', thing: t })), place.map((p): Action => ({ verb: 'examine', place: p }))),
  places.map((ps): Action => ({ verb: 'search', places: ps })),
);

const mistake: fc.Arbitrary<Mistake> = fc.oneof(
  fc
    .tuple(action, fc.option(fc.constantFrom('twice' as const, 'again' as const), { nil: undefined }))
    .map(([a, how]): Mistake => (how === undefined ? { kind: 'doing', action: a } : { kind: 'doing', action: a, how })),
  fc.tuple(action, action).map(([a, b]): Mistake => ({ kind: 'before', action: a, then: b })),
  action.map((a): Mistake => ({ kind: 'forgetting', action: a })),
  fc.constant<Mistake>({ kind: 'invalid' }),
  fc.constant<Mistake>({ kind: 'steps' }),
);

const fact: fc.Arbitrary<Fact> = fc.oneof(
  fc.tuple(thing, fc.boolean(), prep, places).map(([t, not, pr, ps]): Fact => ({ kind: 'was', thing: t, not, prep: pr, places: ps })),
  fc
    .tuple(place, fc.constantFrom('closed' as const, 'open' as const, 'empty' as const))
    .map(([p, state]): Fact => ({ kind: 'state', place: p, state })),
  places.map((ps): Fact => ({ kind: 'searched', places: ps })),
  fc.option(action, { nil: undefined }).map((a): Fact => (a === undefined ? { kind: 'nothing' } : { kind: 'nothing', after: a })),
  action.map((a): Fact => ({ kind: 'first', action: a })),
);

const facts = fc.array(fact, { maxLength: 3 });
const skill: fc.Arbitrary<Skill> = fc.oneof(
  fc.tuple(fc.array(action, { minLength: 1, maxLength: 6 }), facts).map(([actions, fs]): Skill => ({ kind: 'workflow', actions, facts: fs })),
  fc
    .tuple(mistake, fc.array(fact, { minLength: 1, maxLength: 3 }), facts)
    .map(([m, signs, fs]): Skill => ({ kind: 'avoid', mistake: m, signs, facts: fs })),
);

describe('formatSkill', () => {
  it('writes the documented examples', () => {
    expect(
      formatSkill({
        kind: 'avoid',
        mistake: { kind: 'doing', action: { verb: 'search', places: [{ det: 'the same', type: 'drawer' }] }, how: 'twice' },
        signs: [{ kind: 'was', thing: { det: 'the', type: 'mug' }, not: false, prep: 'on', places: [{ det: 'the', type: 'countertop' }] }],
        facts: [],
      }),
    ).toBe('avoid: searching the same drawer twice; the mug was on the countertop.');
  });

  it('refuses a skill the grammar cannot express', () => {
    expect(() => formatSkill({ kind: 'workflow', actions: [], facts: [] })).toThrow(/at least one action/);
    expect(() => formatSkill({ kind: 'avoid', mistake: { kind: 'invalid' }, signs: [], facts: [] })).toThrow(/warning sign/);
    expect(() => formatSkill({ kind: 'workflow', actions: [{ verb: 'put', thing: 'it' }], facts: [] })).toThrow(/needs a prep/);
  });

  it('round-trips through parseSkill, and every formatted skill is in the vocabulary', () => {
    const tok = defaultTokenizer();
    fc.assert(
      fc.property(skill, (s) => {
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
