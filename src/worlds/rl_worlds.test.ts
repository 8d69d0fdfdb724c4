// Each registered world's training side agrees with its facts (WorldFacts, read on the page without loading it),
// and the registry refuses an environment of no world with the list of the worlds.
import { describe, expect, it } from 'vitest';
import type { Environment } from '../env/environment.ts';
import { PRESET_NAMES } from '../model/config.ts';
import { checkConfig, defaultConfig, TRAIN_SETTINGS } from '../rl/config.ts';
import { FOCUS_KINDS } from '../rl/warmstart.ts';
import { environmentOf } from './environments.ts';
import { factsOf } from './facts.ts';
import { ENVIRONMENT_NAMES } from './names.ts';
import { rlWorldOf } from './rl_worlds.ts';

describe('the worlds’ training sides', () => {
  for (const name of ENVIRONMENT_NAMES) {
    it(`${name}: its training settings are the settings table's, in range at every preset, and its RlWorld's`, () => {
      const { trainDefaults, shippedWarmStarts } = factsOf(name);
      for (const key of Object.keys(trainDefaults)) expect(Object.hasOwn(TRAIN_SETTINGS, key), key).toBe(true);
      for (const preset of PRESET_NAMES)
        expect(() => checkConfig({ ...defaultConfig(preset), ...trainDefaults })).not.toThrow();
      for (const preset of shippedWarmStarts) expect(PRESET_NAMES).toContain(preset);
      const world = rlWorldOf(environmentOf(name));
      expect(world.env.name).toBe(name);
      expect(world.trainDefaults).toEqual(trainDefaults);
      for (const kind of world.focusKinds) expect(FOCUS_KINDS).toContain(kind);
    });
  }

  it('refuses an environment of no world, with the list of the worlds', () => {
    const stranger = { ...environmentOf(ENVIRONMENT_NAMES[0]), name: 'garden' } as unknown as Environment;
    expect(() => rlWorldOf(stranger)).toThrow(`"garden" is not a world (the worlds: ${ENVIRONMENT_NAMES.join(', ')})`);
  });
});
