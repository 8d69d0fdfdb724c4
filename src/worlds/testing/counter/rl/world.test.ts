// A fourth world, registered by its test alone: the counter world is no shipped world, yet once its name and its
// entries are registered, every part of the product reaches it through the registries as it reaches the shipped
// worlds: its expert wins its games, a policy plays it, and the trainer runs one update of SEED in it. What it
// needs outside its folder is the registry lines this test calls (docs/architecture.md, "Worlds").
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CpuBackend } from '../../../../backend/cpu/cpu_backend.ts';
import { GAME_SETS } from '../../../../env/environment.ts';
import { gameSetsOfWorld, gameSetsOverlaps, trainGames } from '../../../../env/game_sets_testing.ts';
import { Rng } from '../../../../common/rng.ts';
import { presetConfig } from '../../../../model/config.ts';
import { defaultConfig, type TrainConfig } from '../../../../rl/config.ts';
import { WARMSTART_DEFAULTS } from '../../../../rl/warmstart.ts';
import { rollout, rolloutOptions } from '../../../../rl/rollout.ts';
import { Trainer } from '../../../../rl/trainer.ts';
import { tokenizerOf, worldOfVocabulary } from '../../../../text/tokenizer.ts';
import { environmentOf, registerEnvironment } from '../../../environments.ts';
import { factsOf, registerFacts } from '../../../facts.ts';
import { languageOf, registerLanguage } from '../../../languages.ts';
import { ENVIRONMENT_NAMES, isEnvironmentName, registerWorldName, worldNames } from '../../../names.ts';
import { registerRlWorld, rlWorldOf } from '../../../rl_worlds.ts';
import { counterAtScale, COUNTER_NAME } from '../env/environment.ts';
import { COUNTER_FACTS } from '../env/facts.ts';
import { COUNTER_LANGUAGE } from '../skills/skill.ts';
import { counterRlOf } from './adapter.ts';

/** The lines outside the world's folder that it needs: one per registry it is in (docs/architecture.md counts them). */
const REGISTRATIONS: readonly (() => () => void)[] = [
  () => registerWorldName(COUNTER_NAME),
  () => registerFacts(COUNTER_NAME, COUNTER_FACTS),
  () => registerEnvironment(COUNTER_NAME, counterAtScale),
  () => registerLanguage(COUNTER_NAME, COUNTER_LANGUAGE),
  () => registerRlWorld(COUNTER_NAME, counterRlOf),
];

function register(): () => void {
  const unregister = REGISTRATIONS.map((registration) => registration());
  return () => {
    for (const undo of unregister.reverse()) undo();
  };
}

describe('a world of the tests, through the registries', () => {
  let unregister = () => {};
  beforeAll(() => {
    unregister = register();
  });
  afterAll(() => unregister());

  it('is a world while registered, never one the command line or the page offers', () => {
    expect(isEnvironmentName(COUNTER_NAME)).toBe(true);
    expect(worldNames()).toEqual([...ENVIRONMENT_NAMES, COUNTER_NAME]);
    expect(ENVIRONMENT_NAMES).not.toContain(COUNTER_NAME);
    expect(environmentOf(COUNTER_NAME).name).toBe(COUNTER_NAME);
    expect(() => environmentOf(COUNTER_NAME, 'alfworld')).toThrow(/has no "alfworld" scale \(tiny\)/);
    expect(() => registerWorldName(COUNTER_NAME)).toThrow(/cannot be registered/);
    expect(() => registerWorldName('counter')).toThrow(/starting with "test-"/);
    expect(worldOfVocabulary(tokenizerOf(environmentOf(COUNTER_NAME)).hash)).toBe(COUNTER_NAME);
  });

  it("wins every game of its eval sets by its expert's plan", () => {
    const env = environmentOf(COUNTER_NAME);
    const scenes = [...env.evalScenes('seen'), ...env.evalScenes('unseen')];
    expect(scenes.length).toBe(factsOf(COUNTER_NAME).evalCounts.seen + factsOf(COUNTER_NAME).evalCounts.unseen);
    for (const scene of scenes) {
      const game = env.episode(scene);
      for (const command of game.expertPlan()) game.step(command);
      expect(game.won).toBe(true);
      expect(env.sceneFromJson(env.sceneToJson(scene))).toEqual(scene);
    }
    expect(() => env.sceneFromJson('{"start": 2, "target": 9}')).toThrow(/^target: an integer from 0 to 5, got 9$/);
  });

  it('keeps its validation-unseen games apart from every split, in moves that no eval set holds', () => {
    const env = environmentOf(COUNTER_NAME);
    const sets = gameSetsOfWorld(env);
    expect([...sets.keys()]).toEqual(GAME_SETS);
    expect(sets.get('validation-unseen')!.length).toBe(COUNTER_FACTS.evalCounts.unseen);
    // Its seen-kind sets draw from 28 moves, so they share games; the validation-unseen games share none.
    const shared = gameSetsOverlaps(env, sets, trainGames(env, [0, 1, 1000], 50));
    expect(shared.filter((s) => s.includes('validation-unseen'))).toEqual([]);
    expect(shared.length).toBeGreaterThan(0);
  });

  const tok = () => tokenizerOf(environmentOf(COUNTER_NAME));

  it("builds its warm start's corpus, whose annotator skills parse and state the game's goal", () => {
    const world = rlWorldOf(environmentOf(COUNTER_NAME));
    const options = { ...WARMSTART_DEFAULTS, ...world.warmStartDefaults, episodes: 6, seed: 1 };
    const corpus = world.warmStartCorpus(tok(), presetConfig('micro', tok().vocabSize).contextLength, options);
    expect(corpus.counts.act).toBe(6);
    expect(corpus.counts.analyze).toBe(6);
    expect(corpus.counts.follow).toBeGreaterThan(0);
    const scenes = world.teacherScenes(6);
    const skills = scenes.map((scene, i) => {
      const episode = world.explore(scene, new Rng(i), { maxSteps: 8, noise: 0.5 });
      const text = world.referenceSkill(episode, tok(), 48);
      expect(world.checkSkill(text)).toEqual({ ok: true, reason: '' });
      expect(world.skillPart('facts', text, new Rng(0))).toMatch(/^the goal is [a-z]+\.$/);
      return { text, scene };
    });
    expect(world.truthShares(skills)).toEqual({ placeTrue: 1, placeFalse: 0 });
  });
  const config = (): TrainConfig => ({
    ...defaultConfig('micro'),
    ...factsOf(COUNTER_NAME).trainDefaults,
    groupSize: 2,
    tasksPerUpdate: 2,
    lr: 1e-2,
  });

  it('is played by a policy of seeded random weights on the micro preset', async () => {
    const env = environmentOf(COUNTER_NAME);
    const backend = CpuBackend.fromSeed(presetConfig('micro', tok().vocabSize), 5);
    const scenes = env.evalScenes('seen', 2);
    const played = await rollout(env, backend, tok(), scenes, [0, 1], rolloutOptions(config()), new Rng(1));
    expect(played.length).toBe(2);
    for (const t of played) {
      expect(t.layout).toBe('episode');
      expect(t.records.length).toBeGreaterThan(1);
      expect(t.records.slice(1).every((r) => env.episode(t.scene).admissibleCommands().includes(r.action))).toBe(true);
    }
  });

  it('trains one update of SEED on the micro preset: skills written under its grammar, finite losses', async () => {
    const env = environmentOf(COUNTER_NAME);
    const world = rlWorldOf(env);
    const trainer = new Trainer({
      backend: CpuBackend.fromSeed(presetConfig('micro', tok().vocabSize), 7),
      tokenizer: tok(),
      algo: 'seed',
      config: config(),
      seed: 3,
      world,
    });
    const metrics = await trainer.update();
    const st = trainer.current!;
    expect(st.trajectories.length).toBe(4);
    expect(Number.isFinite(metrics.total)).toBe(true);
    const written = st.written.filter((w) => w !== null);
    expect(written.length).toBe(4);
    for (const w of written) if (w.ids!.length < config().maxSkillTokens) expect(w.ok).toBe(true);
    expect(st.expertTokens!.length).toBe(st.trajectories.reduce((n, t) => n + t.lOld.length, 0));
  });

  it('needs outside its folder the registry lines that docs/architecture.md counts', () => {
    const architecture = readFileSync(join(import.meta.dirname, '../../../../../docs/architecture.md'), 'utf8');
    expect(architecture.replace(/\s+/g, ' ')).toContain(
      `Outside its folder it needs ${REGISTRATIONS.length} lines, the registry lines its test calls`,
    );
  });

  it('is no world once taken back', () => {
    unregister();
    unregister = () => {};
    expect(isEnvironmentName(COUNTER_NAME)).toBe(false);
    expect(worldNames()).toEqual([...ENVIRONMENT_NAMES]);
    expect(() => factsOf(COUNTER_NAME)).toThrow(/is not a world \(the worlds: household, shop, searchqa\)/);
    expect(() => registerFacts(COUNTER_NAME, COUNTER_FACTS)).toThrow(/is not a registered world/);
    const named = registerWorldName(COUNTER_NAME);
    expect(() => languageOf(COUNTER_NAME)).toThrow(/"test-counter" has no entry in this registry/);
    named();
  });
});
