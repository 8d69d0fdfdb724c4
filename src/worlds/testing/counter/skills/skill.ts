// The counter world's skills, in the shape every world's skills share (src/text/skill_language/skeleton.ts),
// with its steps and its one fact of its own:
//
//   step   := ("add" | "take") "one"            gerund := ("adding" | "taking") "one"
//   fact   := "the" "goal" "is" NUMBER           NUMBER: a number word of the counter ("three")
//   HOW    := none; OF := gerund; INVALID := "commands"; an avoidance rule may have no warning sign
//
//   "workflow: add one, add one. the goal is three."   "avoid: taking one. the goal is four."
import {
  factsText,
  isRuleFact,
  type Mistake,
  type RuleFact,
  ruleFactWords,
  type Skill,
  type SkillShape,
  type SkillWriting,
  skillText,
} from '../../../../text/skill_language/skeleton.ts';
import { NUMBER_WORDS, type NumberWord } from '../env/vocabulary.ts';

export const COUNTER_SHAPE: SkillShape = {
  name: 'counter skill',
  minWords: 3,
  step: 'step',
  invalid: 'commands',
  signsRequired: false,
  how: [],
};

export type CounterVerb = 'add' | 'take';
export const COUNTER_VERBS: readonly CounterVerb[] = ['add', 'take'];
export const COUNTER_GERUNDS = { add: 'adding', take: 'taking' } as const;

export interface CounterAction {
  verb: CounterVerb;
}

/** The world's own fact: the number the counter must show. */
export interface GoalFact {
  kind: 'goal';
  value: NumberWord;
}

export type CounterFact = GoalFact | RuleFact<CounterAction>;
export type CounterSkill = Skill<CounterAction, CounterFact, Mistake<CounterAction, CounterAction>>;

const actionWords = (a: CounterAction, gerund: boolean): string[] => [gerund ? COUNTER_GERUNDS[a.verb] : a.verb, 'one'];

const factWords = (f: CounterFact): string[] =>
  isRuleFact<CounterAction>(f) ? ruleFactWords(f, actionWords) : ['the', 'goal', 'is', f.value];

const WRITING: SkillWriting<CounterAction, CounterFact, CounterAction> = {
  actionWords,
  factWords,
  ofWords: (o) => actionWords(o, true),
};

/** A skill's text; `part` allows an avoidance rule without a warning sign (parts.ts). */
export const formatCounterSkill = (s: CounterSkill, part = false): string => skillText(s, COUNTER_SHAPE, WRITING, part);

export const formatCounterFacts = (facts: readonly CounterFact[]): string => factsText(facts, factWords);

/** Every word and mark of the grammar, for the world's vocabulary. */
const COUNTER_SKILL_WORDS: readonly string[] = [
  ...new Set([
    ...COUNTER_VERBS,
    ...Object.values(COUNTER_GERUNDS),
    ...NUMBER_WORDS,
    ...'workflow avoid the goal is before instead of forgetting to invalid commands running out steps'.split(' '),
    ...'first nothing happens after'.split(' '),
    ...': , ; .'.split(' '),
  ]),
];

/** What the world adds to its vocabulary (src/worlds/languages.ts): its skill words. */
export const COUNTER_LANGUAGE = { skillWords: COUNTER_SKILL_WORDS, notWords: [] };
