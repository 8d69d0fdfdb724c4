// Random skills for property tests, built without undefined fields so that they compare equal to what the
// parser returns.
import fc from 'fast-check';
import { OBJECT_KINDS, RECEPTACLE_KINDS } from '../env/knowledge.ts';
import type { Action, Fact, Mistake, Place, Skill, Thing } from './skill.ts';

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
  .tuple(fc.constantFrom<Place['det']>('', 'the', 'the same', 'a'), receptacleType, maybeNumber)
  .map(([det, type, n]) => withNumber({ det, type }, n));
const places = fc.array(place, { minLength: 1, maxLength: 3 });
const optionalPlace = fc.option(place, { nil: undefined });
const prep = fc.constantFrom('in' as const, 'on' as const);

const action: fc.Arbitrary<Action> = fc.oneof(
  fc.tuple(fc.constantFrom('find' as const, 'use' as const), thing).map(([verb, t]) => ({ verb, thing: t })),
  fc
    .tuple(fc.constantFrom('go' as const, 'open' as const, 'close' as const), place)
    .map(([verb, p]) => ({ verb, place: p })),
  fc
    .tuple(fc.constantFrom('take' as const, 'heat' as const, 'cool' as const, 'clean' as const), thing, optionalPlace)
    .map(([verb, t, p]): Action => (p === undefined ? { verb, thing: t } : { verb, thing: t, place: p })),
  fc.tuple(thing, prep, place).map(([t, pr, p]): Action => ({ verb: 'put', thing: t, prep: pr, place: p })),
  fc.oneof(
    thing.map((t): Action => ({ verb: 'examine', thing: t })),
    place.map((p): Action => ({ verb: 'examine', place: p })),
  ),
  places.map((ps): Action => ({ verb: 'search', places: ps })),
);

const mistake: fc.Arbitrary<Mistake> = fc.oneof(
  fc
    .tuple(action, fc.option(fc.constantFrom('twice' as const, 'again' as const), { nil: undefined }))
    .map(([a, how]): Mistake => (how === undefined ? { kind: 'doing', action: a } : { kind: 'doing', action: a, how })),
  fc.tuple(action, action).map(([a, b]): Mistake => ({ kind: 'before', action: a, then: b })),
  fc.tuple(action, thing).map(([a, t]): Mistake => ({ kind: 'instead', action: a, of: t })),
  action.map((a): Mistake => ({ kind: 'forgetting', action: a })),
  fc.constant<Mistake>({ kind: 'invalid' }),
  fc.constant<Mistake>({ kind: 'steps' }),
);

const fact: fc.Arbitrary<Fact> = fc.oneof(
  fc
    .tuple(thing, fc.boolean(), prep, places)
    .map(([t, not, pr, ps]): Fact => ({ kind: 'was', thing: t, not, prep: pr, places: ps })),
  fc
    .tuple(place, fc.constantFrom('closed' as const, 'open' as const, 'empty' as const))
    .map(([p, state]): Fact => ({ kind: 'state', place: p, state })),
  places.map((ps): Fact => ({ kind: 'searched', places: ps })),
  fc
    .option(action, { nil: undefined })
    .map((a): Fact => (a === undefined ? { kind: 'nothing' } : { kind: 'nothing', after: a })),
  action.map((a): Fact => ({ kind: 'first', action: a })),
  fc.tuple(action, action).map(([a, b]): Fact => ({ kind: 'order', action: a, then: b })),
);

const facts = fc.array(fact, { maxLength: 3 });
export const arbitrarySkill: fc.Arbitrary<Skill> = fc.oneof(
  fc
    .tuple(fc.array(action, { minLength: 1, maxLength: 6 }), facts)
    .map(([actions, fs]): Skill => ({ kind: 'workflow', actions, facts: fs })),
  fc
    .tuple(mistake, fc.array(fact, { minLength: 1, maxLength: 3 }), facts)
    .map(([m, signs, fs]): Skill => ({ kind: 'avoid', mistake: m, signs, facts: fs })),
);
