// The counter world's skill grammar agrees with its parser, as every world's does (grammarConformance), under
// the world's tokenizer, which its language's registration gives it.
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { grammarConformance } from '../../../../text/skill_language/grammar_testing.ts';
import { tokenizerOf } from '../../../../text/tokenizer.ts';
import { registerLanguage } from '../../../languages.ts';
import { registerWorldName } from '../../../names.ts';
import { COUNTER, COUNTER_NAME } from '../env/environment.ts';
import { NUMBER_WORDS } from '../env/vocabulary.ts';
import { counterSkillGrammar } from './grammar.ts';
import { parseCounterSkill } from './parser.ts';
import {
  COUNTER_LANGUAGE,
  COUNTER_SHAPE,
  COUNTER_VERBS,
  type CounterAction,
  type CounterFact,
  type CounterSkill,
  formatCounterSkill,
} from './skill.ts';

const unregister = [registerWorldName(COUNTER_NAME), registerLanguage(COUNTER_NAME, COUNTER_LANGUAGE)];
afterAll(() => {
  for (const undo of unregister.reverse()) undo();
});

const tok = tokenizerOf(COUNTER);
const grammar = counterSkillGrammar(tok);

const action: fc.Arbitrary<CounterAction> = fc.constantFrom(...COUNTER_VERBS).map((verb) => ({ verb }));
const fact: fc.Arbitrary<CounterFact> = fc.oneof(
  fc.constantFrom(...NUMBER_WORDS).map((value) => ({ kind: 'goal' as const, value })),
  fc.constant({ kind: 'nothing' as const }),
  action.map((after) => ({ kind: 'nothing' as const, after })),
  action.map((a) => ({ kind: 'first' as const, action: a })),
  fc.tuple(action, action).map(([a, then]) => ({ kind: 'order' as const, action: a, then })),
);
const mistake: fc.Arbitrary<Extract<CounterSkill, { kind: 'avoid' }>['mistake']> = fc.oneof(
  action.map((a) => ({ kind: 'doing' as const, action: a })),
  fc.tuple(action, action).map(([a, then]) => ({ kind: 'before' as const, action: a, then })),
  fc.tuple(action, action).map(([a, of]) => ({ kind: 'instead' as const, action: a, of })),
  action.map((a) => ({ kind: 'forgetting' as const, action: a })),
  fc.constantFrom({ kind: 'invalid' as const }, { kind: 'steps' as const }),
);
const facts = fc.array(fact, { maxLength: 2 });
const arbitrarySkill: fc.Arbitrary<CounterSkill> = fc.oneof(
  fc.record({
    kind: fc.constant('workflow' as const),
    actions: fc.array(action, { minLength: 1, maxLength: 4 }),
    facts,
  }),
  fc.record({ kind: fc.constant('avoid' as const), mistake, signs: facts, facts }),
);

describe('the counter skill grammar automaton', () => {
  grammarConformance({
    tok,
    grammar,
    arbitrarySkill,
    format: (s) => formatCounterSkill(s),
    parse: parseCounterSkill,
    minWords: COUNTER_SHAPE.minWords,
    shortestTokens: 5,
    largestBudget: 48,
  });

  it('reads back what it writes: "workflow: add one, add one. the goal is three."', () => {
    const text = 'workflow: add one, add one. the goal is three.';
    expect(grammar.shortest).toBe(5);
    expect(grammar.complete(grammar.walk(tok.encode(text))!)).toBe(true);
    expect(formatCounterSkill(parseCounterSkill(text).skill!)).toBe(text);
    expect(parseCounterSkill('workflow: add two.').reason).toMatch(/expected "one" after "add", got "two"/);
  });
});
