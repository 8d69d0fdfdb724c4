// The search-QA skill grammar (skill.ts) as the constrained decoder takes it (src/text/skill_language/: the
// automaton over words, run over tokens, with its budget and filters), so that the analyzer can only write text
// that parseQaSkill accepts. The symbols: the literal words, NAME (a word of the name stock) and YEAR (a year the
// encyclopedia prints). No literal word is a name or a year, so a token is read one way wherever it stands.
//
// The entity filter limits NAME and YEAR to the words of a trajectory (its question, its queries and the
// passages its pages showed), so a skill names only what the episode saw; a class of which the trajectory shows
// nothing stays whole, so that every mask keeps a way to a valid skill. A name word stands at most twice in a row.
import { alt, opt, plus, type Rx, seq } from '../../../text/skill_language/automaton.ts';
import { grammarOf } from '../../../text/skill_language/decoder.ts';
import type { SkillGrammarDefinition } from '../../../text/skill_language/grammar.ts';
import { skillRx } from '../../../text/skill_language/skeleton.ts';
import { isNameWord, isYear, QA_GERUND, QA_IMPERATIVE, QA_KINDS, QA_RELATIONS, QA_ROLES, QA_SHAPE } from './skill.ts';

const NAME = '#name';
const YEAR = '#year';

const name = plus(NAME);
const target = alt(name, seq('the', alt(...QA_KINDS)));
const value = alt(name, YEAR, seq('the', alt(...QA_ROLES)));

function step(gerund: boolean): Rx {
  const verbs = gerund ? QA_GERUND : QA_IMPERATIVE;
  const verb = alt(seq(verbs.search, target, opt(alt(...QA_RELATIONS))), seq(verbs.answer, value));
  return gerund ? verb : seq(opt('then'), verb);
}

const facts = [
  seq(name, alt(seq('was', 'born', 'in', YEAR, 'in', name), seq('is', 'a', 'city', 'in', name))),
  seq(
    'the',
    alt(
      seq('capital', 'of', name, 'is', name),
      seq(name, alt(seq('was', 'founded', 'in', YEAR, 'by', name), seq('is', 'based', 'in', name))),
    ),
  ),
];

export const QA_SKILL_GRAMMAR: SkillGrammarDefinition = {
  name: QA_SHAPE.name,
  rx: skillRx(QA_SHAPE, { step, of: step(true), facts }),
  minWords: QA_SHAPE.minWords,
  classes: [
    { symbol: YEAR, member: isYear, named: true },
    { symbol: NAME, member: isNameWord, named: true, maxRun: 2 },
  ],
};

/** The world's skill grammar over a tokenizer, built once. */
export const qaSkillGrammar = grammarOf(QA_SKILL_GRAMMAR);
