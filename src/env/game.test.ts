// The game base every world's game extends: the step budget, the end of the episode and the records.
import { describe, expect, it } from 'vitest';
import type { EpisodeStep, StepOutcome } from './environment.ts';
import { GameBase } from './game.ts';

interface CountRecord extends EpisodeStep {
  total: number;
}

/** A game of no world: each command is a number added to a total, which wins at 3 and ends the game below 0. */
class CountGame extends GameBase<{ start: number }, CountRecord> {
  private total: number;

  constructor(start: number, maxSteps: number) {
    super({ start }, maxSteps);
    this.total = start;
    this.recordOpening(`total ${start}`, { total: start });
  }

  step(command: string): StepOutcome {
    this.countStep();
    this.total += Number(command);
    const won = this.total === 3;
    const result = { observation: `total ${this.total}`, reward: won ? 1 : 0, won, valid: true };
    return this.endStep(result, won || this.total < 0, command, { total: this.total });
  }
}

describe('the game base', () => {
  it('refuses a step budget that is not a positive whole number', () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) expect(() => new CountGame(0, bad)).toThrow(/maxSteps must be/);
  });

  it('records the opening as step 0 and each step with its own fields, and ends on a win', () => {
    const game = new CountGame(0, 5);
    expect(game.step('1')).toEqual({ observation: 'total 1', reward: 0, done: false, won: false, valid: true });
    expect(game.step('2')).toEqual({ observation: 'total 3', reward: 1, done: true, won: true, valid: true });
    expect([game.steps, game.done, game.won]).toEqual([2, true, true]);
    expect(game.records).toEqual([
      { step: 0, action: '', observation: 'total 0', reward: 0, done: false, won: false, valid: true, total: 0 },
      { step: 1, action: '1', observation: 'total 1', reward: 0, done: false, won: false, valid: true, total: 1 },
      { step: 2, action: '2', observation: 'total 3', reward: 1, done: true, won: true, valid: true, total: 3 },
    ]);
    expect(() => game.step('1')).toThrow(/the episode is over/);
    expect(game.records).toHaveLength(3);
  });

  it('ends where the world says, and at the step budget, without a win', () => {
    const lost = new CountGame(0, 5);
    expect(lost.step('-1').done).toBe(true);
    expect(lost.won).toBe(false);
    const cut = new CountGame(0, 2);
    cut.step('0');
    expect(cut.done).toBe(false);
    expect(cut.step('0')).toMatchObject({ done: true, won: false });
    expect(cut.steps).toBe(2);
  });
});
