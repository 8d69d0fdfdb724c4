import { describe, expect, it } from 'vitest';
import { Rng } from '../../../common/rng.ts';
import { QaGame } from './game.ts';
import type { QaScene } from './scene.ts';
import { evalQaScenes, generateQaScene, validationQaScenes } from './splits.ts';
import { queryWords } from './vocabulary.ts';

/** Plays the expert's plan from the game's state; its answer must be one the state lists. */
function playExpert(game: QaGame): void {
  for (const command of game.expertPlan()) {
    if (command.startsWith('answer[')) expect(game.admissibleCommands()).toContain(command);
    expect(game.step(command).valid).toBe(true);
  }
}

const splits: Record<string, () => QaScene[]> = {
  train: () => Array.from({ length: 200 }, (_, i) => generateQaScene('train', i % 100, Math.floor(i / 100))),
  'eval-seen': () => evalQaScenes('seen'),
  'eval-unseen': () => evalQaScenes('unseen'),
  validation: () => validationQaScenes(100),
};

describe('the expert', () => {
  for (const [name, scenes] of Object.entries(splits)) {
    it(`wins every ${name} game from the opening, in one search per hop and the answer`, () => {
      for (const scene of scenes()) {
        const game = new QaGame(scene);
        const plan = game.expertPlan();
        expect(plan.length).toBeLessThanOrEqual(scene.question.hops.length + 1);
        expect(plan.at(-1)).toBe(`answer[${scene.question.answer}]`);
        playExpert(game);
        expect(game.won, scene.question.text).toBe(true);
      }
    });
  }

  it('wins from any state: after random searches and invalid commands', () => {
    const rng = new Rng(11);
    const words = queryWords();
    for (let i = 0; i < 150; i++) {
      const scene = generateQaScene(rng.pick(['train', 'seen', 'unseen'] as const), i, 3);
      const game = new QaGame(scene, { maxSteps: 20 });
      for (let k = rng.int(5); k > 0; k--) {
        const query = Array.from({ length: 1 + rng.int(3) }, () => rng.pick(words)).join(' ');
        game.step(rng.float() < 0.2 ? 'look around' : `search[${query}]`);
      }
      playExpert(game);
      expect(game.won).toBe(true);
    }
  });

  it('skips the search of a fact a page has already shown', () => {
    const scene = generateQaScene('seen', 0, 1);
    expect(scene.question.kind).toBe('born-first');
    const game = new QaGame(scene);
    const [first, second, answer] = game.expertPlan();
    game.step(second);
    expect(game.expertPlan()).toEqual([first, answer]);
    game.step(first);
    expect(game.expertPlan()).toEqual([answer]);
  });
});
