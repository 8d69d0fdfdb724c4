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
// The household fills the shape every world's skills share (src/text/skill_language/skeleton.ts: workflow,
// avoidance, mistakes, "nothing happens", rules) with its actions, facts and words:
//
//   step (action):= "find" thing | "go" "to" place | "open" place | "close" place
//                 | "take" thing ["from" place] | "put" thing ("in" | "on") place
//                 | ("heat" | "cool" | "clean") thing ["with" place] | "use" thing
//                 | "examine" (thing | place) | "search" places
//   gerund       := an action with its verb as a gerund (finding, going, opening, closing, taking, putting,
//                   heating, cooling, cleaning, using, examining, searching)
//   HOW, OF      := "twice" | "again"; thing ("taking the pot 1 instead of the pan")
//   INVALID      := "commands"; an avoidance rule needs a warning sign
//   own fact     := thing "was" ["not"] ("in" | "on") places        where an object was, or was not
//                 | place "was" ("closed" | "open" | "empty")
//                 | "you" "searched" places
//   thing        := "it" | "them" | ("the" | "a" | "another") OBJECT-TYPE [NUMBER]
//   place        := ["the" ["same"] | "a"] RECEPTACLE-TYPE [NUMBER]   "a cabinet": any of that type
//   places       := place ("and" place)*
//
// OBJECT-TYPE and RECEPTACLE-TYPE are the household's type names (../env/knowledge.ts), NUMBER an instance number.
// This file holds the household's steps, facts and words and formats them; parser.ts reads a text back
// (parseSkill); grammar.ts holds the same grammar over symbols for constrained decoding (its tests compare
// the two).
// Words are matched case-insensitively; the formatter writes lower case with the spacing of pieces.ts, e.g.
//   "workflow: find the mug, take it, go to the microwave 1, heat it, put it in the cabinet 2. the mug was on
//    the countertop 1."
//   "avoid: searching the same drawer twice; the mug was on the countertop 1."
//   "avoid: taking the pot 1 instead of the pan; you searched the stoveburner 1. a pan was in a cabinet."
import {
  factsText,
  ruleFactWords,
  skillText,
  type Mistake as SkillMistake,
  type RuleFact,
  type Skill as SkillOf,
  type SkillShape,
  type SkillWriting,
} from '../../../text/skill_language/skeleton.ts';

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

/** How a mistake may say it was done again: "searching the drawer 1 twice". */
type How = 'twice' | 'again';
export type Mistake = SkillMistake<Action, Thing, How>;

export type Fact =
  | { kind: 'was'; thing: Thing; not: boolean; prep: 'in' | 'on'; places: Place[] }
  | { kind: 'state'; place: Place; state: 'closed' | 'open' | 'empty' }
  | { kind: 'searched'; places: Place[] }
  | RuleFact<Action>;

export type Skill = SkillOf<Action, Fact, Mistake>;

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

function factWords(f: Fact): string[] {
  switch (f.kind) {
    case 'was':
      return [...thingWords(f.thing), 'was', ...(f.not ? ['not'] : []), f.prep, ...placesWords(f.places)];
    case 'state':
      return [...placeWords(f.place), 'was', f.state];
    case 'searched':
      return ['you', 'searched', ...placesWords(f.places)];
    case 'nothing':
    case 'first':
    case 'order':
      return ruleFactWords(f, actionWords);
  }
}

/** The household's skills in the shape every world shares (skill_language/skeleton.ts). */
export const HOUSEHOLD_SHAPE: SkillShape<How> = {
  name: 'skill',
  minWords: MIN_SKILL_WORDS,
  step: 'action',
  invalid: 'commands',
  signsRequired: true,
  how: ['twice', 'again'],
};
const WRITING: SkillWriting<Action, Fact, Thing> = { actionWords, factWords, ofWords: thingWords };

/** The text of a skill (lower case, spaced as pieces.ts joins). */
export function formatSkill(s: Skill): string {
  return skillText(s, HOUSEHOLD_SHAPE, WRITING);
}

/** Fact sentences, each closed by a period, with no head: a skill's facts alone (parts.ts). */
export function formatFacts(facts: readonly Fact[]): string {
  return factsText(facts, factWords);
}

/**
 * As formatSkill, except that an avoidance rule may have no warning sign left ("avoid: MISTAKE."): a skill's
 * procedure, once its fact sentences are removed (parts.ts).
 */
export function formatSkillPart(s: Skill): string {
  return skillText(s, HOUSEHOLD_SHAPE, WRITING, true);
}
