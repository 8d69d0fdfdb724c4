import { describe, expect, it } from 'vitest';
import { Rng } from '../common/rng.ts';
import type { Episode, EpisodeStep, FreeTextCommand } from '../env/environment.ts';
import { exploreEpisode, type ExplorerChoice } from './explored_episode.ts';

const BAR: FreeTextCommand = { open: 'search[', close: ']', words: ['lamp'], maxPieces: 4 };

/** A game of five steps that lists "a", "b", "c" and takes free text at its odd steps. */
function countingGame(): Episode<EpisodeStep> {
  const records: EpisodeStep[] = [];
  return {
    observation: '',
    records,
    get done() {
      return records.length === 5;
    },
    won: false,
    get steps() {
      return records.length;
    },
    admissibleCommands: () => ['a', 'b', 'c'],
    freeText: () => (records.length % 2 === 1 ? BAR : null),
    step(command: string) {
      const outcome = { observation: command, reward: 0, done: records.length === 4, won: false, valid: true };
      records.push({ ...outcome, step: records.length + 1, action: command });
      return outcome;
    },
    expertPlan: () => [],
  } as unknown as Episode<EpisodeStep>;
}

/** Deliberately "a"; primed, "b" at even steps (the skill decides those). Random steps say "c" and draw nothing. */
function choice(game: Episode<EpisodeStep>, primed: boolean): ExplorerChoice {
  return {
    random: () => 'c',
    deliberate: (_commands, _bar, withSkill) => (withSkill && game.records.length % 2 === 0 ? 'b' : 'a'),
    primed,
  };
}

describe('an explorer episode', () => {
  it('draws the noise first at every step, and notes the unprimed command where the skill changed the choice', () => {
    const game = countingGame();
    const episode = exploreEpisode(game, new Rng(11), 0.5, choice(game, true));
    const draws = new Rng(11);
    const random = Array.from({ length: 5 }, () => draws.float() < 0.5);
    expect(episode.random).toEqual(random);
    expect(random.some((r) => r) && random.some((r) => !r)).toBe(true);
    const actions = game.records.map((r) => r.action);
    expect(actions).toEqual(random.map((r, t) => (r ? 'c' : t % 2 === 0 ? 'b' : 'a')));
    expect(episode.withoutSkill).toEqual(random.map((r, t) => (!r && t % 2 === 0 ? 'a' : null)));
    expect(episode.admissible).toEqual(Array(5).fill(['a', 'b', 'c']));
    expect(episode.freeText).toEqual([null, BAR, null, BAR, null]);
  });

  it('unprimed, never notes a command without the skill', () => {
    const game = countingGame();
    const episode = exploreEpisode(game, new Rng(11), 0, choice(game, false));
    expect(game.records.map((r) => r.action)).toEqual(['a', 'a', 'a', 'a', 'a']);
    expect(episode.withoutSkill).toEqual([null, null, null, null, null]);
    expect(episode.random).toEqual([false, false, false, false, false]);
  });
});
