// Parts of a search-QA skill, for the controls that give the teacher a part of the trajectory's own skill
// (docs/seed-loss.md, "Part controls"), as the other worlds' parts give theirs. Each reads the skill into its
// structure (parser.ts), keeps one part and writes it back in the grammar's words (the shape's
// transforms are src/text/skill_language/parts.ts; the world gives what its steps become and state):
// - the procedure: every name becomes its kind ("the person", "the country", "the city", "the organisation") and
//   every year "the year", so that the steps say whom to search with which relation, in which order, and what
//   kind of thing to answer, and no fact of this game; the fact sentences go; the mistake, the rules and
//   "nothing happens after ..." stay.
//   "workflow: search Marno Nular born, then search Thamia capital, then answer Zaemdrei. the capital of Thamia
//   is Zaemdrei." -> "workflow: search the person born, then search the country capital, then answer the city."
// - the facts: the fact sentences alone, as the grammar writes them, each once, in the skill's order ("the
//   capital of Thamia is Zaemdrei."). A step states no fact (a search shows what the page printed, which the
//   facts say), so a skill of steps alone gives "".
import { skillParts } from '../../../text/skill_language/parts.ts';
import {
  formatQaFacts,
  formatQaSkill,
  kindOfName,
  QA_SHAPE,
  type QaAction,
  type QaSkill,
  type QaTarget,
} from './skill.ts';
import { parseQaSkill } from './parser.ts';

/** A name by its kind; a name of no kind (no stock word) is written as a person's, as no skill of the world has one. */
const roleOf = (names: readonly string[]) => kindOfName(names) ?? 'person';

function procedureAction(a: QaAction): QaAction {
  const then = a.follows ? { follows: a.follows } : {};
  if (a.verb === 'search') {
    const target: QaTarget = 'names' in a.target ? { role: roleOf(a.target.names) } : a.target;
    return { verb: 'search', target, ...(a.relation ? { relation: a.relation } : {}), ...then };
  }
  const v = a.value;
  const value = 'names' in v ? { role: roleOf(v.names) } : 'year' in v ? { role: 'year' as const } : v;
  return { verb: 'answer', value, ...then };
}

const PARTS = skillParts({
  name: QA_SHAPE.name,
  parse: parseQaSkill,
  formatPart: (s: QaSkill) => formatQaSkill(s, true),
  formatFacts: formatQaFacts,
  procedureAction,
  procedureOf: procedureAction,
  actionFacts: () => [],
});

/** The skill's procedure: its fact sentences removed, its names and years by their kind. */
export const qaSkillProcedure = (text: string): string => PARTS.procedure(text);

/** The skill's instance facts as sentences, in the skill's order, each once; "" when it states none. */
export const qaSkillFacts = (text: string): string => PARTS.facts(text);
