import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ENVIRONMENT_NAMES } from '../worlds/names.ts';
import { environmentOf } from '../worlds/environments.ts';
import { PRESET_NAMES } from '../model/config.ts';
import { defaultConfig } from './config.ts';
import { rlWorldOf } from '../worlds/rl_worlds.ts';
import {
  ALGORITHMS,
  BACKENDS,
  DECODINGS,
  DEFAULT_SETTINGS,
  MAX_UNKNOWN_KEY_NOTICES,
  NUMBER_SPECS,
  SETTING_KEYS,
  defaultSettings,
  formatHash,
  needsReset,
  numberProblem,
  numberSpecOf,
  PAGE_TRAIN_KEYS,
  parseHash,
  presetDefaultsKeeping,
  settingsFrom,
  trainConfigOf,
  withPaperValues,
  type NumericKey,
  type Settings,
} from './page_settings.ts';

const numericKeys = Object.keys(NUMBER_SPECS) as NumericKey[];

function arbitrarySettings(): fc.Arbitrary<Settings> {
  // The numbers' ranges are the world's (numberSpecOf): the world is drawn first.
  return fc.constantFrom(...ENVIRONMENT_NAMES).chain((env) => {
    const numbers = Object.fromEntries(
      numericKeys.map((k) => {
        const spec = numberSpecOf(k, env);
        const arb =
          spec.kind === 'real'
            ? fc
                .double({
                  min: spec.min,
                  max: spec.max,
                  maxExcluded: spec.belowMax,
                  noNaN: true,
                  noDefaultInfinity: true,
                })
                // A value that rounds to 0 in float32 is no valid setting: it reads as 0.
                .map((x) => (Object.is(x, -0) || Math.fround(x) === 0 ? 0 : x))
            : fc.integer({ min: spec.min, max: spec.max });
        return [k, arb];
      }),
    ) as Record<NumericKey, fc.Arbitrary<number>>;
    return fc.record({
      ...numbers,
      env: fc.constant(env),
      preset: fc.constantFrom(...PRESET_NAMES),
      algo: fc.constantFrom(...ALGORITHMS),
      decoding: fc.constantFrom(...DECODINGS),
      backend: fc.constantFrom(...BACKENDS),
    });
  });
}

describe('URL hash', () => {
  it('round-trips every valid setting exactly', () => {
    fc.assert(
      fc.property(arbitrarySettings(), (s) => {
        const parsed = parseHash(formatHash(s));
        expect(parsed.notices).toEqual([]);
        expect(parsed.settings).toEqual(s);
      }),
      { numRuns: 300 },
    );
  });

  it('gives the defaults for an empty hash', () => {
    expect(parseHash('')).toEqual({ settings: DEFAULT_SETTINGS, notices: [], named: [] });
    expect(parseHash('#')).toEqual({ settings: DEFAULT_SETTINGS, notices: [], named: [] });
  });

  it('reads a hand-written hash', () => {
    const { settings, notices, named } = parseHash('#lambda=0.25&beta=2&algo=grpo&group=6&lr=1e-4&backend=cpu');
    expect(notices).toEqual([]);
    // The settings the link gave, which win over any default (the recorded run's too: recorded_defaults.ts).
    expect(named).toEqual(['lambda', 'beta', 'algo', 'groupSize', 'lr', 'backend']);
    expect(settings).toEqual({
      ...DEFAULT_SETTINGS,
      lambda: 0.25,
      beta: 2,
      algo: 'grpo',
      groupSize: 6,
      lr: 1e-4,
      backend: 'cpu',
    });
  });

  it('takes the preset first, so the other keys default to that preset', () => {
    const { settings } = parseHash('#seed=3&preset=micro');
    expect(settings).toEqual({ ...defaultSettings('micro'), seed: 3 });
    expect(settings).toMatchObject({ groupSize: 4, tasksPerUpdate: 2, maxSteps: 8, history: 8 });
    expect(DEFAULT_SETTINGS).toMatchObject({
      preset: 'tiny',
      groupSize: 8,
      tasksPerUpdate: 4,
      evalEvery: 10,
      evalEpisodes: 134,
    });
    expect(DEFAULT_SETTINGS.lambda).toBeGreaterThanOrEqual(0.1);
  });

  it('keeps the first of two presets, and takes the defaults of that preset', () => {
    const { settings, notices } = parseHash('#preset=micro&preset=tiny');
    expect(settings).toEqual(defaultSettings('micro'));
    expect(notices).toEqual([
      { key: 'preset', value: 'tiny', reason: 'appears twice', message: 'appears twice; the first value is kept' },
    ]);
    // A first value that is not a preset is the one kept too: the default preset, with a notice for each.
    const bad = parseHash('#preset=huge&preset=micro');
    expect(bad.settings).toEqual(DEFAULT_SETTINGS);
    expect(bad.notices.map((n) => [n.value, n.reason])).toEqual([
      ['huge', `must be one of ${PRESET_NAMES.join(', ')}`],
      ['micro', 'appears twice'],
    ]);
    // The link names the preset (its refused value keeps the default its notice names); a second value names nothing more.
    expect(bad.named).toEqual(['preset']);
  });

  it("keeps the first value of every key, with the kept preset's defaults for the keys not given", () => {
    const hashPairs = (s: Settings, keys: readonly (keyof Settings)[]) =>
      formatHash(s)
        .slice(1)
        .split('&')
        .filter((_, i) => keys.includes(SETTING_KEYS[i]));
    fc.assert(
      fc.property(arbitrarySettings(), arbitrarySettings(), fc.subarray([...SETTING_KEYS]), (first, second, given) => {
        const keys: (keyof Settings)[] = ['preset', ...given.filter((k) => k !== 'preset')];
        // The first values are those of its world; without env the link is the household's, whose range they need.
        const world = keys.includes('env') ? first.env : 'household';
        fc.pre(numericKeys.every((k) => numberProblem(k, first[k], String(first[k]), world) === null));
        const parsed = parseHash(`#${[...hashPairs(first, keys), ...hashPairs(second, keys)].join('&')}`);
        const kept = Object.fromEntries(keys.map((k) => [k, first[k]]));
        expect(parsed.settings).toEqual({
          ...defaultSettings(first.preset, world),
          ...kept,
        });
        expect(parsed.notices.map((n) => n.reason)).toEqual(keys.map(() => 'appears twice'));
      }),
      { numRuns: 300 },
    );
  });

  it('falls back per key with a notice for malformed and out-of-range values', () => {
    const { settings, notices } = parseHash(
      '#lambda=abc&beta=-1&group=2.5&algo=ppo&temp=Infinity&seed=0x10&kl=&lr=0.002',
    );
    expect(settings).toEqual({ ...DEFAULT_SETTINGS, lr: 0.002 });
    expect(notices.map((n) => [n.key, n.value])).toEqual([
      ['lambda', 'abc'],
      ['beta', '-1'],
      ['group', '2.5'],
      ['algo', 'ppo'],
      ['temp', 'Infinity'],
      ['seed', '0x10'],
      ['kl', ''],
    ]);
    expect(notices[0].message).toBe(`is not a number; keeping the default ${DEFAULT_SETTINGS.lambda}`);
    expect(notices[1].message).toBe('is outside [0, 100]; keeping the default 5');
    expect(notices[2].message).toBe('is not a whole number; keeping the default 8');
    expect(notices[3].message).toBe(`must be one of ${ALGORITHMS.join(', ')}; keeping the default seed`);
  });

  it('plays the household unless the link names the shop, and keeps the household with a notice for any other world', () => {
    expect(DEFAULT_SETTINGS.env).toBe('household');
    // A link written before the world choice existed has no env key: it plays the household, as it did.
    expect(parseHash('#preset=micro&lr=0.002').settings).toEqual({ ...defaultSettings('micro'), lr: 0.002 });
    const shop = parseHash('#env=shop&preset=micro');
    expect(shop).toEqual({ settings: defaultSettings('micro', 'shop'), notices: [], named: ['env', 'preset'] });
    expect(formatHash(shop.settings)).toMatch(/^#env=shop&preset=micro&/);
    const bad = parseHash('#env=webshop&preset=micro&lr=0.002');
    expect(bad.settings).toEqual({ ...defaultSettings('micro'), lr: 0.002 });
    expect(bad.notices.map((n) => `${n.key}=${n.value} ${n.message}`)).toEqual([
      `env=webshop must be one of ${ENVIRONMENT_NAMES.join(', ')}; keeping the default household`,
    ]);
    expect(parseHash('#env=shop&env=household').notices.map((n) => [n.value, n.reason])).toEqual([
      ['household', 'appears twice'],
    ]);
    expect(parseHash('#env=').notices.map((n) => n.message)).toEqual([
      `must be one of ${ENVIRONMENT_NAMES.join(', ')}; keeping the default household`,
    ]);
    expect(settingsFrom({ ...DEFAULT_SETTINGS, env: 7 }).notices.map((n) => n.message)).toEqual([
      'is not a string; keeping the default household',
    ]);
  });

  it("keeps the world, algorithm, seed and backend when the preset's defaults are taken", () => {
    const s: Settings = { ...defaultSettings('micro', 'shop'), algo: 'grpo', seed: 7, backend: 'cpu', lr: 0.002 };
    expect(presetDefaultsKeeping(s, 'tiny')).toEqual({
      ...defaultSettings('tiny', 'shop'),
      algo: 'grpo',
      seed: 7,
      backend: 'cpu',
    });
    expect(presetDefaultsKeeping(s).lr).toBe(defaultSettings('micro').lr);
    expect(presetDefaultsKeeping(s, 'micro', 'household')).toEqual({
      ...defaultSettings('micro'),
      algo: 'grpo',
      seed: 7,
      backend: 'cpu',
    });
  });

  it("takes a world's own training defaults, as the command line does, the page's micro cut aside", () => {
    const world = rlWorldOf(environmentOf('shop')).trainDefaults;
    expect(Object.keys(world).length).toBeGreaterThan(0);
    for (const preset of PRESET_NAMES) {
      const shop = defaultSettings(preset, 'shop');
      // The world's values win over the page's cut of the micro preset (a shop episode is played in windows).
      for (const key of PAGE_TRAIN_KEYS) if (world[key] !== undefined) expect(shop[key]).toBe(world[key]);
      const config = trainConfigOf(shop);
      for (const [key, value] of Object.entries(world)) expect(config[key as keyof typeof config]).toBe(value);
      // The household keeps the preset's values: links written before the world choice mean what they meant.
      expect(trainConfigOf(defaultSettings(preset))).toMatchObject({
        maxCommandTokens: defaultConfig(preset).maxCommandTokens,
        maxSkillTokens: defaultConfig(preset).maxSkillTokens,
      });
    }
    // The world read first: a hash's other keys default to the shop's values whatever their order.
    expect(parseHash('#preset=micro&lr=0.002&env=shop').settings).toEqual({
      ...defaultSettings('micro', 'shop'),
      lr: 0.002,
    });
  });

  it('runs every part control a link names: seed-shuffled is the shuffled-words control, no former name', () => {
    for (const algo of ['seed-shuffled', 'seed-procedure', 'seed-exact-facts', 'seed-exact-empty'] as const) {
      const { settings, notices } = parseHash(`#algo=${algo}&lr=0.002`);
      expect(settings).toEqual({ ...DEFAULT_SETTINGS, algo, lr: 0.002 });
      expect(notices).toEqual([]);
    }
  });

  it('survives garbage: unknown keys, bad escapes, repeated keys', () => {
    const { settings, notices } = parseHash('#%E0%A4%A&&&=&zzz=1&beta=3&beta=4&<script>');
    expect(settings).toEqual({ ...DEFAULT_SETTINGS, beta: 3 });
    expect(notices.map((n) => n.message)).toEqual([
      'is not valid URL encoding; ignored',
      'is not a setting; ignored',
      'is not a setting; ignored',
      'appears twice; the first value is kept',
      'is not a setting; ignored',
    ]);
  });

  it('keeps the default, with a notice, for a value out of range or one that rounds to 0: one rule for every setting, the rule of --set', () => {
    const { settings, notices } = parseHash('#evaleps=1e308&group=1e308&lr=1e-320&lambda=1e-400&speed=1e-46&kl=0');
    expect(settings).toEqual({ ...DEFAULT_SETTINGS, klCoef: 0 });
    expect(notices.map((n) => `${n.key}=${n.value} ${n.message}`)).toEqual([
      `evaleps=1e308 is outside [1, 134]; keeping the default ${DEFAULT_SETTINGS.evalEpisodes}`,
      `group=1e308 is outside [1, 64]; keeping the default ${DEFAULT_SETTINGS.groupSize}`,
      `lr=1e-320 is too small: it rounds to 0 in float32; keeping the default ${DEFAULT_SETTINGS.lr}`,
      `lambda=1e-400 is too small: it rounds to 0 in float32; keeping the default ${DEFAULT_SETTINGS.lambda}`,
      `speed=1e-46 is too small: it rounds to 0 in float32; keeping the default ${DEFAULT_SETTINGS.speed}`,
    ]);
    expect(numberProblem('lr', 0, '1e-400', 'household')).toBe('too small: it rounds to 0 in float32');
  });

  it("takes as many eval games per split as the run's world has: every game of its smaller eval set", () => {
    for (const env of ENVIRONMENT_NAMES) {
      const { seen, unseen } = environmentOf(env).evalCounts;
      const most = Math.min(seen, unseen);
      expect(numberSpecOf('evalEpisodes', env).max).toBe(most);
      const taken = parseHash(`#env=${env}&evaleps=${most}`);
      expect([taken.settings.evalEpisodes, taken.notices]).toEqual([most, []]);
      const { notices } = parseHash(`#env=${env}&evaleps=${most + 1}`);
      expect(notices.map((n) => `${n.key}=${n.value} ${n.reason}`)).toEqual([
        `evaleps=${most + 1} is outside [1, ${most}]`,
      ]);
      expect(numberProblem('evalEpisodes', most + 1, String(most + 1), env)).toBe(`outside [1, ${most}]`);
    }
    expect(numberSpecOf('evalEpisodes', 'shop').max).toBe(200);
    expect(parseHash('#evaleps=200&env=shop').settings.evalEpisodes).toBe(200);
  });

  it(`names at most ${MAX_UNKNOWN_KEY_NOTICES} keys that are not settings, and counts the rest in one notice`, () => {
    const { settings, notices } = parseHash(`#${Array.from({ length: 25_000 }, (_, i) => `k${i}=1`).join('&')}&beta=3`);
    expect(settings).toEqual({ ...DEFAULT_SETTINGS, beta: 3 });
    expect(notices.map((n) => n.key)).toEqual(['k0', 'k1', 'k2', 'k3', 'k4', '']);
    expect(notices[MAX_UNKNOWN_KEY_NOTICES]).toEqual({
      key: '',
      value: '',
      reason: 'and 24995 more keys that are not a setting',
      message: 'and 24995 more keys that are not a setting; ignored',
      more: 24995,
    });
    expect(parseHash('#a=1&b=2&c=3&d=4&e=5&f=6').notices[5].message).toBe(
      'and 1 more key that is not a setting; ignored',
    );
  });

  it('never throws and always yields valid settings on arbitrary text', () => {
    const hashLike = fc
      .array(
        fc.tuple(
          fc.oneof(
            fc.constantFrom(
              ...SETTING_KEYS.map(
                (k) => formatHash(DEFAULT_SETTINGS).slice(1).split('&')[SETTING_KEYS.indexOf(k)].split('=')[0],
              ),
            ),
            fc.string(),
          ),
          fc.string({ unit: 'binary' }),
        ),
        { maxLength: 30 },
      )
      .map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join('&'));
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary', maxLength: 200 }), hashLike), (text) => {
        const { settings, notices } = parseHash(text);
        for (const n of notices)
          expect([typeof n.key, typeof n.value, typeof n.message, typeof n.reason]).toEqual([
            'string',
            'string',
            'string',
            'string',
          ]);
        for (const k of numericKeys) {
          const spec = numberSpecOf(k, settings.env);
          expect(settings[k]).toBeGreaterThanOrEqual(spec.min);
          expect(settings[k]).toBeLessThanOrEqual(spec.max);
          if (spec.belowMax) expect(settings[k]).toBeLessThan(spec.max);
        }
        expect(ALGORITHMS).toContain(settings.algo);
      }),
      { numRuns: 500 },
    );
  });
});

describe('defaults', () => {
  it('paper values are the ones docs/seed-loss.md gives', () => {
    const p = withPaperValues(DEFAULT_SETTINGS);
    expect([
      p.lambda,
      p.beta,
      p.groupSize,
      p.tasksPerUpdate,
      p.clip,
      p.klCoef,
      p.history,
      p.maxSteps,
      p.evalTemperature,
    ]).toEqual([0.01, 5, 8, 16, 0.2, 0.01, 5, 30, 0.4]);
    expect(p.lr).toBe(1e-6);
    expect(p.decoding).toBe('free');
    expect(p.seed).toBe(DEFAULT_SETTINGS.seed);
    expect(p.preset).toBe(DEFAULT_SETTINGS.preset);
  });

  it('lambda and beta apply without a reset; the model shape and seed do not', () => {
    const s = DEFAULT_SETTINGS;
    expect(needsReset(s, { ...s, lambda: 0.1, beta: 1, lr: 0.01 })).toBe(false);
    expect(needsReset(s, { ...s, preset: 'micro' })).toBe(true);
    expect(needsReset(s, { ...s, seed: 9 })).toBe(true);
    expect(needsReset(s, { ...s, env: 'shop' })).toBe(true);
  });
});

describe('stored settings', () => {
  it('refuses a value of the wrong type rather than converting it', () => {
    const { settings, notices } = settingsFrom({
      ...DEFAULT_SETTINGS,
      lambda: '0.5',
      preset: 3,
      algo: { toString: 1 },
      beta: null,
    });
    expect(settings).toEqual(DEFAULT_SETTINGS);
    expect(notices.map((n) => [n.key, n.value, n.message])).toEqual([
      ['preset', 'number 3', 'is not a string; keeping the default tiny'],
      ['algo', 'an object', 'is not a string; keeping the default seed'],
      ['lambda', 'string 0.5', `is not a number; keeping the default ${DEFAULT_SETTINGS.lambda}`],
      ['beta', 'null', 'is not a number; keeping the default 5'],
    ]);
    // A lone surrogate, which URL encoding refuses, is a value like any other that is not an option.
    expect(settingsFrom({ decoding: '\uD800' }).notices.map((n) => n.key)).toEqual(['decoding']);
  });

  it('reads any stored value without throwing', () => {
    fc.assert(
      fc.property(
        fc.anything({ withNullPrototype: true, withBoxedValues: true }),
        fc.dictionary(fc.constantFrom(...SETTING_KEYS), fc.anything({ withNullPrototype: true })),
        (value, record) => {
          settingsFrom(value);
          settingsFrom(record);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps valid stored settings and repairs damaged ones', () => {
    expect(settingsFrom({ ...DEFAULT_SETTINGS, lambda: 0.2 })).toEqual({
      settings: { ...DEFAULT_SETTINGS, lambda: 0.2 },
      notices: [],
      named: SETTING_KEYS,
    });
    const repaired = settingsFrom({ lambda: 'x', beta: 3, unknown: 1 });
    expect(repaired.settings).toEqual({ ...DEFAULT_SETTINGS, beta: 3 });
    expect(repaired.named).toEqual(['beta', 'lambda']);
    expect(repaired.notices.map((n) => n.key)).toEqual(['lambda']);
    expect(settingsFrom(null).settings).toEqual(DEFAULT_SETTINGS);
  });
});
