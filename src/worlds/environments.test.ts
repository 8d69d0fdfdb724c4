import { describe, expect, it } from 'vitest';
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
