// The grammar of episode skills: what the analyzer writes after reading a finished trajectory, and what the
// skill-injected context carries. A success gives a workflow (the action order that worked), a failure gives
// avoidance rules (the core mistake and its warning signs); both may add facts the trajectory showed (where an
// object was, which receptacles were searched or closed, which commands did nothing), so two trajectories of
// the same task get different skills. Facts come at two levels: this game's instances ("the mug 1 was in the
// cabinet 2") and the type-level lesson that carries to the next game ("a mug was in a cabinet"), with
// procedure ("heat it with the microwave 1 before putting it in the fridge 1") and the wrong object ("taking
// the pot 1 instead of the pan"). Only a skill that parses and has at least MIN_SKILL_WORDS words is used
// for on-policy distillation (docs/seed-loss.md, "The three terms, masks and normalisation").
//
//   skill        := workflow | avoidance
//   workflow     := "workflow" ":" action ("," action)* "." sentence*
//   avoidance    := "avoid" ":" mistake (";" fact)+ "." sentence*
//   sentence     := fact "."
//   action       := "find" thing | "go" "to" place | "open" place | "close" place
//                 | "take" thing ["from" place] | "put" thing ("in" | "on") place
//                 | ("heat" | "cool" | "clean") thing ["with" place] | "use" thing
//                 | "examine" (thing | place) | "search" places
//   mistake      := gerund-action ["twice" | "again" | "before" gerund-action | "instead" "of" thing]
//                 | "forgetting" "to" action | "invalid" "commands" | "running" "out" "of" "steps"
//   gerund-action:= an action with its verb as a gerund (finding, going, opening, closing, taking, putting,
//                   heating, cooling, cleaning, using, examining, searching)
//   fact         := thing "was" ["not"] ("in" | "on") places        where an object was, or was not
//                 | place "was" ("closed" | "open" | "empty")
//                 | "you" "searched" places
//                 | "nothing" "happens" ["after" gerund-action]      an invalid command
//                 | action "first"                                  a decision rule
//                 | action "before" gerund-action                   a procedure (the order that works)
//   thing        := "it" | "them" | ("the" | "a" | "another") OBJECT-TYPE [NUMBER]
//   place        := ["the" ["same"] | "a"] RECEPTACLE-TYPE [NUMBER]   "a cabinet": any of that type
//   places       := place ("and" place)*
//
// OBJECT-TYPE and RECEPTACLE-TYPE are the household's type names (env/knowledge.ts), NUMBER an instance number.
// skill_grammar.ts holds the same grammar as an automaton for constrained decoding; a change here goes there too
// (its tests compare the two).
// Words are matched case-insensitively; the formatter writes lower case with the spacing of pieces.ts, e.g.
//   "workflow: find the mug, take it, go to the microwave 1, heat it, put it in the cabinet 2. the mug was on
//    the countertop 1."
//   "avoid: searching the same drawer twice; the mug was on the countertop 1."
//   "avoid: taking the pot 1 instead of the pan; you searched the stoveburner 1. a pan was in a cabinet."
import { MAX_INSTANCE_NUMBER, OBJECT_KINDS, RECEPTACLE_KINDS } from '../env/knowledge.ts';
import { isWordPiece, joinPieces, splitPieces } from './pieces.ts';

export const MIN_SKILL_WORDS = 5;

export type Verb = 'find' | 'go' | 'open' | 'close' | 'take' | 'put' | 'heat' | 'cool' | 'clean' | 'use' | 'examine' | 'search';

export type Thing = 'it' | 'them' | { det: 'the' | 'a' | 'another'; type: string; number?: number };
export interface Place {
  det: '' | 'the' | 'the same' | 'a';
  type: string;
  number?: number;
}

/** Which fields a verb uses: find/use: thing; go/open/close: place; take: thing [place]; put: thing prep place;
 * heat/cool/clean: thing [place]; examine: thing or place; search: places. */
export interface Action {
  verb: Verb;
  thing?: Thing;
  place?: Place;
  prep?: 'in' | 'on';
  places?: Place[];
}

export type Mistake =
  | { kind: 'doing'; action: Action; how?: 'twice' | 'again' }
  | { kind: 'before'; action: Action; then: Action }
  | { kind: 'instead'; action: Action; of: Thing }
  | { kind: 'forgetting'; action: Action }
  | { kind: 'invalid' }
  | { kind: 'steps' };

export type Fact =
  | { kind: 'was'; thing: Thing; not: boolean; prep: 'in' | 'on'; places: Place[] }
  | { kind: 'state'; place: Place; state: 'closed' | 'open' | 'empty' }
  | { kind: 'searched'; places: Place[] }
  | { kind: 'nothing'; after?: Action }
  | { kind: 'first'; action: Action }
  | { kind: 'order'; action: Action; then: Action };

export type Skill =
  | { kind: 'workflow'; actions: Action[]; facts: Fact[] }
  | { kind: 'avoid'; mistake: Mistake; signs: Fact[]; facts: Fact[] };

export type SkillKind = Skill['kind'];

export const GERUND: Readonly<Record<Verb, string>> = {
  find: 'finding',
  go: 'going',
  open: 'opening',
  close: 'closing',
  take: 'taking',
  put: 'putting',
  heat: 'heating',
  cool: 'cooling',
  clean: 'cleaning',
  use: 'using',
  examine: 'examining',
  search: 'searching',
};
const VERBS = Object.keys(GERUND) as Verb[];
const VERB_OF_GERUND = new Map(VERBS.map((v) => [GERUND[v], v]));

/** The grammar's own words, for the vocabulary (the type names and numbers come from the environment). */
export const SKILL_WORDS: readonly string[] = [
  ...VERBS,
  ...Object.values(GERUND),
  ...'workflow avoid to from in on with twice again before instead forgetting invalid commands running out of steps'.split(' '),
  ...'was not closed open empty you searched nothing happens after first it them the a another same and'.split(' '),
  ...': , ; .'.split(' '),
];

// ---- formatting ----

function thingWords(t: Thing): string[] {
  if (t === 'it' || t === 'them') return [t];
  return [t.det, t.type, ...(t.number === undefined ? [] : [String(t.number)])];
}

function placeWords(p: Place): string[] {
  const det = p.det === '' ? [] : p.det.split(' ');
  return [...det, p.type, ...(p.number === undefined ? [] : [String(p.number)])];
}

function placesWords(ps: readonly Place[]): string[] {
  return ps.flatMap((p, i) => (i === 0 ? placeWords(p) : ['and', ...placeWords(p)]));
}

function need<T>(value: T | undefined, verb: Verb, field: string): T {
  if (value === undefined) throw new RangeError(`a "${verb}" action needs a ${field}`);
  return value;
}

function actionWords(a: Action, gerund: boolean): string[] {
  const verb = gerund ? GERUND[a.verb] : a.verb;
  switch (a.verb) {
    case 'find':
    case 'use':
      return [verb, ...thingWords(need(a.thing, a.verb, 'thing'))];
    case 'go':
      return [verb, 'to', ...placeWords(need(a.place, a.verb, 'place'))];
    case 'open':
    case 'close':
      return [verb, ...placeWords(need(a.place, a.verb, 'place'))];
    case 'take':
      return [verb, ...thingWords(need(a.thing, a.verb, 'thing')), ...(a.place ? ['from', ...placeWords(a.place)] : [])];
    case 'put':
      return [verb, ...thingWords(need(a.thing, a.verb, 'thing')), need(a.prep, a.verb, 'prep'), ...placeWords(need(a.place, a.verb, 'place'))];
    case 'heat':
    case 'cool':
    case 'clean':
      return [verb, ...thingWords(need(a.thing, a.verb, 'thing')), ...(a.place ? ['with', ...placeWords(a.place)] : [])];
    case 'examine':
      return [verb, ...(a.thing ? thingWords(a.thing) : placeWords(need(a.place, a.verb, 'thing or place')))];
    case 'search':
      if (!a.places?.length) throw new RangeError('a "search" action needs places');
      return [verb, ...placesWords(a.places)];
  }
}

function mistakeWords(m: Mistake): string[] {
  switch (m.kind) {
    case 'doing':
      return [...actionWords(m.action, true), ...(m.how ? [m.how] : [])];
    case 'before':
      return [...actionWords(m.action, true), 'before', ...actionWords(m.then, true)];
    case 'instead':
      return [...actionWords(m.action, true), 'instead', 'of', ...thingWords(m.of)];
    case 'forgetting':
      return ['forgetting', 'to', ...actionWords(m.action, false)];
    case 'invalid':
      return ['invalid', 'commands'];
    case 'steps':
      return ['running', 'out', 'of', 'steps'];
  }
}

function factWords(f: Fact): string[] {
  switch (f.kind) {
    case 'was':
      return [...thingWords(f.thing), 'was', ...(f.not ? ['not'] : []), f.prep, ...placesWords(f.places)];
    case 'state':
      return [...placeWords(f.place), 'was', f.state];
    case 'searched':
      return ['you', 'searched', ...placesWords(f.places)];
    case 'nothing':
      return ['nothing', 'happens', ...(f.after ? ['after', ...actionWords(f.after, true)] : [])];
    case 'first':
      return [...actionWords(f.action, false), 'first'];
    case 'order':
      return [...actionWords(f.action, false), 'before', ...actionWords(f.then, true)];
  }
}

function skillPieces(s: Skill): string[] {
  const out: string[] = [];
  if (s.kind === 'workflow') {
    if (s.actions.length === 0) throw new RangeError('a workflow needs at least one action');
    out.push('workflow', ':');
    s.actions.forEach((a, i) => out.push(...(i > 0 ? [','] : []), ...actionWords(a, false)));
  } else {
    if (s.signs.length === 0) throw new RangeError('an avoidance rule needs at least one warning sign');
    out.push('avoid', ':', ...mistakeWords(s.mistake));
    for (const f of s.signs) out.push(';', ...factWords(f));
  }
  out.push('.');
  for (const f of s.facts) out.push(...factWords(f), '.');
  return out;
}

/** The text of a skill (lower case, spaced as pieces.ts joins). */
export function formatSkill(s: Skill): string {
  return joinPieces(skillPieces(s));
}

// ---- parsing ----

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
    if (!/^[1-9][0-9]*$/.test(w) || Number(w) > MAX_INSTANCE_NUMBER) this.fail(`an instance number from 1 to ${MAX_INSTANCE_NUMBER}`);
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
  if (w !== 'the' && w !== 'a' && w !== 'another') r.fail('an object ("it", "them", or "the"/"a"/"another" and a type)');
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

export interface SkillCheck {
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
  const kind = words[0] === 'workflow' ? 'workflow' : words[0] === 'avoid' ? 'avoid' : null;
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
