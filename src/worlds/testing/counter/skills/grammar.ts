// The counter world's skill grammar (skill.ts) as the constrained decoder takes it (src/text/skill_language/):
// literal words only, so that the analyzer can only write text that parseCounterSkill accepts.
import { alt, seq } from '../../../../text/skill_language/automaton.ts';
import { grammarOf } from '../../../../text/skill_language/decoder.ts';
import type { SkillGrammarDefinition } from '../../../../text/skill_language/grammar.ts';
import { skillRx } from '../../../../text/skill_language/skeleton.ts';
import { NUMBER_WORDS } from '../env/vocabulary.ts';
import { COUNTER_GERUNDS, COUNTER_SHAPE, COUNTER_VERBS } from './skill.ts';

const step = (gerund: boolean) =>
  seq(alt(...(gerund ? COUNTER_VERBS.map((v) => COUNTER_GERUNDS[v]) : COUNTER_VERBS)), 'one');

const COUNTER_SKILL_GRAMMAR: SkillGrammarDefinition = {
  name: COUNTER_SHAPE.name,
  rx: skillRx(COUNTER_SHAPE, { step, of: step(true), facts: [seq('the', 'goal', 'is', alt(...NUMBER_WORDS))] }),
  minWords: COUNTER_SHAPE.minWords,
  classes: [],
};

/** The world's skill grammar over a tokenizer, built once. */
export const counterSkillGrammar = grammarOf(COUNTER_SKILL_GRAMMAR);
