import { describe, expect, it } from 'vitest';
import { type Environment, GAME_SETS, gameSetScenes, gameSetsOf } from '../env/environment.ts';
import { gameSetsOfWorld, gameSetsOverlaps, gamesHash, trainGames } from '../env/game_sets_testing.ts';
import { environmentOf } from './environments.ts';
import { factsOf, theWorld } from './facts.ts';
import { ENVIRONMENT_NAMES, isEnvironmentName } from './names.ts';

describe('the worlds behind one interface', () => {
  for (const [name, variant] of ENVIRONMENT_NAMES.flatMap((n) => factsOf(n).variants.map((v) => [n, v] as const))) {
    describe(`${name} (${variant})`, () => {
      const env = environmentOf(name, variant);

      it('draws the same train game from the same index and seed, and another from another seed', () => {
        expect(env.sceneToJson(env.trainScene(4, 9))).toBe(env.sceneToJson(env.trainScene(4, 9)));
        expect(env.sceneToJson(env.trainScene(4, 9))).not.toBe(env.sceneToJson(env.trainScene(4, 10)));
      });

      it('has fixed eval sets of the stated sizes, validation games apart from them, and task types it names', () => {
        const unseen = env.evalScenes('unseen');
        expect(unseen.length).toBe(env.evalCounts.unseen);
        expect(env.evalScenes('seen', 5).map(env.sceneToJson)).toEqual(
          env.evalScenes('seen').slice(0, 5).map(env.sceneToJson),
        );
        const evalGames = new Set(env.evalScenes('seen').map(env.sceneToJson));
        expect(env.validationScenes(20).filter((s) => evalGames.has(env.sceneToJson(s)))).toEqual([]);
        for (const scene of unseen.slice(0, 20)) expect(env.taskTypes).toContain(env.taskType(scene));
        // The unseen split holds out what training shows: no unseen cluster is a train cluster.
        const train = new Set(Array.from({ length: 200 }, (_, i) => env.clusterOf(env.trainScene(i, 1))));
        expect(unseen.filter((s) => train.has(env.clusterOf(s)))).toEqual([]);
      });

      it('plays a game to the goal with the expert, through the episode interface', () => {
        for (const split of ['train', 'seen', 'unseen'] as const) {
          const scene = env.sceneOf(split, 3, 2);
          const episode = env.episode(scene);
          expect(episode.observation).toContain(env.goal(scene));
          for (const command of episode.expertPlan()) episode.step(command);
          expect(episode.won).toBe(true);
          expect(episode.records.length).toBe(episode.steps + 1);
          expect(episode.records.slice(1).every((r) => r.valid)).toBe(true);
        }
      });

      it('reads a scene back from its JSON, and names the field of a bad one', () => {
        const scene = env.sceneOf('seen', 1, 0);
        expect(env.sceneToJson(env.sceneFromJson(env.sceneToJson(scene)))).toBe(env.sceneToJson(scene));
        expect(() => env.sceneFromJson('{"version": 99}')).toThrow(/version/);
        expect(() => env.sceneFromJson('not json')).toThrow(/JSON/);
      });

      it('is what its facts say: its name, scale, task types, eval sets and whether it scores', () => {
        const facts = factsOf(name);
        expect([env.name, facts.variants.includes(env.variant)]).toEqual([name, true]);
        expect([env.taskTypes, env.evalCounts]).toEqual([facts.taskTypes, facts.evalCounts]);
        expect(env.score !== null).toBe(facts.scored);
      });

      it("cuts an episode after its facts' step budget where none is asked for", () => {
        const { maxSteps } = factsOf(name);
        expect(env.defaultMaxSteps).toBe(maxSteps);
        const episode = env.episode(env.trainScene(0, 0));
        for (let step = 1; step < maxSteps; step++) episode.step('nonsense');
        expect(episode.done).toBe(false);
        episode.step('nonsense');
        expect([episode.done, episode.steps]).toEqual([true, maxSteps]);
      });

      it('has a score in [0, 1], 1 for a won game, where it has one', () => {
        if (env.score === null) return;
        const episode = env.episode(env.trainScene(2, 5));
        for (const command of episode.expertPlan()) episode.step(command);
        expect(env.score(episode.records)).toBe(1);
      });

      it('takes a step budget', () => {
        const episode = env.episode(env.trainScene(0, 0), 1);
        episode.step('nonsense');
        expect(episode.done).toBe(true);
        expect(episode.won).toBe(false);
      });
    });
  }

  it('keeps the validation-unseen games apart from every split, in clusters of their own, and each split as it was', () => {
    for (const [name, variant] of ENVIRONMENT_NAMES.flatMap((n) => factsOf(n).variants.map((v) => [n, v] as const))) {
      const env = environmentOf(name, variant);
      expect(gameSetsOf(env), name).toEqual(GAME_SETS);
      // the train games of run seeds 0-3 and the benchmark's sweep seed
      const sets = gameSetsOfWorld(env);
      const train = trainGames(env, [0, 1, 2, 3, 1000], 300);
      expect(gameSetsOverlaps(env, sets, train), `${name} (${variant})`).toEqual(
        SHARED_GAMES[`${name}/${variant}`] ?? [],
      );
      const unseen = sets.get('validation-unseen')!;
      expect(unseen.length, name).toBe(env.evalCounts.unseen);
      expect(gamesHash(env, gameSetScenes(env, 'validation-unseen', 7)), name).toBe(gamesHash(env, unseen.slice(0, 7)));
      // The recorded benchmarks played these games: the splits draw them as they did.
      const hashes = {
        ...Object.fromEntries([...sets].map(([set, games]) => [set, gamesHash(env, games)])),
        train: gamesHash(env, trainGames(env, [0, 1000], 200)),
      };
      expect(hashes, `${name} (${variant})`).toEqual(SPLIT_HASHES[`${name}/${variant}`]);
    }
  });

  it('refuses a set of games that a world lacks, naming those it has', () => {
    const env = { ...environmentOf('household'), validationUnseenScenes: null } as Environment;
    expect(gameSetsOf(env)).toEqual(['seen', 'unseen', 'validation']);
    expect(() => gameSetScenes(env, 'validation-unseen')).toThrow(
      'the household world has no validation-unseen games (its game sets: seen, unseen, validation)',
    );
  });

  it('knows its names and scales', () => {
    expect(isEnvironmentName('shop')).toBe(true);
    expect(isEnvironmentName('kitchen')).toBe(false);
    expect(environmentOf('shop', 'webshop').variant).toBe('webshop');
    expect(() => environmentOf('shop', 'alfworld')).toThrow(/the shop has no "alfworld" scale \(tiny, webshop\)/);
    expect(() => environmentOf('kitchen' as 'shop')).toThrow(
      `"kitchen" is not a world (the worlds: ${ENVIRONMENT_NAMES.join(', ')})`,
    );
    expect(() => factsOf('__proto__')).toThrow(/is not a world/);
  });

  it('names each world in a sentence: "the <name>", or its words where the name is no word', () => {
    expect(ENVIRONMENT_NAMES.map((name) => theWorld(name))).toEqual([
      'the household',
      'the shop',
      'the search-QA world',
    ]);
    expect(theWorld('searchqa', true)).toBe('The search-QA world');
  });
});

/**
 * The games that splits of the seen kind share (gameSetsOverlaps, train games of 300 indices under 5 seeds): the
 * shop's goals and search QA's questions are few enough that two streams draw some of the same. The recorded
 * benchmarks played them so; the validation-unseen games share none.
 */
const SHARED_GAMES: Readonly<Record<string, readonly string[]>> = {
  'shop/tiny': [
    'train and seen share 1 game',
    'train and validation share 3 games',
    'seen and validation share 1 game',
  ],
  'shop/webshop': ['train and seen share 1 game', 'train and validation share 2 games'],
  'searchqa/tiny': ['train and seen share 154 games', 'train and validation share 108 games'],
};

/** The hashes (gamesHash) of each world's splits, the first four as the recorded benchmarks played them. */
const SPLIT_HASHES: Readonly<Record<string, Record<string, string>>> = {
  'household/tiny': {
    seen: '800a37a151127d70',
    unseen: '9161069b61da34ad',
    validation: '8cd63b5344d4238f',
    train: '58463e9ea4f1e1f9',
    'validation-unseen': 'cc42fa3beb72a9bb',
  },
  'household/alfworld': {
    seen: '6a361f138a862686',
    unseen: '7222781c030598a3',
    validation: '2d71df6d2f751b52',
    train: '20182006f0edf359',
    'validation-unseen': 'd0f1a4234f6b929f',
  },
  'shop/tiny': {
    seen: '9f13a69bb874d1f3',
    unseen: '8baf718720b76f82',
    validation: 'eac57550651a80aa',
    train: '0f1b0145c9e803a4',
    'validation-unseen': 'd276c41e8d712272',
  },
  'shop/webshop': {
    seen: 'efc9b4040e0e9055',
    unseen: '21e1d64c45da7b51',
    validation: 'bd9089b89a1ab9d0',
    train: '7a420b80f64d9a87',
    'validation-unseen': '9b6adee7fabed951',
  },
  'searchqa/tiny': {
    seen: '09a574d14b4a71fd',
    unseen: 'c557f20e25eec71f',
    validation: '55530688de84c884',
    train: '172214ca351d186a',
    'validation-unseen': '7494afa3d8617d7b',
  },
};
