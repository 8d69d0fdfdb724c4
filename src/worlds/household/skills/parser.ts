// Reading a skill's text back into its structure (the grammar is in skill.ts, with the formatter): a skill is
// usable for on-policy distillation only when it parses and holds at least MIN_SKILL_WORDS words. The shape's
// head, mistakes and rule facts are read by src/text/skill_language/reading.ts; the household's things, places,
// actions and facts here.
import { MAX_INSTANCE_NUMBER, OBJECT_KINDS, RECEPTACLE_KINDS } from '../env/knowledge.ts';
import {
  type SkillCheck,
  type SkillReader,
  type SkillReading,
  skillParser,
} from '../../../text/skill_language/reading.ts';
import {
  GERUND,
  HOUSEHOLD_SHAPE,
  VERBS,
  type Action,
  type Fact,
  type Place,
  type Skill,
  type Thing,
  type Verb,
} from './skill.ts';

const VERB_OF_GERUND = new Map(VERBS.map((v) => [GERUND[v], v]));

const OBJECT_TYPES = new Set(Object.keys(OBJECT_KINDS));
const RECEPTACLE_TYPES = new Set(Object.keys(RECEPTACLE_KINDS));

function readNumber(r: SkillReader): number | undefined {
  const w = r.peek();
  if (w === undefined || !/^[0-9]+$/.test(w)) return undefined;
  if (!/^[1-9][0-9]*$/.test(w) || Number(w) > MAX_INSTANCE_NUMBER)
    r.fail(`an instance number from 1 to ${MAX_INSTANCE_NUMBER}`);
  r.i++;
  return Number(w);
}

function startsThing(r: SkillReader): boolean {
  const w = r.peek();
  if (w === 'it' || w === 'them') return true;
  return (w === 'the' || w === 'a' || w === 'another') && OBJECT_TYPES.has(r.peek(1) ?? '');
}

function readThing(r: SkillReader): Thing {
  const w = r.peek();
  if (w === 'it' || w === 'them') {
    r.i++;
    return w;
  }
  if (w !== 'the' && w !== 'a' && w !== 'another')
    r.fail('an object ("it", "them", or "the"/"a"/"another" and a type)');
  r.i++;
  const type = r.peek();
  if (type === undefined || !OBJECT_TYPES.has(type)) r.fail('an object type');
  r.i++;
  const number = readNumber(r);
  return number === undefined ? { det: w, type } : { det: w, type, number };
}

function startsPlace(r: SkillReader): boolean {
  let k = 0;
  if (r.peek(k) === 'the') {
    k++;
    if (r.peek(k) === 'same') k++;
  } else if (r.peek(k) === 'a') k++;
  return RECEPTACLE_TYPES.has(r.peek(k) ?? '');
}

function readPlace(r: SkillReader): Place {
  let det: Place['det'] = '';
  if (r.accept('the')) det = r.accept('same') ? 'the same' : 'the';
  else if (r.peek() === 'a' && RECEPTACLE_TYPES.has(r.peek(1) ?? '')) {
    r.i++;
    det = 'a';
  }
  const type = r.peek();
  if (type === undefined || !RECEPTACLE_TYPES.has(type)) r.fail('a receptacle type');
  r.i++;
  const number = readNumber(r);
  return number === undefined ? { det, type } : { det, type, number };
}

function readPlaces(r: SkillReader): Place[] {
  const places = [readPlace(r)];
  while (r.accept('and')) places.push(readPlace(r));
  return places;
}

function readVerb(r: SkillReader, gerund: boolean): Verb {
  const w = r.peek() ?? '';
  const verb = gerund ? VERB_OF_GERUND.get(w) : (VERBS as string[]).includes(w) ? (w as Verb) : undefined;
  if (verb === undefined) r.fail(gerund ? 'an action in its -ing form' : 'an action verb');
  r.i++;
  return verb;
}

function readAction(r: SkillReader, gerund: boolean): Action {
  const verb = readVerb(r, gerund);
  switch (verb) {
    case 'find':
    case 'use':
      return { verb, thing: readThing(r) };
    case 'go':
      r.expect('to');
      return { verb, place: readPlace(r) };
    case 'open':
    case 'close':
      return { verb, place: readPlace(r) };
    case 'take': {
      const thing = readThing(r);
      return r.accept('from') ? { verb, thing, place: readPlace(r) } : { verb, thing };
    }
    case 'put': {
      const thing = readThing(r);
      const prep = r.peek();
      if (prep !== 'in' && prep !== 'on') r.fail('"in" or "on"');
      r.i++;
      return { verb, thing, prep, place: readPlace(r) };
    }
    case 'heat':
    case 'cool':
    case 'clean': {
      const thing = readThing(r);
      return r.accept('with') ? { verb, thing, place: readPlace(r) } : { verb, thing };
    }
    case 'examine':
      if (startsThing(r)) return { verb, thing: readThing(r) };
      if (startsPlace(r)) return { verb, place: readPlace(r) };
      return r.fail('an object or a receptacle');
    case 'search':
      return { verb, places: readPlaces(r) };
  }
}

/** A fact of the household's own (where an object was, a receptacle's state, what was searched), or undefined. */
function readOwnFact(r: SkillReader): Fact | undefined {
  if (r.accept('you')) {
    r.expect('searched');
    return { kind: 'searched', places: readPlaces(r) };
  }
  if (startsThing(r)) {
    const thing = readThing(r);
    r.expect('was');
    const not = r.accept('not');
    const prep = r.peek();
    if (prep !== 'in' && prep !== 'on') r.fail('"in" or "on"');
    r.i++;
    return { kind: 'was', thing, not, prep, places: readPlaces(r) };
  }
  if (startsPlace(r)) {
    const place = readPlace(r);
    r.expect('was');
    const state = r.peek();
    if (state !== 'closed' && state !== 'open' && state !== 'empty') r.fail('"closed", "open" or "empty"');
    r.i++;
    return { kind: 'state', place, state };
  }
  return undefined;
}

const READING: SkillReading<Action, Fact, Thing> = {
  readAction,
  readOwnFact,
  startsStep: (r) => VERBS.includes(r.peek() as Verb),
  readOf: readThing,
  factExpected: 'a fact (an object, a receptacle, "you searched", "nothing happens" or an action)',
};

/** Parses and validates a skill text: it must follow the grammar of skill.ts and hold at least MIN_SKILL_WORDS words. */
export const parseSkill: (text: string) => SkillCheck<Skill> = skillParser(HOUSEHOLD_SHAPE, READING);
