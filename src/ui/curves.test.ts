// The curves' data: the smoothing, the recorded run's mean and band over seeds, the series each chart draws
// (recorded and live on one x axis, eval lines after the training line), the x axis, the warm start's point and
// the legend chips' readings. The CSV is curves_csv.test.ts's, the loading of the recorded run
// recorded_load.test.ts's.
import { describe, expect, it } from 'vitest';
import type { RecordedRun } from '../rl/recorded_run.ts';
import { CHARTS, RECORDED_DASH, TRAIN_DASH, chartData, colourOfRun, seriesKey, yRangeOf } from './charts.ts';
import { curvesCsv } from './curves_csv.ts';
import { armBand, recordedUpdates, tQuantile975 } from './recorded_curves.ts';
import { chipValues, tickLabels } from './chart_readout.ts';
import { metrics, record } from './curves_testing.ts';
import { ema } from './smoothing.ts';
import { warmStartPoint } from '../worker/views.ts';

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
      'recorded GRPO eval-unseen (mean of 2 seeds)',
      'recorded SEED eval-unseen (mean of 1 seed)',
      'live SEED train rollouts',
      'live SEED eval-unseen',
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
      'recorded GRPO eval-unseen (mean of 2 seeds)',
      'recorded SEED eval-unseen (mean of 1 seed)',
      'live SEED eval-unseen',
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
      'live SEED train rollouts (raw)',
      'live SEED train rollouts (smoothed)',
      'live SEED eval-unseen (raw)',
      'live SEED eval-unseen (smoothed)',
    ]);
    expect(both.series[2].alpha).toBeLessThan(both.series[3].alpha);
    expect(both.ys[0]).toEqual(chartData(unseen, live, record(), { weight: 0, showRaw: false }).ys[0]);
    const only = chartData(unseen, { seed: [metrics('seed', 1, null, 0), metrics('seed', 2, null, 1)] }, null, {
      weight: 0.5,
      showRaw: false,
      showTrain: true,
    });
    expect(only.series.map((s) => s.label)).toEqual(['live SEED train rollouts (smoothed)']);
    expect(only.ys[0]).toEqual([0, expect.closeTo(0.5 / 0.75, 12)]);
    expect(seriesKey(both)).not.toBe(seriesKey(only));
  });

  it('calls skills that parse well formed, never valid: a word that reads as true', () => {
    const skillLabels = CHARTS.flatMap((c) => c.metrics.map((m) => m.label)).filter((l) => l.includes('skills'));
    expect(skillLabels).toContain('well-formed skills');
    for (const label of skillLabels) expect(label).not.toMatch(/\bvalid\b/);
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
    expect(d.series.map((s) => s.label)).toEqual(['live SEED on decision tokens']);
    expect(d.ys).toEqual([[0.22, null, 0.3]]);
  });

  it('draws the distillation scale: the norm ratio, the OPD shares and the divergence each update measured', () => {
    const scale = CHARTS.find((c) => c.id === 'scale')!;
    const runs = {
      'seed-exact': [
        { ...metrics('seed', 1), gradNormRatio: 0.31, opdShare: 0.24, meanDivergence: 0.44 },
        { ...metrics('seed', 2), gradNormRatio: 0.25, opdShare: 0.2, opdDeltaShare: 0.1, meanDivergence: 0.47 },
      ],
    };
    const d = chartData(scale, runs, null, { weight: 0, showRaw: false });
    expect(d.series.map((s) => s.label)).toEqual([
      'live SEED-exact OPD / GRPO gradient norm',
      'live SEED-exact OPD share of the gradient',
      'live SEED-exact Delta-dependent share of the OPD coefficient',
      'live SEED-exact KL(student ‖ teacher), decision tokens',
    ]);
    expect(d.ys).toEqual([
      [0.31, 0.25],
      [0.24, 0.2],
      [null, 0.1],
      [0.44, 0.47],
    ]);
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
    expect(byUpdate.series.map((s) => s.label)).toEqual(['live SEED train rollouts', 'live SEED eval-unseen']);
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
