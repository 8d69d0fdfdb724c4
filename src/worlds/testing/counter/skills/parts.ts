// Parts of a counter skill, for the part controls (docs/seed-loss.md, "Part controls"; the shape's transforms
// are src/text/skill_language/parts.ts): the procedure is the skill without its goal (a step names no instance
// of the game, so it stays as it is); the facts are its goal sentence alone.
import { skillParts } from '../../../../text/skill_language/parts.ts';
import { parseCounterSkill } from './parser.ts';
import { COUNTER_SHAPE, type CounterSkill, formatCounterFacts, formatCounterSkill } from './skill.ts';

const PARTS = skillParts({
  name: COUNTER_SHAPE.name,
  parse: parseCounterSkill,
  formatPart: (s: CounterSkill) => formatCounterSkill(s, true),
  formatFacts: formatCounterFacts,
  procedureAction: (a) => a,
  procedureOf: (o) => o,
  actionFacts: () => [],
});

export const counterSkillProcedure = (text: string): string => PARTS.procedure(text);

export const counterSkillFacts = (text: string): string => PARTS.facts(text);
