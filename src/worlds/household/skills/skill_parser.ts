// Reading a skill's text back into its structure (the grammar is in skill.ts, with the formatter): a skill is
// usable for on-policy distillation only when it parses and holds at least MIN_SKILL_WORDS words.
import { MAX_INSTANCE_NUMBER, OBJECT_KINDS, RECEPTACLE_KINDS } from '../env/knowledge.ts';
import { isWordPiece, splitPieces } from '../../../text/pieces.ts';
import { skillKindOfPieces, type SkillKind } from '../../../text/skill_kind.ts';
import {
  GERUND,
  MIN_SKILL_WORDS,
  VERBS,
  type Action,
  type Fact,
  type Mistake,
  type Place,
  type Skill,
  type Thing,
  type Verb,
} from './skill.ts';

const VERB_OF_GERUND = new Map(VERBS.map((v) => [GERUND[v], v]));

class SkillSyntaxError extends Error {}

const OBJECT_TYPES = new Set(Object.keys(OBJECT_KINDS));
const RECEPTACLE_TYPES = new Set(Object.keys(RECEPTACLE_KINDS));

class Reader {
  i = 0;
  constructor(readonly words: readonly string[]) {}

  peek(offset = 0): string | undefined {
    return this.words[this.i + offset];
  }

  fail(expected: string): never {
    const got = this.peek();
    throw new SkillSyntaxError(
      got === undefined
        ? `the skill ends where ${expected} was expected`
        : `expected ${expected} ${this.i === 0 ? 'at the start' : `after "${this.words[this.i - 1]}"`}, got "${got}"`,
    );
  }

  accept(word: string): boolean {
    if (this.peek() !== word) return false;
    this.i++;
    return true;
  }

  expect(word: string): void {
    if (!this.accept(word)) this.fail(`"${word}"`);
  }

  number(): number | undefined {
    const w = this.peek();
    if (w === undefined || !/^[0-9]+$/.test(w)) return undefined;
    if (!/^[1-9][0-9]*$/.test(w) || Number(w) > MAX_INSTANCE_NUMBER)
      this.fail(`an instance number from 1 to ${MAX_INSTANCE_NUMBER}`);
    this.i++;
    return Number(w);
  }
}

function startsThing(r: Reader): boolean {
  const w = r.peek();
  if (w === 'it' || w === 'them') return true;
  return (w === 'the' || w === 'a' || w === 'another') && OBJECT_TYPES.has(r.peek(1) ?? '');
}

function readThing(r: Reader): Thing {
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
  const number = r.number();
  return number === undefined ? { det: w, type } : { det: w, type, number };
}

function startsPlace(r: Reader): boolean {
  let k = 0;
  if (r.peek(k) === 'the') {
    k++;
    if (r.peek(k) === 'same') k++;
  } else if (r.peek(k) === 'a') k++;
  return RECEPTACLE_TYPES.has(r.peek(k) ?? '');
}

function readPlace(r: Reader): Place {
  let det: Place['det'] = '';
  if (r.accept('the')) det = r.accept('same') ? 'the same' : 'the';
  else if (r.peek() === 'a' && RECEPTACLE_TYPES.has(r.peek(1) ?? '')) {
    r.i++;
    det = 'a';
  }
  const type = r.peek();
  if (type === undefined || !RECEPTACLE_TYPES.has(type)) r.fail('a receptacle type');
  r.i++;
  const number = r.number();
  return number === undefined ? { det, type } : { det, type, number };
}

function readPlaces(r: Reader): Place[] {
  const places = [readPlace(r)];
  while (r.accept('and')) places.push(readPlace(r));
  return places;
}

function readVerb(r: Reader, gerund: boolean): Verb {
  const w = r.peek() ?? '';
  const verb = gerund ? VERB_OF_GERUND.get(w) : (VERBS as string[]).includes(w) ? (w as Verb) : undefined;
  if (verb === undefined) r.fail(gerund ? 'an action in its -ing form' : 'an action verb');
  r.i++;
  return verb;
}

function readAction(r: Reader, gerund: boolean): Action {
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

function readMistake(r: Reader): Mistake {
  if (r.accept('forgetting')) {
    r.expect('to');
    return { kind: 'forgetting', action: readAction(r, false) };
  }
  if (r.accept('invalid')) {
    r.expect('commands');
    return { kind: 'invalid' };
  }
  if (r.accept('running')) {
    for (const w of ['out', 'of', 'steps']) r.expect(w);
    return { kind: 'steps' };
  }
  const action = readAction(r, true);
  if (r.accept('before')) return { kind: 'before', action, then: readAction(r, true) };
  if (r.accept('instead')) {
    r.expect('of');
    return { kind: 'instead', action, of: readThing(r) };
  }
  if (r.accept('twice')) return { kind: 'doing', action, how: 'twice' };
  if (r.accept('again')) return { kind: 'doing', action, how: 'again' };
  return { kind: 'doing', action };
}

function readFact(r: Reader): Fact {
  if (r.accept('you')) {
    r.expect('searched');
    return { kind: 'searched', places: readPlaces(r) };
  }
  if (r.accept('nothing')) {
    r.expect('happens');
    return r.accept('after') ? { kind: 'nothing', after: readAction(r, true) } : { kind: 'nothing' };
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
  if (VERBS.includes(r.peek() as Verb)) {
    const action = readAction(r, false);
    if (r.accept('before')) return { kind: 'order', action, then: readAction(r, true) };
    r.expect('first');
    return { kind: 'first', action };
  }
  return r.fail('a fact (an object, a receptacle, "you searched", "nothing happens" or an action)');
}

function readSkill(r: Reader): Skill {
  let skill: Skill;
  if (r.accept('workflow')) {
    r.expect(':');
    const actions = [readAction(r, false)];
    while (r.accept(',')) actions.push(readAction(r, false));
    skill = { kind: 'workflow', actions, facts: [] };
  } else if (r.accept('avoid')) {
    r.expect(':');
    const mistake = readMistake(r);
    const signs: Fact[] = [];
    r.expect(';');
    do signs.push(readFact(r));
    while (r.accept(';'));
    skill = { kind: 'avoid', mistake, signs, facts: [] };
  } else {
    return r.fail('"workflow" or "avoid"');
  }
  r.expect('.');
  while (r.peek() !== undefined) {
    skill.facts.push(readFact(r));
    r.expect('.');
  }
  return skill;
}

interface SkillCheck {
  /** True when the skill is usable for on-policy distillation. */
  ok: boolean;
  /** The kind named by the first word, when there is one. */
  kind: SkillKind | null;
  /** Why the skill is unusable; empty when ok. */
  reason: string;
  skill: Skill | null;
}

/** Parses and validates a skill text: it must follow the grammar above and hold at least MIN_SKILL_WORDS words. */
export function parseSkill(text: string): SkillCheck {
  const words = splitPieces(text.toLowerCase()).filter((p) => p !== '\n');
  const kind = skillKindOfPieces(words);
  const count = words.filter(isWordPiece).length;
  if (count < MIN_SKILL_WORDS) {
    return { ok: false, kind, reason: `too short: ${count} words, at least ${MIN_SKILL_WORDS} needed`, skill: null };
  }
  try {
    return { ok: true, kind, reason: '', skill: readSkill(new Reader(words)) };
  } catch (err) {
    if (err instanceof SkillSyntaxError) return { ok: false, kind, reason: err.message, skill: null };
    throw err;
  }
}
