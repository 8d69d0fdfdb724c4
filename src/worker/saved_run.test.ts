// The check of a stored saved-run record: a record written by the engine passes as it is; a damaged one, one
// from an older page, or one whose settings the trainer refuses is refused with a one-line reason naming what
// is wrong; and no input at all makes the check throw or take long.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { writeCheckpoint } from '../model/checkpoint.ts';
import { presetConfig } from '../model/config.ts';
import { initParameters } from '../model/init.ts';
import type { RunMetadata } from '../rl/run_metadata.ts';
import { environmentOf } from '../worlds/environments.ts';
import { tokenizerOf } from '../text/tokenizer.ts';
import type { UpdateMetrics } from './protocol.ts';
import { MAX_SAVED_RUNS, runsToDrop, savedRunFrom, type SavedRun, type SavedRunCheck } from './saved_run.ts';
import { ALGORITHMS, defaultSettings, runIdsOf, trainConfigOf, type Settings } from '../rl/page_settings.ts';
import { warmStartPoint } from './views.ts';

const MICRO_SETTINGS = defaultSettings('micro');

const vocab = (env: Settings['env']) => tokenizerOf(environmentOf(env));

/** The run files the engine saves for these settings; `played` is the world the checkpoints say they played. */
function runFiles(settings: Settings, updates: number, played: Settings['env'] = settings.env): SavedRun['runs'] {
  const tok = vocab(settings.env);
  const config = presetConfig('micro', tok.vocabSize);
  const params = initParameters(config, 1);
  return runIdsOf(settings.algo).map((id) => {
    const n = params.length;
    const metadata: RunMetadata = {
      stage: 'rl',
      algo: id,
      seed: settings.seed,
      preset: settings.preset,
      ...(played === 'household' ? {} : { env: played }),
      scale: 'tiny',
      updates,
      episodes: 4 * updates,
      config: trainConfigOf(settings),
      staticLibrary: null,
    };
    return {
      id,
      current: writeCheckpoint({
        config,
        vocabHash: tok.hash,
        params,
        optimizer: { m: new Float32Array(n), v: new Float32Array(n), step: updates },
        metadata: { ...metadata },
      }),
      reference: writeCheckpoint({
        config,
        vocabHash: tok.hash,
        params,
        optimizer: null,
        metadata: { stage: 'reference', algo: id, seed: settings.seed },
      }),
    };
  });
}

function point(run: UpdateMetrics['run'], update: number): UpdateMetrics {
  return {
    run,
    update,
    episodes: 4 * update,
    successTrain: 0.25,
    evalSeen: update === 1 ? 0.5 : null,
    evalUnseen: update === 1 ? 0 : null,
    meanReward: -0.1,
    L_GRPO: 0.01,
    L_OPD: 0,
    KL: 0.002,
    total: Number.NaN,
    lambda: 0.1,
    beta: 5,
    meanDelta: 0,
    meanGate: 0.5,
    validSkillRate: null,
    skillFidelity: null,
    skillPlaceTrue: null,
    skillPlaceFalse: null,
    corrDeltaAdvantage: null,
    gradNorm: 0.3,
    gradNormGrpo: null,
    gradNormOpd: null,
    gradNormRatio: null,
    opdShare: null,
    opdDeltaShare: null,
    meanDivergence: null,
    tokens: 120,
    tokensPerSecond: 900,
    wallMs: 130,
    rolloutMs: 80,
    rewardsMs: 0.1,
    skillsMs: 10,
    rescoreMs: 12,
    lossMs: 20,
    optimizerMs: 7,
    currentPassMs: 6,
    referencePassMs: 5.5,
    evalMs: update === 1 ? 250 : null,
    updateMs: update === 1 ? 390 : 135,
    skipped: null,
    meanAbsDelta: null,
    forcedShare: null,
    corrDeltaAdvantageWon: null,
    corrDeltaAdvantageLost: null,
    corrDeltaExpert: null,
    zeroVarianceGroups: 0.5,
    teacherNoSkill: null,
    teacherOwnSkill: null,
    teacherOtherSkill: null,
    teacherBlankSkill: null,
    validationKl: null,
    degenerateSkillRate: null,
  };
}

function record(settings: Settings = MICRO_SETTINGS, updates = 2): SavedRun {
  const ids = runIdsOf(settings.algo);
  const curves = ids.flatMap((id) => Array.from({ length: updates }, (_, u) => point(id, u + 1)));
  return { id: 'run-1', settings, updates, savedAt: 1_700_000_000_000, curves, runs: runFiles(settings, updates) };
}

const VALID = record();
const BOTH = record({ ...MICRO_SETTINGS, algo: 'both' }, 1);

/** The record accepted, with the very bytes it holds (a deep comparison of typed arrays is slow). */
function expectAccepted(value: unknown, key: string, want: SavedRun): void {
  const check = savedRunFrom(value, key, vocab);
  if (!check.ok) throw new Error(check.problem);
  const { runs, ...rest } = check.run;
  const { runs: wantRuns, ...wantRest } = want;
  expect(rest).toEqual(wantRest);
  expect(runs.map((r) => r.id)).toEqual(wantRuns.map((r) => r.id));
  runs.forEach((r, i) => {
    expect(Buffer.from(r.current).equals(Buffer.from(wantRuns[i].current))).toBe(true);
    expect(Buffer.from(r.reference).equals(Buffer.from(wantRuns[i].reference))).toBe(true);
  });
}

function problemOf(value: unknown, key = 'run-1'): string {
  const check = savedRunFrom(value, key, vocab);
  if (check.ok) throw new Error('the record was accepted');
  return check.problem;
}

/** The value with the field at path set to v (or removed, when v is undefined). */
function withField(value: SavedRun, path: readonly (string | number)[], v: unknown): unknown {
  const copy = structuredClone(value) as unknown as Record<string | number, unknown>;
  let at = copy;
  for (const step of path.slice(0, -1)) at = at[step] as Record<string | number, unknown>;
  const last = path[path.length - 1];
  if (v !== undefined) at[last] = v;
  else if (Array.isArray(at)) at.splice(Number(last), 1);
  else delete at[last];
  return copy;
}

/** A check's answer is a value or a one-line reason. */
function expectValueOrOneLine(run: () => SavedRunCheck): void {
  const check = run();
  if (!check.ok) {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: it looks for a line break or a terminal escape
    expect(check.problem).not.toMatch(/[\n\r\u001b]/);
    expect(check.problem.length).toBeGreaterThan(0);
  }
}

describe('a saved-run record', () => {
  it('passes as the engine wrote it, with SEED and GRPO side by side too', () => {
    expectAccepted(VALID, 'run-1', VALID);
    expectAccepted(BOTH, 'run-1', BOTH);
    // With the warm start's evaluation first (update 0, no training figures), one per run.
    const withWarmStart = {
      ...BOTH,
      curves: [warmStartPoint('seed', 0.3, 0.25), warmStartPoint('grpo', 0.3, 0.25), ...BOTH.curves],
    };
    expectAccepted(withWarmStart, 'run-1', withWarmStart);
    expect(problemOf({ ...withWarmStart, curves: [warmStartPoint('seed', 0.3, 0.25), ...withWarmStart.curves] })).toBe(
      'curves holds 5 points, more than 1 updates and the warm start of 2 run(s) give',
    );
    // The single record of earlier pages has no id of its own: its key is its id.
    expectAccepted(withField(VALID, ['id'], undefined), 'latest', { ...VALID, id: 'latest' });
    // Fields the check does not know are left out.
    expectAccepted(withField(VALID, ['curves', 0, 'extra'], 1), 'run-1', VALID);
    // A curve point saved before corrDeltaAdvantage or the other diagnostics existed reads them as null.
    expectAccepted(withField(VALID, ['curves', 0, 'corrDeltaAdvantage'], undefined), 'run-1', VALID);
    expectAccepted(
      withField(VALID, ['curves', 0, 'zeroVarianceGroups'], undefined),
      'run-1',
      withField(VALID, ['curves', 0, 'zeroVarianceGroups'], null) as SavedRun,
    );
    // One saved before the loss's lambda and beta were kept reads them as null.
    const lossWeights = (v: null | undefined) =>
      withField(withField(VALID, ['curves', 0, 'lambda'], v) as SavedRun, ['curves', 0, 'beta'], v);
    expectAccepted(lossWeights(undefined), 'run-1', lossWeights(null) as SavedRun);
    expect(problemOf(withField(VALID, ['curves', 0, 'beta'], '5'))).toBe('curves[0].beta is "5", not a number or null');
    expectAccepted(
      withField(VALID, ['curves', 0, 'skillPlaceTrue'], undefined),
      'run-1',
      withField(VALID, ['curves', 0, 'skillPlaceTrue'], null) as SavedRun,
    );
    // One saved before the engine timed its updates reads the timings as null.
    expectAccepted(
      withField(VALID, ['curves', 0, 'updateMs'], undefined),
      'run-1',
      withField(VALID, ['curves', 0, 'updateMs'], null) as SavedRun,
    );
    expect(problemOf(withField(VALID, ['curves', 0, 'rolloutMs'], 'slow'))).toBe(
      'curves[0].rolloutMs is "slow", not a number or null',
    );
    expect(problemOf(withField(VALID, ['curves', 0, 'skillFidelity'], undefined))).toBe(
      'curves[0].skillFidelity is undefined, not a number or null',
    );
    expect(problemOf(withField(VALID, ['curves', 0, 'corrDeltaAdvantage'], 'high'))).toBe(
      'curves[0].corrDeltaAdvantage is "high", not a number or null',
    );
  });

  it('reads a run saved before the world choice as a household run, resumes a shop run, and refuses checkpoints of another world', () => {
    expectAccepted(withField(VALID, ['settings', 'env'], undefined), 'run-1', VALID);
    const shop = record({ ...MICRO_SETTINGS, env: 'shop' }, 1);
    expectAccepted(shop, 'run-1', shop);
    // The shop's checkpoints are of its own vocabulary: under household settings they are refused by it.
    expect(problemOf(withField(shop, ['settings', 'env'], 'household'))).toMatch(/^the seed checkpoint: .*vocabulary/);
    const mislabelled = { ...shop, runs: runFiles(shop.settings, 1, 'household') };
    expect(problemOf(mislabelled)).toBe('the seed checkpoint played the household, the settings say the shop');
    expect(problemOf(withField(VALID, ['settings', 'env'], 'garden'))).toBe(
      'settings: env=garden must be one of household, shop, searchqa',
    );
  });

  it('refuses a null curve point, an absurd update count, missing fields and wrong types, naming them', () => {
    expect(problemOf(withField(VALID, ['curves', 1], null))).toBe("curves[1] is null, not an update's metrics");
    expect(problemOf(withField(VALID, ['updates'], 1e308))).toBe(
      'updates is 1e+308, not a whole number in [1, 1000000000]',
    );
    expect(problemOf(withField(VALID, ['updates'], '2'))).toBe('updates is "2", not a whole number in [1, 1000000000]');
    expect(problemOf(withField(VALID, ['savedAt'], undefined))).toBe('savedAt is undefined, not a time');
    expect(problemOf(withField(VALID, ['runs'], undefined))).toBe('runs is undefined, not a list');
    expect(problemOf(withField(VALID, ['curves', 0, 'KL'], '0.1'))).toBe('curves[0].KL is "0.1", not a number or null');
    expect(problemOf(withField(VALID, ['curves', 0, 'update'], 3))).toBe(
      'curves[0].update is 3, not a whole number in [0, 2]',
    );
    expect(problemOf(withField(VALID, ['curves', 0, 'run'], 'grpo'))).toBe(
      'curves[0].run is "grpo", not one of this run\'s algorithms (seed)',
    );
    expect(problemOf(withField(VALID, ['settings', 'decoding'], undefined))).toBe('settings.decoding is missing');
    expect(problemOf(withField(VALID, ['settings', 'lambda'], '0.5'))).toBe(
      'settings: lambda=string 0.5 is not a number',
    );
    expect(problemOf(withField(VALID, ['settings'], null))).toBe('settings is null, not an object');
    expect(problemOf(null)).toBe('the record is null, not an object');
    expect(problemOf(VALID, 'run-2')).toBe('it is stored under "run-2" but names the run "run-1"');
  });

  it('goes on with a saved run of a part control under its own name', () => {
    const saved = record({ ...MICRO_SETTINGS, algo: 'seed-shuffled' }, 1);
    const check = savedRunFrom(saved, 'run-1', vocab);
    if (!check.ok) throw new Error(check.problem);
    expect([check.run.settings.algo, check.run.curves[0].run, check.run.runs[0].id]).toEqual([
      'seed-shuffled',
      'seed-shuffled',
      'seed-shuffled',
    ]);
  });

  it('refuses settings the trainer refuses, such as a clip of 2 saved by an older page, naming the setting', () => {
    expect(problemOf(withField(VALID, ['settings', 'clip'], 2))).toBe('settings: clip=2 is outside [0, 1)');
    expect(problemOf(withField(VALID, ['settings', 'groupSize'], undefined))).toBe('settings.groupSize is missing');
    // A setting added after the run was saved reads as the value runs had before it.
    expect(savedRunFrom(withField(VALID, ['settings', 'rewardDirected'], undefined), 'run-1', vocab).ok).toBe(true);
    expect(problemOf(withField(VALID, ['settings', 'groupSize'], 1000))).toBe(
      'settings: group=1000 is outside [1, 64]',
    );
  });

  it('reads the checkpoints in full and holds them to the settings and the update count', () => {
    const bytes = VALID.runs[0].current.slice();
    bytes[bytes.length >> 1] ^= 0xff;
    expect(problemOf(withField(VALID, ['runs', 0, 'current'], bytes))).toMatch(
      /^the seed checkpoint: corrupted checkpoint: checksum mismatch/,
    );
    expect(problemOf(withField(VALID, ['runs', 0, 'reference'], new Uint8Array(3)))).toMatch(
      /^the seed reference checkpoint: not a SEED checkpoint/,
    );
    expect(problemOf(withField(VALID, ['updates'], 5))).toBe('the seed checkpoint is at update 2, the record says 5');
    expect(problemOf(withField(VALID, ['settings', 'seed'], 7))).toBe(
      'the seed checkpoint is of seed seed 1, the settings say seed seed 7',
    );
    expect(problemOf(withField(VALID, ['settings', 'preset'], 'tiny'))).toBe(
      "the seed checkpoint is not of the tiny preset's model: dModel 16 (expected 48), nHead 2 (expected 4), dMlp 64 (expected 192)",
    );
    expect(problemOf(withField(BOTH, ['runs', 1], undefined))).toBe('runs holds 1 runs; the both algorithm has 2');
  });

  it('keeps a refusal on one line whatever the record holds', () => {
    expect(problemOf(VALID, 'a\nb\u001b[31m')).toBe('it is stored under "a\\nb\\u001b[31m", not a run id');
    expect(problemOf(withField(VALID, ['settings', 'algo'], 'x\ny'))).toBe(
      `settings: algo=x\\u000ay must be one of ${ALGORITHMS.join(', ')}`,
    );
  });

  it('gives a value or a one-line reason for any input, never a throw', () => {
    fc.assert(
      fc.property(
        fc.anything({
          withNullPrototype: true,
          withTypedArray: true,
          withSparseArray: true,
          withBoxedValues: true,
          withMap: true,
          withSet: true,
          withDate: true,
        }),
        fc.string(),
        (value, key) => {
          expectValueOrOneLine(() => savedRunFrom(value, key, vocab));
          expectValueOrOneLine(() => savedRunFrom(value, 'run-1', vocab));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('gives a value or a one-line reason for a valid record with any one field damaged', () => {
    const paths: (string | number)[][] = [
      ['id'],
      ['settings'],
      ['updates'],
      ['savedAt'],
      ['curves'],
      ['runs'],
      ...Object.keys(MICRO_SETTINGS).map((k) => ['settings', k]),
      ['curves', 0],
      ['curves', 1, 'update'],
      ['curves', 0, 'evalSeen'],
      ['curves', 0, 'skipped'],
      ['curves', 0, 'run'],
      ['runs', 0],
      ['runs', 0, 'id'],
      ['runs', 0, 'current'],
      ['runs', 0, 'reference'],
    ];
    const odd = fc.oneof(
      fc.anything({ withNullPrototype: true, withTypedArray: true, withBoxedValues: true }),
      fc.constantFrom(
        null,
        undefined,
        1e308,
        -1,
        0,
        Number.NaN,
        Infinity,
        '',
        '1',
        [],
        {},
        new Uint8Array(0),
        'both',
        'tiny',
        { toString: 1 },
      ),
    );
    fc.assert(
      fc.property(fc.constantFrom(...paths), odd, fc.boolean(), (path, v, both) => {
        expectValueOrOneLine(() =>
          savedRunFrom(withField(both && path[0] !== 'curves' ? BOTH : VALID, path, v), 'run-1', vocab),
        );
      }),
      { numRuns: 300 },
    );
  });
});

describe('the records a store keeps', () => {
  it('drops the oldest past the limit, records with no usable time first', () => {
    const entries = Array.from({ length: 7 }, (_, i) => ({ key: `r${i}`, savedAt: 1000 + i }));
    expect(runsToDrop(entries)).toEqual(['r1', 'r0']);
    expect(runsToDrop([...entries, { key: 'bad', savedAt: 'yesterday' }, { key: 'nan', savedAt: Number.NaN }])).toEqual(
      ['r1', 'r0', 'bad', 'nan'],
    );
    expect(runsToDrop(entries.slice(0, MAX_SAVED_RUNS))).toEqual([]);
  });
});
