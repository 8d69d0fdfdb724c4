// The settings a live run takes from the recorded run of its world and model (a link's own win:
// rl/recorded_defaults.ts), and the one line that says how the live run's settings differ from the recorded run's:
// from a record made here and from the records the page ships.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defaultSettings, parseHash } from '../rl/page_settings.ts';
import type { RecordedRun } from '../rl/recorded_run.ts';
import { checkRecordIndex, newestRecord, parseRecordedRun } from '../rl/recorded_run_check.ts';
import { ENVIRONMENT_NAMES, type EnvironmentName } from '../worlds/names.ts';
import { record } from './curves_testing.ts';
import { recordedSettings, withRecordedDefaults } from '../rl/recorded_defaults.ts';
import { differenceLine, settingsDifferences } from './recorded_settings.ts';
import { ofAlgo } from '../rl/arms.ts';

/** A household record at tiny: GRPO at lr 1e-3, SEED at lr 1e-3 and lambda 0.01, the benchmark's base configuration. */
function householdRecord(): RecordedRun {
  const base = record();
  const [grpo, seed] = base.arms;
  return {
    ...base,
    evalGames: { seen: 140, unseen: 134 },
    config: { ...defaultSettingsConfig(), lr: 5e-4, lambda: 0.1, rewardDirected: 1, constrained: 1 },
    headline: 'seed',
    arms: [
      { ...grpo, lr: 1e-3, lambda: 0.1 },
      { ...seed, lr: 1e-3, lambda: 0.01 },
    ],
  };
}

/** The page's tiny household training settings, as a base configuration keeps them. */
function defaultSettingsConfig() {
  const { lambda, beta, groupSize, tasksPerUpdate, lr, clip, klCoef, temperature, evalTemperature, history, maxSteps } =
    defaultSettings('tiny');
  return { lambda, beta, groupSize, tasksPerUpdate, lr, clip, klCoef, temperature, evalTemperature, history, maxSteps };
}

function shipped(world: EnvironmentName): RecordedRun {
  const index = checkRecordIndex(JSON.parse(readFileSync('public/runs/index.json', 'utf8')));
  return parseRecordedRun(readFileSync(`public/runs/${newestRecord(index, world)!.file}`, 'utf8'));
}

describe('the recorded run settings', () => {
  it("are the arm's lr and lambda, the base configuration's settings and the eval games the page can play", () => {
    const run = householdRecord();
    expect(recordedSettings(run, 'seed')).toMatchObject({
      lr: 1e-3,
      lambda: 0.01,
      rewardDirected: 1,
      decoding: 'constrained',
      groupSize: 8,
      // 140 seen and 134 unseen games: the page plays as many a split as both have.
      evalEpisodes: 134,
    });
    expect(recordedSettings(run, 'grpo')).toMatchObject({ lr: 1e-3, lambda: 0.1 });
    // An algorithm the record did not run takes its headline arm's settings.
    expect(recordedSettings(run, 'seed-exact')).toMatchObject({ lr: 1e-3, lambda: 0.01 });
    // A record older than the settings it keeps gives its arm's lr and the eval games alone.
    const older = { ...run, config: undefined, arms: run.arms.map(({ lambda: _, ...a }) => a) };
    expect(recordedSettings(older, 'seed')).toEqual({ lr: 1e-3, evalEpisodes: 134 });
  });

  it("are the live run's defaults in the record's world and model; a link's own settings win", () => {
    const run = householdRecord();
    const tiny = defaultSettings('tiny');
    expect(withRecordedDefaults(tiny, run)).toMatchObject({ lr: 1e-3, lambda: 0.01, rewardDirected: 1 });
    const { settings, named } = parseHash('#lr=0.002&evaleps=20');
    expect(withRecordedDefaults(settings, run, named)).toMatchObject({ lr: 0.002, evalEpisodes: 20, lambda: 0.01 });
    // Another model or another world keeps its own defaults.
    expect(withRecordedDefaults(defaultSettings('micro'), run)).toEqual(defaultSettings('micro'));
    expect(withRecordedDefaults(defaultSettings('tiny', 'shop'), run)).toEqual(defaultSettings('tiny', 'shop'));
    expect(withRecordedDefaults(tiny, null)).toEqual(tiny);
  });

  it("are those of each shipped record's headline arm, from the same warm start and as many eval games", () => {
    for (const world of ENVIRONMENT_NAMES) {
      const run = shipped(world);
      const live = withRecordedDefaults(defaultSettings('tiny', world), run);
      const headline = run.arms.find(ofAlgo(run.headline ?? 'seed'))!;
      expect([live.lr, live.lambda], world).toEqual([headline.lr, headline.lambda]);
      expect(live.evalEpisodes, world).toBe(Math.min(run.evalGames.seen, run.evalGames.unseen));
      // Only the seen split's extra games of the household are out of the page's reach, and the line says so.
      const differences = settingsDifferences(live, run);
      expect(
        differences.map((d) => d.key),
        world,
      ).toEqual(run.evalGames.seen === run.evalGames.unseen ? [] : ['evalEpisodes']);
    }
  });
});

describe('the line on the settings', () => {
  it('names each setting that differs, with the live value and the recorded one; none when they agree', () => {
    const run = householdRecord();
    const same = withRecordedDefaults(defaultSettings('tiny'), run);
    expect(
      settingsDifferences({ ...same, evalEpisodes: 134 }, { ...run, evalGames: { seen: 134, unseen: 134 } }),
    ).toEqual([]);
    expect(differenceLine([])).toBeNull();
    // The page's former household defaults: lr 5e-4, lambda 0.1, reward-directed off, 134 games a split.
    const differences = settingsDifferences(defaultSettings('tiny'), run);
    expect(differences.map((d) => [d.key, d.live, d.recorded])).toEqual([
      ['evalEpisodes', '134', '140 seen, 134 unseen'],
      ['lr', '0.0005', '0.001'],
      ['lambda', '0.1', '0.01'],
      ['rewardDirected', '0', '1'],
    ]);
    expect(differenceLine(differences)).toBe(
      'This run’s settings differ from the recorded run’s: Eval games per split 134 (recorded: 140 seen, 134 unseen), ' +
        'Learning rate 0.0005 (recorded: 0.001), λ (OPD weight) 0.1 (recorded: 0.01), ' +
        'Reward-directed (seed-exact: 1 = on) 0 (recorded: 1).',
    );
  });

  it('names the first four differences and counts the rest, every one when asked for the full line', () => {
    const run = householdRecord();
    const differences = settingsDifferences({ ...defaultSettings('tiny'), groupSize: 4, maxSteps: 8 }, run);
    expect(differences).toHaveLength(6);
    expect(differenceLine(differences)).toMatch(/, Group size G 4 \(recorded: 8\) and 2 more settings\.$/);
    expect(differenceLine(differences, true)).toMatch(
      /, Max steps 8 \(recorded: 10\), Reward-directed \(seed-exact: 1 = on\) 0 \(recorded: 1\)\.$/,
    );
    expect(differenceLine(differences.slice(0, 5))).toMatch(/ and 1 more setting\.$/);
  });

  it("compares a GRPO run with the recorded GRPO arm (no lambda), and both runs' arms side by side", () => {
    const run = householdRecord();
    const live = { ...withRecordedDefaults(defaultSettings('tiny'), run), evalEpisodes: 134 };
    const games = { ...run, evalGames: { seen: 134, unseen: 134 } };
    expect(settingsDifferences({ ...live, algo: 'grpo', lambda: 0.5 }, games)).toEqual([]);
    expect(settingsDifferences({ ...live, algo: 'grpo', lr: 2e-3 }, games).map((d) => d.key)).toEqual(['lr']);
    const both = settingsDifferences({ ...live, algo: 'both', lambda: 0.1 }, games);
    expect(both.map((d) => [d.key, d.live, d.recorded])).toEqual([['lambda', '0.1', '0.01']]);
    // Another model preset is the first thing said.
    expect(settingsDifferences({ ...live, preset: 'micro' }, games)[0]).toMatchObject({
      key: 'preset',
      live: 'micro',
      recorded: 'tiny',
    });
  });
});
