// Parts of a household skill, for the controls that give the teacher a part of the trajectory's own skill
// (docs/seed-loss.md, "Part controls"). Each reads the skill into its structure (parser.ts), keeps one
// part and writes it back in the grammar's words, so every word is one of the vocabulary's (the shape's
// transforms are src/text/skill_language/parts.ts; the household gives what its actions become and state):
// - the procedure: every object becomes "it" ("them" stays), and every receptacle too, since the grammar has
//   no word for a place and "it" is the one it uses for a thing already named; a receptacle an action may leave
//   out ("take it from R", "heat it with R") is left out. The sentences that only state where things were or
//   were not, a receptacle's state or what was searched go; the actions, their order ("take it first", "heat it
//   before putting it in it"), the mistake and "nothing happens after ..." stay, with their verbs.
//   "workflow: go to the cabinet 2, take the mug 1 from the cabinet 2, put it in the microwave 1. the mug 1 was
//   in the cabinet 2." -> "workflow: go to it, take it, put it in it."
// - the facts: the sentences of this game's facts (where an object was or was not, a receptacle's state, what
//   was searched) and those its actions state, as the grammar writes them, with no head and no procedure:
//   "take X from R" says "X was in R" ("on" a surface: ../env/knowledge.ts receptaclePrep), "open R" says "R was
//   closed", "search R" says "you searched R". An action the skill names but that did nothing ("nothing happens
//   after ...") or was never done ("forgetting to ...") states nothing. The example above gives "the mug 1 was in
//   the cabinet 2." (once); a skill that states no fact gives "".
import { receptaclePrep } from '../env/knowledge.ts';
import { skillParts } from '../../../text/skill_language/parts.ts';
import {
  formatFacts,
  formatSkillPart,
  HOUSEHOLD_SHAPE,
  type Action,
  type Fact,
  type Place,
  type Thing,
} from './skill.ts';
import { parseSkill } from './parser.ts';

/** A receptacle as the procedure writes it: the word "it" (the formatter writes a place's type as its word). */
const SOME_PLACE: Place = { det: '', type: 'it' };

const procedureThing = (t: Thing): Thing => (t === 'them' ? 'them' : 'it');

function procedureAction(a: Action): Action {
  const thing = procedureThing(a.thing ?? 'it');
  switch (a.verb) {
    case 'find':
    case 'use':
    case 'take':
    case 'heat':
    case 'cool':
    case 'clean':
      return { verb: a.verb, thing };
    case 'go':
    case 'open':
    case 'close':
      return { verb: a.verb, place: SOME_PLACE };
    case 'put':
      return { verb: 'put', thing, prep: a.prep, place: SOME_PLACE };
    case 'examine':
      return a.thing ? { verb: 'examine', thing } : { verb: 'examine', place: SOME_PLACE };
    case 'search':
      return { verb: 'search', places: [SOME_PLACE] };
  }
}

/** The facts an action states about this game, when it was done. */
function actionFacts(a: Action): Fact[] {
  if (a.verb === 'take' && a.thing && a.place)
    return [{ kind: 'was', thing: a.thing, not: false, prep: receptaclePrep(a.place.type), places: [a.place] }];
  if (a.verb === 'open' && a.place) return [{ kind: 'state', place: a.place, state: 'closed' }];
  if (a.verb === 'search' && a.places) return [{ kind: 'searched', places: a.places }];
  return [];
}

const PARTS = skillParts({
  name: HOUSEHOLD_SHAPE.name,
  parse: parseSkill,
  formatPart: formatSkillPart,
  formatFacts,
  procedureAction,
  procedureOf: procedureThing,
  actionFacts,
});

/** The skill's procedure: its instance facts removed, its objects and receptacles "it". */
export const skillProcedure = (text: string): string => PARTS.procedure(text);

/** The skill's instance facts as sentences, in the skill's order, each once; "" when it states none. */
export const skillFacts = (text: string): string => PARTS.facts(text);
