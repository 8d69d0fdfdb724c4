import { describe, expect, it } from 'vitest';
import { DEFAULT_ENCYCLOPEDIA, encyclopediaOf } from './encyclopedia.ts';
import { QA_MAX_STEPS, QaGame, qaScore } from './game.ts';
import { makeQuestion, type QuestionKind } from './questions.ts';
import type { QaScene } from './scene.ts';

const enc = encyclopediaOf();
const sceneOf = (kind: QuestionKind, ...subjects: string[]): QaScene => ({
  encyclopedia: DEFAULT_ENCYCLOPEDIA,
  question: makeQuestion(enc, kind, subjects),
});
// Marno Nular was born in 1847 in Thamia, whose capital is Thothi.
const bridge = sceneOf('capital-of-birth-country', 'Marno Nular');

describe('a search-QA episode', () => {
  it('opens on the question, with the search bar and no answer listed', () => {
    const game = new QaGame(bridge);
    expect(bridge.question.text).toBe('What is the capital of the country where Marno Nular was born?');
    expect(bridge.question.answer).toBe('Thothi');
    expect(game.observation).toBe(`Question: ${bridge.question.text}`);
    expect(game.admissibleCommands()).toEqual([]);
    expect(game.freeText()).toMatchObject({ open: 'search[', close: ']', maxPieces: 8 });
    expect(game.records).toEqual([
      {
        step: 0,
        action: '',
        observation: game.observation,
        reward: 0,
        done: false,
        won: false,
        valid: true,
        query: null,
        passages: [],
        answer: null,
        f1: 0,
      },
    ]);
  });

  it('shows the top passages of a search and lists the names and years they print as answers', () => {
    const game = new QaGame(bridge);
    const r = game.step('search [ Marno  Nular born ]');
    expect(r).toEqual({
      observation: [
        'Doc 1: Marno Nular was born in 1847 in Thamia.',
        'Doc 2: Marno Nular worked as a poet in Greipiva.',
        'Doc 3: Mudo Nular was born in 1826 in Surand.',
      ].join('\n'),
      reward: 0,
      done: false,
      won: false,
      valid: true,
    });
    expect(game.admissibleCommands()).toEqual([
      'answer[Marno Nular]',
      'answer[1847]',
      'answer[Thamia]',
      'answer[Greipiva]',
      'answer[Mudo Nular]',
      'answer[1826]',
      'answer[Surand]',
    ]);
    expect(game.records[1]).toMatchObject({
      action: 'search[Marno Nular born]',
      query: 'Marno Nular born',
      answer: null,
    });
    expect(game.records[1].passages).toHaveLength(3);
    expect(game.step('search[velvet sofa]').observation).toBe('No passage matches the search.');
    expect(game.admissibleCommands()).toHaveLength(7);
  });

  it('ends on an answer: reward 1 for an exact match after normalisation, its F1 recorded', () => {
    const game = new QaGame(bridge);
    game.step('search[Marno Nular born]');
    game.step('search[Thamia capital]');
    const r = game.step('answer[ the THOTHI. ]');
    expect(r).toEqual({ observation: 'Your answer is correct.', reward: 1, done: true, won: true, valid: true });
    expect(game.records[3]).toMatchObject({ action: 'answer[the THOTHI.]', answer: 'the THOTHI.', f1: 1 });
    expect(qaScore(game.records)).toBe(1);
    expect(game.admissibleCommands()).toEqual([]);
    expect(game.freeText()).toBeNull();
    expect(game.expertPlan()).toEqual([]);
    expect(() => game.step('answer[Thothi]')).toThrow(/episode is over/);
  });

  it('takes any answer, listed or not, and scores a wrong one 0 with its F1 as the score', () => {
    const person = sceneOf('born-first', 'Marno Nular', 'Mudo Nular');
    expect(person.question.answer).toBe('Mudo Nular');
    const game = new QaGame(person);
    const r = game.step('answer[Marno Nular]');
    expect(r).toEqual({ observation: 'Your answer is wrong.', reward: 0, done: true, won: false, valid: true });
    expect(qaScore(game.records)).toBe(0.5);
  });

  it('answers "Nothing happens." to anything else, changing nothing but the step count', () => {
    const game = new QaGame(bridge, { maxSteps: 10 });
    const long = `search[${'Marno '.repeat(9)}]`;
    for (const command of [
      'look',
      'search[]',
      'answer[  ]',
      'click[Thothi]',
      'search[x',
      long,
      'answer[1 2 3 4 5 6 7 8 9]',
    ]) {
      expect(game.step(command)).toEqual({
        observation: 'Nothing happens.',
        reward: 0,
        done: false,
        won: false,
        valid: false,
      });
    }
    expect(game.steps).toBe(7);
    expect(game.admissibleCommands()).toEqual([]);
    expect(game.records.at(-1)).toMatchObject({ query: null, answer: null, passages: [], f1: 0 });
  });

  it('is cut after its step budget with reward 0 and score 0', () => {
    expect(QA_MAX_STEPS).toBe(6);
    const game = new QaGame(bridge, { maxSteps: 2 });
    game.step('search[Marno Nular born]');
    const r = game.step('search[Marno Nular born]');
    expect(r).toMatchObject({ done: true, won: false, reward: 0 });
    expect(qaScore(game.records)).toBe(0);
    expect(() => new QaGame(bridge, { maxSteps: 0 })).toThrow(/maxSteps must be a positive integer/);
  });
});
