import { describe, expect, it } from 'vitest';
import { Rng } from '../../../common/rng.ts';
import { Game } from './game.ts';
import { generateScene, SPLITS } from './splits.ts';
import { ALFWORLD, TINY } from './scale.ts';
import { environmentWords, splitWords } from './vocabulary.ts';

describe('splitWords', () => {
  it('splits punctuation off, keeps in/on, the banner marks and apostrophes whole', () => {
    expect(splitWords("-= Welcome to TextWorld, ALFRED! =-\n\nThere's a cabinet 12. put mug 1 in/on shelf 2")).toEqual([
      '-=',
      'welcome',
      'to',
      'textworld',
      ',',
      'alfred',
      '!',
      '=-',
      "there's",
      'a',
      'cabinet',
      '12',
      '.',
      'put',
      'mug',
      '1',
      'in/on',
      'shelf',
      '2',
    ]);
    expect(splitWords('Your task is to: put two cd in safe.')).toEqual([
      'your',
      'task',
      'is',
      'to',
      ':',
      'put',
      'two',
      'cd',
      'in',
      'safe',
      '.',
    ]);
    expect(splitWords('   ')).toEqual([]);
  });
});

describe('environmentWords', () => {
  it('holds the type names, numbers 1..30 and the phrase words, sorted and unique', () => {
    const words = environmentWords();
    expect(new Set(words).size).toBe(words.length);
    expect([...words].sort()).toEqual(words);
    for (const w of [
      'cabinet',
      'apple',
      'desklamp',
      '1',
      '30',
      'in/on',
      'nothing',
      'happens',
      '-=',
      "there's",
      'hot',
      'cold',
    ]) {
      expect(words).toContain(w);
    }
    expect(words).not.toContain('31');
    expect(words).not.toContain('x');
  });
});

describe('vocabulary coverage', () => {
  it('covers every observation, command and goal of random episodes (both scales, every split)', () => {
    const words = new Set(environmentWords());
    const used = new Set<string>();
    const check = (text: string) => {
      for (const w of splitWords(text)) {
        if (!words.has(w)) throw new Error(`"${w}" (from "${text}") is not in the vocabulary`);
        used.add(w);
      }
    };
    const rng = new Rng(7);
    for (const scale of [TINY, ALFWORLD]) {
      for (const split of SPLITS) {
        for (let i = 0; i < 150; i++) {
          const game = new Game(generateScene(split, i, scale), { maxSteps: 40 });
          check(game.observation);
          check(game.scene.task.goal);
          while (!game.done) {
            const commands = game.admissibleCommands();
            commands.forEach(check);
            // A random walk, then the expert from wherever it led, so that winning text shows up too.
            // Now and then a command that is not possible, for "Nothing happens.".
            const command =
              game.steps >= 20 ? game.expertPlan()[0] : rng.float() < 0.1 ? 'go to the moon' : rng.pick(commands);
            check(game.step(command).observation);
          }
        }
      }
    }
    // The random episodes reach most of the phrase words (type names vary with the rooms drawn).
    for (const w of [
      'arrive',
      'closed',
      'open',
      'pick',
      'heat',
      'cool',
      'clean',
      'turn',
      'special',
      'carrying',
      'facing',
      'happens',
    ]) {
      expect(used.has(w), w).toBe(true);
    }
  });
});
