// The shop's score on the page: each point of a curve carries the mean scores (training rollouts, eval-seen,
// eval-unseen) in a world with a score and none in the household; the CSV gives the score's columns, and the
// charts a score chart, only for a world with a score.
import { describe, expect, it } from 'vitest';
import { factsOf } from '../worlds/facts.ts';
import type { EvalResult } from '../rl/evaluate.ts';
import type { UpdateMetrics as TrainerMetrics } from '../rl/trainer.ts';
import { metricsView, UNTIMED, warmStartPoint } from '../worker/views.ts';
import { CHARTS, chartData } from './charts.ts';
import { CSV_COLUMNS, SCORED_CSV_COLUMNS, curvesCsv } from './curves_csv.ts';

const evaluation = (seen: Partial<EvalResult>, unseen: Partial<EvalResult>) =>
  ({ seen: { per_type: {}, episodes: 4, ...seen }, unseen: { per_type: {}, episodes: 4, ...unseen } }) as Record<
    'seen' | 'unseen',
    EvalResult
  >;

/** The trainer's metrics of update 0, with only the figures these tests read. */
const trained = (extra: Partial<TrainerMetrics>) =>
  ({ update: 0, algo: 'grpo', episodes: 8, success: 0.25, skipped: null, crossgame: null, ...extra }) as TrainerMetrics;

/** The warm start's point and update 1's of a shop run. */
const shopCurve = () => [
  warmStartPoint('grpo', 0.2, 0.25, { seen: { score: 0.4 }, unseen: { score: 0.45 } }),
  metricsView(
    trained({ score: 0.6 }),
    evaluation({ success: 0.5, score: 0.7 }, { success: 0.25, score: 0.55 }),
    UNTIMED,
  ),
];

describe("the shop's score on the page", () => {
  it('keeps the mean scores beside success in a world with one, and none in the household', () => {
    const [, shop] = shopCurve();
    expect(shop).toMatchObject({
      successTrain: 0.25,
      scoreTrain: 0.6,
      evalSeen: 0.5,
      scoreSeen: 0.7,
      scoreUnseen: 0.55,
    });
    expect('score' in shop).toBe(false);
    const notEvaluated = metricsView(trained({ score: 0.6 }), null, UNTIMED);
    expect(notEvaluated).toMatchObject({ scoreTrain: 0.6, scoreSeen: null, scoreUnseen: null, evalSeen: null });
    const household = metricsView(trained({}), evaluation({ success: 0.5 }, { success: 0.25 }), UNTIMED);
    expect(household).toMatchObject({ scoreTrain: null, scoreSeen: null, scoreUnseen: null, evalUnseen: 0.25 });
    expect(shopCurve()[0]).toMatchObject({ scoreSeen: 0.4, scoreUnseen: 0.45, scoreTrain: null });
    expect(warmStartPoint('seed', 0.2, 0.25)).toMatchObject({ scoreSeen: null, scoreUnseen: null });
  });

  it("writes the score's columns after success's in a world with a score only", () => {
    const [head, warm, first] = curvesCsv({ grpo: shopCurve() }, null, 3, null, true)
      .trim()
      .split('\n')
      .map((l) => l.split(','));
    expect(head).toEqual([...SCORED_CSV_COLUMNS]);
    expect(head.slice(4, 10)).toEqual([
      'episodes',
      'successTrain',
      'evalSeen',
      'evalUnseen',
      'scoreTrain',
      'scoreSeen',
    ]);
    const cell = (row: string[], column: string) => row[head.indexOf(column)];
    expect(['scoreTrain', 'scoreSeen', 'scoreUnseen'].map((c) => cell(warm, c))).toEqual(['', '0.4', '0.45']);
    expect(['scoreTrain', 'scoreSeen', 'scoreUnseen'].map((c) => cell(first, c))).toEqual(['0.6', '0.7', '0.55']);
    // The household's CSV is as it was: no score column.
    expect(curvesCsv({ grpo: shopCurve() }, null, 3).split('\n')[0].split(',')).toEqual([...CSV_COLUMNS]);
    expect(CSV_COLUMNS.filter((c) => c.startsWith('score'))).toEqual([]);
    expect(SCORED_CSV_COLUMNS.filter((c) => !CSV_COLUMNS.includes(c))).toEqual([
      'scoreTrain',
      'scoreSeen',
      'scoreUnseen',
    ]);
  });

  it('has a score chart for a world with a score (the shop), its eval lines from the eval points', () => {
    expect([factsOf('household').scored, factsOf('shop').scored]).toEqual([false, true]);
    const scored = CHARTS.filter((def) => def.scored);
    expect(scored.map((def) => def.id)).toEqual(['score']);
    const data = chartData(scored[0], { grpo: shopCurve() }, null, { weight: 0, showRaw: true, showTrain: true });
    expect(data.xs).toEqual([0, 1]);
    expect(data.series).toHaveLength(3);
    expect(data.ys).toEqual([
      [null, 0.6],
      [0.4, 0.7],
      [0.45, 0.55],
    ]);
  });
});
