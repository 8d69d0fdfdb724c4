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
// OBJECT-TYPE and RECEPTACLE-TYPE are the household's type names (../env/knowledge.ts), NUMBER an instance number.
// This file holds the skills' structure and formats them; skill_parser.ts reads a text back (parseSkill).
// skill_grammar.ts holds the same grammar as an automaton for constrained decoding; a change here goes there too
// (its tests compare the two).
// Words are matched case-insensitively; the formatter writes lower case with the spacing of pieces.ts, e.g.
//   "workflow: find the mug, take it, go to the microwave 1, heat it, put it in the cabinet 2. the mug was on
//    the countertop 1."
//   "avoid: searching the same drawer twice; the mug was on the countertop 1."
//   "avoid: taking the pot 1 instead of the pan; you searched the stoveburner 1. a pan was in a cabinet."
import { joinPieces } from '../../../text/pieces.ts';

export const MIN_SKILL_WORDS = 5;

export type Verb =
  | 'find'
  | 'go'
  | 'open'
  | 'close'
  | 'take'
  | 'put'
  | 'heat'
  | 'cool'
  | 'clean'
  | 'use'
  | 'examine'
  | 'search';

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
export const VERBS = Object.keys(GERUND) as Verb[];

/** The grammar's own words, for the vocabulary (the type names and numbers come from the environment). */
export const SKILL_WORDS: readonly string[] = [
  ...VERBS,
  ...Object.values(GERUND),
  ...'workflow avoid to from in on with twice again before instead forgetting invalid commands running out of steps'.split(
    ' ',
  ),
  ...'was not closed open empty you searched nothing happens after first it them the a another same and'.split(' '),
  ...': , ; .'.split(' '),
];

/** What the household adds to its vocabulary (src/worlds/languages.ts): its skill words, less "x", its templates' name slot. */
export const HOUSEHOLD_LANGUAGE = { skillWords: SKILL_WORDS, notWords: ['x'] };

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
      return [
        verb,
        ...thingWords(need(a.thing, a.verb, 'thing')),
        ...(a.place ? ['from', ...placeWords(a.place)] : []),
      ];
    case 'put':
      return [
        verb,
        ...thingWords(need(a.thing, a.verb, 'thing')),
        need(a.prep, a.verb, 'prep'),
        ...placeWords(need(a.place, a.verb, 'place')),
      ];
    case 'heat':
    case 'cool':
    case 'clean':
      return [
        verb,
        ...thingWords(need(a.thing, a.verb, 'thing')),
        ...(a.place ? ['with', ...placeWords(a.place)] : []),
      ];
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
    s.actions.forEach((a, i) => {
      out.push(...(i > 0 ? [','] : []), ...actionWords(a, false));
    });
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

/** Fact sentences, each closed by a period, with no head: a skill's facts alone (skill_parts.ts). */
export function formatFacts(facts: readonly Fact[]): string {
  return joinPieces(facts.flatMap((f) => [...factWords(f), '.']));
}

/**
 * As formatSkill, except that an avoidance rule may have no warning sign left ("avoid: MISTAKE."): a skill's
 * procedure, once its fact sentences are removed (skill_parts.ts).
 */
export function formatSkillPart(s: Skill): string {
  if (s.kind === 'workflow' || s.signs.length > 0) return formatSkill(s);
  return joinPieces(['avoid', ':', ...mistakeWords(s.mistake), '.', ...s.facts.flatMap((f) => [...factWords(f), '.'])]);
}
