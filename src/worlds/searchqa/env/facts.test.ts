import { describe, expect, it } from 'vitest';
import { SEARCHQA_FACTS } from './facts.ts';
import { QA_MAX_STEPS } from './game.ts';
import { QA_TASK_TYPES } from './questions.ts';
import { QA_EVAL_COUNTS } from './splits.ts';

describe('the search-QA world’s facts', () => {
  it('state the game’s step budget, task types and eval counts, which they do not import', () => {
    expect(SEARCHQA_FACTS.trainDefaults).toEqual({ maxSteps: QA_MAX_STEPS, history: QA_MAX_STEPS });
    expect(SEARCHQA_FACTS.taskTypes).toEqual(QA_TASK_TYPES);
    expect(SEARCHQA_FACTS.evalCounts).toEqual(QA_EVAL_COUNTS);
  });

  it('frame the opening observation as the question, which the task line holds', () => {
    const [prefix] = SEARCHQA_FACTS.openingFrame.prefixes;
    expect('Question: Who founded the Vawick Society?'.startsWith(prefix)).toBe(true);
    expect('Doc 1: The Vawick Society is based in Bemena.'.startsWith(prefix)).toBe(false);
  });
});
