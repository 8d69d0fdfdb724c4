// Reading a counter skill's text back into its structure (skill.ts has the grammar and the formatter): usable
// for on-policy distillation only when it parses and holds at least COUNTER_SHAPE.minWords words.
import {
  type SkillCheck,
  type SkillReader,
  type SkillReading,
  skillParser,
} from '../../../../text/skill_language/reading.ts';
import { NUMBER_WORDS } from '../env/vocabulary.ts';
import {
  COUNTER_GERUNDS,
  COUNTER_SHAPE,
  COUNTER_VERBS,
  type CounterAction,
  type CounterSkill,
  type GoalFact,
} from './skill.ts';

function readAction(r: SkillReader, gerund: boolean): CounterAction {
  const verb = gerund
    ? COUNTER_VERBS[r.oneOf(COUNTER_VERBS.map((v) => COUNTER_GERUNDS[v])) === 'adding' ? 0 : 1]
    : r.oneOf(COUNTER_VERBS);
  r.expect('one');
  return { verb };
}

function readOwnFact(r: SkillReader): GoalFact | undefined {
  if (!r.accept('the')) return undefined;
  r.expect('goal');
  r.expect('is');
  return { kind: 'goal', value: r.oneOf(NUMBER_WORDS) };
}

const READING: SkillReading<CounterAction, GoalFact, CounterAction> = {
  readAction,
  readOwnFact,
  startsStep: (r) => (COUNTER_VERBS as readonly string[]).includes(r.peek() ?? ''),
  readOf: (r) => readAction(r, true),
  factExpected: 'a fact ("the goal is", "nothing happens" or a step)',
};

/** Parses and validates a counter skill. */
export const parseCounterSkill: (text: string) => SkillCheck<CounterSkill> = skillParser(COUNTER_SHAPE, READING);
