// The household's skill grammar (skill.ts) as the constrained decoder takes it (src/text/skill_language/: the
// automaton over words, run over tokens, with its budget and filters), so that the analyzer can only write text
// that parseSkill accepts. The symbols: the literal words, OBJECT-TYPE and RECEPTACLE-TYPE (the type names of
// ../env/knowledge.ts, compared in lower case) and NUMBER (an instance number, 1 to MAX_INSTANCE_NUMBER).
// parseSkill's one-word look-ahead (startsThing/startsPlace) never changes what it accepts, because no type name
// is both an object and a receptacle and none is a grammar word (grammar.test.ts holds both).
//
// A receptacle type is read as one of four symbols by where it stands, so that the filter can tell the places
// apart: where an object was (WAS_IN: "take the mug from the cabinet 1", "the mug was in the cabinet 1"), where it
// was not (WAS_NOT_IN: "the mug was not in the drawer 1"), where it goes (GOES_TO: "put it in the cabinet 1"),
// and any other place (RECEPTACLE).
//
// The entity filter limits the type names to those a trajectory's text mentions, and the instance number after
// a type name to the numbers the text gave that type. With the places the trajectory observed (ObjectPlaces),
// the object is the subject and the three places its slots: as where an object was ("take the mug 1 from the
// cabinet 2", "a mug was in a cabinet") only a receptacle where the trajectory saw that object before it first
// picked it up, that is where it started; as where it was not, only a receptacle it looked into and never saw
// that object in; as where it is put, only the goal receptacle for the task's object (any receptacle for another
// object). The object is the last one the skill named ("it" and "them" stand for it), and the task's object
// before any (the same reading as ../rl/skill_truth.ts).
import { MAX_INSTANCE_NUMBER, OBJECT_KINDS, RECEPTACLE_KINDS } from '../env/knowledge.ts';
import { alt, opt, type Rx, seq, star } from '../../../text/skill_language/automaton.ts';
import { grammarOf } from '../../../text/skill_language/decoder.ts';
import type { SkillGrammarDefinition } from '../../../text/skill_language/grammar.ts';
import { skillRx } from '../../../text/skill_language/skeleton.ts';
import { GERUND, HOUSEHOLD_SHAPE, type Verb } from './skill.ts';

const OBJECT = '#object';
const RECEPTACLE = '#receptacle';
/** A receptacle named as where an object was ("take the mug from the cabinet 1", "the mug was in the cabinet 1"). */
const WAS_IN = '#was-in';
/** A receptacle named as where an object was not ("the mug was not in the drawer 1"). */
const WAS_NOT_IN = '#was-not-in';
/** A receptacle named as where an object is put ("put it in the cabinet 1"). */
const GOES_TO = '#goes-to';
const NUMBER = '#number';

const thing = alt('it', 'them', seq(alt('the', 'a', 'another'), OBJECT, opt(NUMBER)));
const placeOf = (receptacle: string) => seq(opt(alt(seq('the', opt('same')), 'a')), receptacle, opt(NUMBER));
const placesOf = (receptacle: string) => seq(placeOf(receptacle), star(seq('and', placeOf(receptacle))));
const place = placeOf(RECEPTACLE);
const places = placesOf(RECEPTACLE);

function action(gerund: boolean): Rx {
  const v = (verb: Verb) => (gerund ? GERUND[verb] : verb);
  return alt(
    seq(alt(v('find'), v('use')), thing),
    seq(v('go'), 'to', place),
    seq(alt(v('open'), v('close')), place),
    seq(v('take'), thing, opt(seq('from', placeOf(WAS_IN)))),
    seq(v('put'), thing, alt('in', 'on'), placeOf(GOES_TO)),
    seq(alt(v('heat'), v('cool'), v('clean')), thing, opt(seq('with', place))),
    seq(v('examine'), alt(thing, place)),
    seq(v('search'), places),
  );
}

const facts = [
  seq(thing, 'was', alt(seq(alt('in', 'on'), placesOf(WAS_IN)), seq('not', alt('in', 'on'), placesOf(WAS_NOT_IN)))),
  seq(place, 'was', alt('closed', 'open', 'empty')),
  seq('you', 'searched', places),
];

/** What a trajectory observed of where objects were (names as the game prints them: "mug 1", "cabinet 2"). */
export interface ObjectPlaces {
  /** The object type "it" stands for before a skill names an object: the task's object. */
  readonly subject: string;
  /** Receptacles whose contents the trajectory saw. */
  readonly looked: readonly string[];
  /** Object -> the receptacles it was seen in before the trajectory first picked it up (where it started). */
  readonly startedIn: ReadonlyMap<string, readonly string[]>;
  /** Object -> every receptacle it was seen in. */
  readonly seenIn: ReadonlyMap<string, readonly string[]>;
  /** The receptacle type the task's object goes to; null when the task puts it nowhere. */
  readonly goal: string | null;
}

/** The receptacles of `map` for an object key: the object ("mug 1"), or every object of a type ("mug"). */
const matching = (map: ReadonlyMap<string, readonly string[]>, key: string) =>
  new Set(
    [...map]
      .filter(([object]) => object === key || object.slice(0, object.lastIndexOf(' ')) === key)
      .flatMap(([, at]) => at),
  );

const objects = new Set(Object.keys(OBJECT_KINDS));
const receptacles = new Set(Object.keys(RECEPTACLE_KINDS));
const numbers = new Set(Array.from({ length: MAX_INSTANCE_NUMBER }, (_, i) => String(i + 1)));

const HOUSEHOLD_SKILL_GRAMMAR: SkillGrammarDefinition<ObjectPlaces> = {
  name: HOUSEHOLD_SHAPE.name,
  rx: skillRx(HOUSEHOLD_SHAPE, { step: action, of: thing, facts }),
  minWords: HOUSEHOLD_SHAPE.minWords,
  classes: [
    { symbol: OBJECT, member: (t) => objects.has(t.toLowerCase()), named: true },
    {
      symbol: RECEPTACLE,
      member: (t) => receptacles.has(t.toLowerCase()),
      named: true,
      readings: [WAS_IN, WAS_NOT_IN, GOES_TO],
    },
    { symbol: NUMBER, member: (t) => numbers.has(t) },
  ],
  instances: { number: NUMBER, of: [OBJECT, RECEPTACLE] },
  subject: {
    symbol: OBJECT,
    slots: [WAS_IN, WAS_NOT_IN, GOES_TO],
    first: (p) => p.subject,
    slotsOf(p, build) {
      // Where an object may be put: any receptacle the filter allows; the task's object, only its goal receptacle.
      const anywhere = build.members(GOES_TO, () => true);
      const goal = build.members(GOES_TO, (name) => name === p.goal);
      return (key) => {
        const seen = matching(p.seenIn, key);
        return {
          [WAS_IN]: build.instances(WAS_IN, matching(p.startedIn, key)),
          [WAS_NOT_IN]: build.instances(WAS_NOT_IN, new Set(p.looked.filter((r) => !seen.has(r)))),
          [GOES_TO]: key.split(' ')[0] === p.subject && p.goal !== null ? goal : anywhere,
        };
      };
    },
  },
};

/** The household's skill grammar over a tokenizer, built once. */
export const skillGrammar = grammarOf(HOUSEHOLD_SKILL_GRAMMAR);
