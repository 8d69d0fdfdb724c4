// The curves' data: the smoothing, the recorded run's mean and band over seeds, the series each chart draws
// (recorded and live on one x axis, eval lines after the training line), the CSV with its `source` column,
// and the loading of the recorded run, which ends in a one-line message whenever it cannot be shown.
import { describe, expect, it } from 'vitest';
import type { RecordedArm, RecordedRun } from '../rl/recorded_run.ts';
import { RECORD_FORMAT, RECORD_INDEX_FORMAT, RECORD_VERSION } from '../rl/recorded_run.ts';
import type { UpdateMetrics } from '../worker/protocol.ts';
import { CHARTS, RECORDED_DASH, TRAIN_DASH, chartData, colourOfRun, seriesKey, yRangeOf } from './charts.ts';
import { CSV_COLUMNS, curvesCsv } from './curves_csv.ts';
import { armBand, recordedUpdates, tQuantile975 } from './recorded_curves.ts';
import { chipValues, tickLabels } from './chart_readout.ts';
import { loadNewestRecord } from './recorded_load.ts';
import { ema } from './smoothing.ts';
import { warmStartPoint } from '../worker/views.ts';

function metrics(
  run: 'seed' | 'grpo',
  update: number,
  evalSeen: number | null = null,
  successTrain = 0.25,
): UpdateMetrics {
  return {
    run,
    update,
    episodes: 8 * update,
    successTrain,
    evalSeen,
    evalUnseen: evalSeen,
    meanReward: 1,
    L_GRPO: 0.1,
    L_OPD: 0.2,
    KL: 0.01,
    total: 0.3,
    lambda: 0.1,
    beta: 5,
    meanDelta: 0,
    meanGate: 0.5,
    validSkillRate: null,
    skillFidelity: null,
    skillPlaceTrue: null,
    skillPlaceFalse: null,
    corrDeltaAdvantage: null,
    gradNorm: 1,
    gradNormGrpo: null,
    gradNormOpd: null,
    gradNormRatio: null,
    meanDivergence: null,
    tokens: 10,
    tokensPerSecond: 100,
    wallMs: 100,
    skipped: null,
    meanAbsDelta: null,
    forcedShare: null,
    corrDeltaAdvantageWon: null,
    corrDeltaAdvantageLost: null,
    corrDeltaExpert: null,
    zeroVarianceGroups: null,
    teacherNoSkill: null,
    teacherOwnSkill: null,
    teacherOtherSkill: null,
    validationKl: null,
    degenerateSkillRate: null,
  };
}

function arm(algo: 'seed' | 'grpo', curves: [number, number, number | null, number | null][][]): RecordedArm {
  const interval = { value: 0.5, ci: [0.4, 0.6] as [number, number] };
  return {
    algo,
    role: 'main',
    lr: 5e-4,
    final: { seen: interval, unseen: interval },
    seeds: curves.map((curve, i) => ({ seed: i + 1, curve, final: { seen: 0.5, unseen: 0.5 } })),
  };
}

function record(): RecordedRun {
  return {
    format: RECORD_FORMAT,
    version: RECORD_VERSION,
    command: 'npm run seed -- bench learn --updates 8',
    commit: 'abc1234',
    created: '2025-05-01T00:00:00.000Z',
    preset: 'tiny',
    updates: 8,
    episodesPerUpdate: 32,
    evalEvery: 4,
    evalGames: { seen: 20, unseen: 20 },
    warmstart: { seen: 0.2, unseen: 0.3 },
    arms: [
      arm('grpo', [
        [
          [0, 0, 0.2, 0.3],
          [4, 128, 0.3, 0.2],
          [8, 256, 0.4, 0.5],
        ],
        [
          [0, 0, 0.2, 0.3],
          [4, 128, 0.5, 0.4],
          [8, 256, 0.4, 0.3],
        ],
      ]),
      arm('seed', [
        [
          [0, 0, 0.2, 0.3],
          [4, 128, 0.6, null],
          [8, 256, 0.6, 0.6],
        ],
      ]),
    ],
    differences: [],
    episodes: [],
  };
}

describe('smoothing', () => {
  it('is a debiased exponential moving average that skips empty points', () => {
    expect(ema([1, 1, 1], 0.9)).toEqual([1, 1, 1].map((x) => expect.closeTo(x, 12)));
    const out = ema([0, null, 1], 0.5);
    // (0.5 * 0 + 0.5 * 1) / (1 - 0.25) after the first value 0 / 0.5.
    expect(out[0]).toBe(0);
    expect(out[1]).toBeNull();
    expect(out[2]).toBeCloseTo(0.5 / 0.75, 12);
    expect(ema([3, Number.NaN, 5], 0)).toEqual([3, null, 5]);
    expect(() => ema([1], 1)).toThrow(RangeError);
  });
});

describe('a recorded arm over its seeds', () => {
  it('draws the mean with a 95% t interval, clipped to [0, 1], and no band for one seed', () => {
    const band = armBand(record().arms[0], 'seen');
    expect(band.map((p) => [p.update, p.mean, p.seeds])).toEqual([
      [0, 0.2, 2],
      [4, 0.4, 2],
      [8, 0.4, 2],
    ]);
    // Two seeds 0.3 and 0.5: sd 0.1414, half-width 12.706 * 0.1414 / sqrt 2 = 1.27, clipped.
    expect(band[1]).toMatchObject({ lo: 0, hi: 1 });
    expect(band[0]).toMatchObject({ lo: 0.2, hi: 0.2 });
    const seed = armBand(record().arms[1], 'unseen');
    expect(seed.map((p) => p.update)).toEqual([0, 8]);
    expect(seed[1]).toEqual({ update: 8, mean: 0.6, lo: 0.6, hi: 0.6, seeds: 1 });
    expect(tQuantile975(1)).toBe(12.706);
    expect(tQuantile975(100)).toBe(2.042);
  });

  it('scrubs through the updates with episodes, or those of the curves when it has none', () => {
    expect(recordedUpdates(record())).toEqual([0, 4, 8]);
    const withEpisodes = {
      ...record(),
      episodes: [8, 4, 8].map((update) => ({ update }) as RecordedRun['episodes'][number]),
    };
    expect(recordedUpdates(withEpisodes)).toEqual([4, 8]);
  });

  it("works out a loaded record's bands and updates once, however often the charts and the scrubber ask", () => {
    const run = record();
    expect(armBand(run.arms[0], 'seen')).toBe(armBand(run.arms[0], 'seen'));
    expect(armBand(run.arms[0], 'unseen')).not.toBe(armBand(run.arms[0], 'seen'));
    expect(recordedUpdates(run)).toBe(recordedUpdates(run));
  });
});

describe('chart series', () => {
  const unseen = CHARTS.find((c) => c.id === 'success-unseen')!;
  const live = { seed: [metrics('seed', 1), metrics('seed', 2, 0.5), metrics('seed', 3)] };

  it('puts the recorded arms and the live run on one axis of updates, training line before the eval line', () => {
    const d = chartData(unseen, live, record(), { weight: 0, showRaw: false, showTrain: true });
    expect(d.xs).toEqual([0, 1, 2, 3, 4, 8]);
    expect(d.series.map((s) => s.label)).toEqual([
      'recorded grpo eval-unseen (mean of 2 seeds)',
      'recorded seed eval-unseen (mean of 1 seed)',
      'live seed train rollouts',
      'live seed eval-unseen',
    ]);
    expect(d.ys[0]).toEqual([0.3, null, null, null, 0.30000000000000004, 0.4]);
    expect(d.ys[3]).toEqual([null, null, 0.5, null, null, null]);
    expect(d.series[0]).toMatchObject({ source: 'recorded', dash: RECORDED_DASH, colour: colourOfRun('grpo') });
    expect(d.series[0].band?.seeds).toEqual([2, null, null, null, 2, 2]);
    expect(d.series[1].band).toBeNull();
    expect(d.series[2]).toMatchObject({
      source: 'live',
      width: 1,
      points: false,
      colour: colourOfRun('seed'),
      dash: TRAIN_DASH,
    });
    expect(d.series[3]).toMatchObject({ width: 2, points: true, dash: [], colour: colourOfRun('seed') });
    expect(colourOfRun('seed')).not.toBe(colourOfRun('grpo'));
  });

  it('leaves the training rollouts out of the eval charts unless asked for', () => {
    const d = chartData(unseen, live, record(), { weight: 0, showRaw: false });
    expect(d.series.map((s) => s.label)).toEqual([
      'recorded grpo eval-unseen (mean of 2 seeds)',
      'recorded seed eval-unseen (mean of 1 seed)',
      'live seed eval-unseen',
    ]);
  });

  it('tells every series of a chart apart by colour and by dash', () => {
    const gate = CHARTS.find((c) => c.id === 'gate')!;
    const full = (run: 'seed' | 'grpo', update: number) => ({
      ...metrics(run, update),
      validSkillRate: 0.5,
      degenerateSkillRate: 0.1,
      skillFidelity: 0.4,
      skillPlaceTrue: 0.6,
      skillPlaceFalse: 0.05,
    });
    const distinct = (values: string[]) => new Set(values).size === values.length;
    // One live run: each metric its own colour and dash.
    const one = chartData(gate, { seed: [full('seed', 1), full('seed', 2)] }, null, { weight: 0, showRaw: false });
    expect(one.series).toHaveLength(gate.metrics.length);
    expect(distinct(one.series.map((s) => s.colour))).toBe(true);
    expect(distinct(one.series.map((s) => s.dash.join()))).toBe(true);
    // Two live runs: the run's colour, the metric's dash; no two series alike.
    const two = chartData(gate, { seed: [full('seed', 1)], grpo: [full('grpo', 1)] }, null, {
      weight: 0,
      showRaw: false,
    });
    expect(two.series.filter((s) => s.run === 'grpo').every((s) => s.colour === colourOfRun('grpo'))).toBe(true);
    expect(distinct(two.series.map((s) => `${s.colour} ${s.dash.join()}`))).toBe(true);
    // An eval chart: the recorded and live runs of one algorithm share its colour and differ by dash.
    const eval_ = chartData(unseen, live, record(), { weight: 0, showRaw: false, showTrain: true });
    expect(distinct(eval_.series.map((s) => `${s.colour} ${s.dash.join()}`))).toBe(true);
  });

  it("fits the y axis to the data within the chart's bounds, or shows the fixed range", () => {
    const d = chartData(unseen, { seed: [metrics('seed', 1, 0.33), metrics('seed', 2, 0.43)] }, null, {
      weight: 0,
      showRaw: false,
    });
    const [lo, hi] = yRangeOf(unseen, d, false);
    expect(lo).toBeCloseTo(0.32, 12);
    expect(hi).toBeCloseTo(0.44, 12);
    expect(yRangeOf(unseen, d, true)).toEqual([0, 1]);
    // Padding never leaves the chart's bounds; the recorded bands count as data.
    const withBands = chartData(unseen, live, record(), { weight: 0, showRaw: false });
    expect(yRangeOf(unseen, withBands, false)).toEqual([0, 1]);
    // One value: padded by a tenth of it; no value: the chart's range.
    expect(
      yRangeOf(
        unseen,
        chartData(unseen, { seed: [metrics('seed', 1, 0.5)] }, null, { weight: 0, showRaw: false }),
        false,
      ),
    ).toEqual([0.45, 0.55]);
    expect(yRangeOf(unseen, chartData(unseen, {}, null, { weight: 0, showRaw: false }), false)).toEqual([0, 1]);
    // All 0: 5 percentage points above 0 on a chart of fractions, [-1, 1] on one without bounds.
    expect(
      yRangeOf(
        unseen,
        chartData(unseen, { seed: [metrics('seed', 1, 0)] }, null, { weight: 0, showRaw: false }),
        false,
      ),
    ).toEqual([0, 0.05]);
    const reward = CHARTS.find((c) => c.id === 'reward')!;
    expect(
      yRangeOf(
        reward,
        chartData(reward, { seed: [{ ...metrics('seed', 1), meanReward: 0 }] }, null, { weight: 0, showRaw: false }),
        false,
      ),
    ).toEqual([-1, 1]);
    const loss = CHARTS.find((c) => c.id === 'loss')!;
    const l = chartData(loss, { seed: [metrics('seed', 1)] }, null, { weight: 0, showRaw: false });
    // L_GRPO 0.1, L_OPD 0.2, KL 0.01: no bounds, the fixed view is the auto one.
    expect(yRangeOf(loss, l, true)).toEqual(yRangeOf(loss, l, false));
    expect(yRangeOf(loss, l, false)[0]).toBeCloseTo(0.01 - 0.019, 12);
  });

  it('smooths the live run only: raw values faint under the smoothed line, or the smoothed line alone', () => {
    const both = chartData(unseen, live, record(), { weight: 0.5, showRaw: true, showTrain: true });
    expect(both.series.slice(2).map((s) => s.label)).toEqual([
      'live seed train rollouts (raw)',
      'live seed train rollouts (smoothed)',
      'live seed eval-unseen (raw)',
      'live seed eval-unseen (smoothed)',
    ]);
    expect(both.series[2].alpha).toBeLessThan(both.series[3].alpha);
    expect(both.ys[0]).toEqual(chartData(unseen, live, record(), { weight: 0, showRaw: false }).ys[0]);
    const only = chartData(unseen, { seed: [metrics('seed', 1, null, 0), metrics('seed', 2, null, 1)] }, null, {
      weight: 0.5,
      showRaw: false,
      showTrain: true,
    });
    expect(only.series.map((s) => s.label)).toEqual(['live seed train rollouts (smoothed)']);
    expect(only.ys[0]).toEqual([0, expect.closeTo(0.5 / 0.75, 12)]);
    expect(seriesKey(both)).not.toBe(seriesKey(only));
  });

  it('leaves the recorded run out of the charts it has no figures for', () => {
    const loss = CHARTS.find((c) => c.id === 'loss')!;
    const d = chartData(loss, live, record(), { weight: 0, showRaw: false });
    expect(d.series.every((s) => s.source === 'live')).toBe(true);
    expect(d.xs).toEqual([1, 2, 3]);
  });

  it('draws the skill credit as corr(Delta, expert token), skipping updates where it is not defined', () => {
    const credit = CHARTS.find((c) => c.id === 'credit')!;
    const runs = {
      seed: [
        { ...metrics('seed', 1), corrDeltaExpert: 0.22, corrDeltaAdvantage: -0.04 },
        metrics('seed', 2),
        { ...metrics('seed', 3), corrDeltaExpert: 0.3 },
      ],
    };
    const d = chartData(credit, runs, null, { weight: 0, showRaw: false });
    expect(d.series.map((s) => s.label)).toEqual(['live seed on decision tokens']);
    expect(d.ys).toEqual([[0.22, null, 0.3]]);
  });

  it('draws the distillation scale: the OPD / GRPO gradient-norm ratio and the divergence each update measured', () => {
    const scale = CHARTS.find((c) => c.id === 'scale')!;
    const runs = {
      'seed-exact': [
        { ...metrics('seed', 1), gradNormRatio: 0.31, meanDivergence: 0.44 },
        { ...metrics('seed', 2), gradNormRatio: 0.25, meanDivergence: 0.47 },
      ],
    };
    const d = chartData(scale, runs, null, { weight: 0, showRaw: false });
    expect(d.series.map((s) => s.label)).toEqual([
      'live seed-exact OPD / GRPO gradient norm',
      'live seed-exact KL(student ‖ teacher), decision tokens',
    ]);
    expect(d.ys).toEqual([
      [0.31, 0.25],
      [0.44, 0.47],
    ]);
  });
});

describe('the curves as CSV', () => {
  it('has a source column: a row per recorded arm, seed and evaluation, then a row per live run and update', () => {
    const csv = curvesCsv(
      { seed: [metrics('seed', 1), metrics('seed', 2, 0.5)], grpo: [metrics('grpo', 1)] },
      record(),
      7,
    );
    const rows = csv
      .trimEnd()
      .split('\n')
      .map((l) => l.split(','));
    expect(rows[0]).toEqual([...CSV_COLUMNS]);
    expect(rows[0].slice(0, 8)).toEqual([
      'source',
      'run',
      'seed',
      'update',
      'episodes',
      'successTrain',
      'evalSeen',
      'evalUnseen',
    ]);
    const recorded = rows.filter((r) => r[0] === 'recorded');
    expect(recorded).toHaveLength(9);
    expect(recorded[1].slice(0, 8)).toEqual(['recorded', 'grpo', '1', '4', '128', '', '0.3', '0.2']);
    expect(recorded[7].slice(0, 8)).toEqual(['recorded', 'seed', '1', '4', '128', '', '0.6', '']);
    expect(recorded[1].slice(8).every((c) => c === '')).toBe(true);
    expect(rows.filter((r) => r[0] === 'live').map((r) => r.slice(0, 8))).toEqual([
      ['live', 'grpo', '7', '1', '8', '0.25', '', ''],
      ['live', 'seed', '7', '1', '8', '0.25', '', ''],
      ['live', 'seed', '7', '2', '16', '0.25', '0.5', '0.5'],
    ]);
    const column = (name: string) => rows[0].indexOf(name);
    expect(rows.filter((r) => r[0] === 'live').map((r) => [r[column('lambda')], r[column('beta')]])).toEqual([
      ['0.1', '5'],
      ['0.1', '5'],
      ['0.1', '5'],
    ]);
    expect([recorded[1][column('lambda')], recorded[1][column('beta')]]).toEqual(['', '']);
    // A point of a run saved before lambda and beta were kept leaves their cells empty.
    const old = curvesCsv({ seed: [{ ...metrics('seed', 1), lambda: null, beta: null }] })
      .trimEnd()
      .split('\n')[1]
      .split(',');
    expect([old[column('lambda')], old[column('beta')]]).toEqual(['', '']);
    expect(
      curvesCsv({ seed: [metrics('seed', 1)] })
        .trimEnd()
        .split('\n')
        .map((l) => l.split(',')[0]),
    ).toEqual(['source', 'live']);
  });

  it('carries the diagnostics of every update: empty cells where an update has none', () => {
    const diagnosed: UpdateMetrics = {
      ...metrics('seed', 3),
      meanAbsDelta: 0.61,
      forcedShare: 0.66,
      corrDeltaExpert: 0.22,
      corrDeltaAdvantageWon: 0.54,
      corrDeltaAdvantageLost: -0.125,
      zeroVarianceGroups: 0.25,
      teacherNoSkill: 0.25,
      teacherOwnSkill: 0.4375,
      teacherOtherSkill: 0.375,
    };
    const [head, plain, row] = curvesCsv({ seed: [metrics('seed', 2), diagnosed] })
      .trimEnd()
      .split('\n')
      .map((l) => l.split(','));
    const at = (cells: string[], column: string) => cells[head.indexOf(column)];
    const columns = [
      'meanAbsDelta',
      'forcedShare',
      'corrDeltaExpert',
      'corrDeltaAdvantageWon',
      'corrDeltaAdvantageLost',
      'zeroVarianceGroups',
      'teacherNoSkill',
      'teacherOwnSkill',
      'teacherOtherSkill',
    ];
    expect(columns.map((c) => at(row, c))).toEqual([
      '0.61',
      '0.66',
      '0.22',
      '0.54',
      '-0.125',
      '0.25',
      '0.25',
      '0.4375',
      '0.375',
    ]);
    expect(columns.map((c) => at(plain, c))).toEqual(columns.map(() => ''));
  });
});

describe('loading the recorded run', () => {
  const index = (runs: { file: string; created: string }[]) =>
    JSON.stringify({ format: RECORD_INDEX_FORMAT, runs: runs.map((r) => ({ ...r, command: 'c', commit: 'x' })) });
  const server = (files: Record<string, string>) => async (url: string) => {
    const body = files[url];
    return { ok: body !== undefined, status: body === undefined ? 404 : 200, text: async () => body ?? 'not found' };
  };

  it('loads the newest record the index lists', async () => {
    const files = {
      'runs/index.json': index([
        { file: 'old.json', created: '2025-01-01T00:00:00Z' },
        { file: 'new.json', created: '2025-02-01T00:00:00Z' },
      ]),
      'runs/new.json': JSON.stringify(record()),
    };
    const loaded = await loadNewestRecord(server(files));
    expect(loaded).toEqual({ state: 'ready', run: record(), url: 'runs/new.json' });
  });

  it('ends in one line when there is no index, an HTML page instead, no record, or a corrupt one', async () => {
    const message = async (files: Record<string, string>) => {
      const loaded = await loadNewestRecord(server(files));
      expect(loaded.state).not.toBe('ready');
      const text = (loaded as { message: string }).message;
      expect(text).not.toContain('\n');
      return [loaded.state, text];
    };
    expect(await message({})).toEqual(['failed', 'No recorded run: runs/index.json was not read (HTTP 404).']);
    expect(await message({ 'runs/index.json': '<!doctype html><html></html>' })).toEqual([
      'failed',
      'No recorded run: runs/index.json was not read (it is not JSON).',
    ]);
    expect(await message({ 'runs/index.json': index([]) })).toEqual([
      'none',
      'No recorded run: runs/index.json lists none.',
    ]);
    const listed = index([{ file: 'r.json', created: '2025-01-01T00:00:00Z' }]);
    expect(await message({ 'runs/index.json': listed })).toEqual([
      'failed',
      'The recorded run runs/r.json was not shown: HTTP 404.',
    ]);
    const corrupt = JSON.stringify({ ...record(), arms: [{ ...record().arms[0], algo: 'ppo' }] });
    expect(await message({ 'runs/index.json': listed, 'runs/r.json': corrupt })).toEqual([
      'failed',
      'The recorded run runs/r.json was not shown: arms[0].algo is "ppo", not an algorithm.',
    ]);
    const failing = async () => {
      throw new TypeError('Failed to fetch');
    };
    expect((await loadNewestRecord(failing)).state).toBe('failed');
  });
});

describe('the x axis', () => {
  const unseen = CHARTS.find((c) => c.id === 'success-unseen')!;
  const live = {
    seed: [
      { ...metrics('seed', 1, 0.5), wallMs: 1500 },
      { ...metrics('seed', 2, 0.6), wallMs: 500.4 },
    ],
  };

  it("counts updates, episodes (the recording at its episodes per update) or the live run's seconds", () => {
    const byUpdate = chartData(unseen, live, record(), { weight: 0, showRaw: false });
    expect([byUpdate.xLabel, byUpdate.xs]).toEqual(['update', [0, 1, 2, 4, 8]]);
    const byEpisodes = chartData(unseen, live, record(), { weight: 0, showRaw: false, x: 'episodes' });
    // Live: 8 episodes per update; recorded: 32.
    expect([byEpisodes.xLabel, byEpisodes.xs]).toEqual(['episodes', [0, 8, 16, 128, 256]]);
    expect(byEpisodes.ys[2]).toEqual([null, 0.5, 0.6, null, null]);
    const bySeconds = chartData(unseen, live, record(), { weight: 0, showRaw: false, x: 'wall' });
    expect(bySeconds.xs).toEqual([1.5, 2]);
    expect(bySeconds.series.map((s) => s.source)).toEqual(['live']);
    expect(seriesKey(bySeconds)).not.toBe(seriesKey(chartData(unseen, live, null, { weight: 0, showRaw: false })));
  });
});

describe("the warm start's evaluation (update 0)", () => {
  const unseen = CHARTS.find((c) => c.id === 'success-unseen')!;
  const live = { seed: [warmStartPoint('seed', 0.2, 0.25), { ...metrics('seed', 1, 0.5), wallMs: 1500 }] };

  it('starts the live eval line at 0 on every x axis, with no training figure, and is a CSV row with empty training cells', () => {
    const byUpdate = chartData(unseen, live, null, { weight: 0, showRaw: false, showTrain: true });
    expect(byUpdate.xs).toEqual([0, 1]);
    expect(byUpdate.series.map((s) => s.label)).toEqual(['live seed train rollouts', 'live seed eval-unseen']);
    expect(byUpdate.ys).toEqual([
      [null, 0.25],
      [0.25, 0.5],
    ]);
    expect(chartData(unseen, live, null, { weight: 0, showRaw: false, x: 'wall' }).xs).toEqual([0, 1.5]);
    const [head, warm] = curvesCsv(live)
      .trimEnd()
      .split('\n')
      .map((l) => l.split(','));
    const at = (column: string) => warm[head.indexOf(column)];
    expect([
      at('update'),
      at('episodes'),
      at('evalSeen'),
      at('evalUnseen'),
      at('successTrain'),
      at('L_GRPO'),
      at('wallMs'),
    ]).toEqual(['0', '0', '0.2', '0.25', '', '', '']);
  });
});

describe('the legend chips', () => {
  const unseen = CHARTS.find((c) => c.id === 'success-unseen')!;
  it('read each series at the hovered update, else at its last value, with the recorded interval', () => {
    const d = chartData(unseen, { seed: [metrics('seed', 1, 0.5), metrics('seed', 2)] }, record(), {
      weight: 0,
      showRaw: false,
    });
    // Columns: updates 0, 1, 2, 4, 8; the live series has a value at update 1 only.
    expect(d.xs).toEqual([0, 1, 2, 4, 8]);
    expect(chipValues(unseen, d, null)).toEqual(['40.0% [0.0%, 100.0%]', '60.0%', '50.0%']);
    expect(chipValues(unseen, d, 0)).toEqual(['30.0% [30.0%, 30.0%]', '30.0%', '–']);
    // Ticks get the decimals their step needs.
    expect(tickLabels([0.3, 0.305, 0.31], true)).toEqual(['30.0%', '30.5%', '31.0%']);
    expect(tickLabels([0, 0.2, 0.4], true)).toEqual(['0%', '20%', '40%']);
    expect(tickLabels([-0.001, -0.0005, 0, 0.0005], false)).toEqual(['-0.0010', '-0.0005', '0.0000', '0.0005']);
    expect(tickLabels([0, 25, 50], false)).toEqual(['0', '25', '50']);
    const loss = CHARTS.find((c) => c.id === 'loss')!;
    expect(
      chipValues(loss, chartData(loss, { seed: [metrics('seed', 1)] }, null, { weight: 0, showRaw: false }), null),
    ).toEqual(['0.1', '0.2', '0.01']);
  });
});
