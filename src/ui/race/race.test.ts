// A race's pure parts: its plan from the page's settings, the pairing of the arms' evaluations by update, the
// paired difference so far, the charts' series and the race's rows in the curves CSV.
import { describe, expect, it } from 'vitest';
import type { Algo } from '../../rl/arms.ts';
import type { UpdateMetrics } from '../../worker/protocol.ts';
import { defaultSettings } from '../../rl/page_settings.ts';
import { CSV_COLUMNS, curvesCsv } from '../curves_csv.ts';
import { metrics } from '../curves_testing.ts';
import { raceDifferenceData, raceSuccessData } from './chart.ts';
import { differenceSoFar, pairedEvaluations, runningMeans } from './pairs.ts';
import { changedSinceStart, racePlan } from './plan.ts';

/** A race arm's point of `update`: a live run's figures, the evaluations as given. */
function point(
  run: Algo,
  update: number,
  evalUnseen: number | null,
  evalSeen: number | null = evalUnseen,
): UpdateMetrics {
  return {
    ...metrics(run, update),
    episodes: 6 * update,
    successTrain: 0.5,
    evalSeen,
    evalUnseen,
    L_OPD: 0,
    total: 0.1,
  };
}

const GRPO = [
  point('grpo', 1, 0.25),
  point('grpo', 2, null),
  point('grpo', 3, 0.5, 0.75),
  point('grpo', 4, null),
  point('grpo', 5, 0.25),
];
// SEED is one evaluation behind: its update 5 has not run yet.
const SEED = [
  point('seed-exact', 1, 0.5),
  point('seed-exact', 2, null),
  point('seed-exact', 3, 0.25, 1),
  point('seed-exact', 4, null),
];

describe('a race plan', () => {
  it('races GRPO against seed-exact from the page settings, with the cores split between the arms', () => {
    const page = { ...defaultSettings('micro'), algo: 'grpo' as const, seed: 9, lr: 0.002 };
    const plan = racePlan(page, 8);
    expect(plan.arms).toEqual(['grpo', 'seed-exact']);
    expect(plan.settings.map((s) => s.algo)).toEqual(['grpo', 'seed-exact']);
    expect(plan.settings.map((s) => [s.seed, s.lr, s.preset])).toEqual([
      [9, 0.002, 'micro'],
      [9, 0.002, 'micro'],
    ]);
    expect(plan.threads).toBe(4);
    expect(racePlan(page, 1).threads).toBe(1);
    expect(racePlan(page, 3).threads).toBe(1);
    expect(racePlan({ ...page, algo: 'both' }, 2).arms).toEqual(['grpo', 'seed-exact']);
  });

  it('races the page hindsight arm when it runs one', () => {
    expect(racePlan({ ...defaultSettings('micro'), algo: 'seed-sibling' }, 4).arms).toEqual(['grpo', 'seed-sibling']);
  });

  it('races in the world the page plays', () => {
    expect(racePlan({ ...defaultSettings('micro'), env: 'shop' }, 4).settings.map((s) => s.env)).toEqual([
      'shop',
      'shop',
    ]);
    expect(changedSinceStart(defaultSettings('micro'), { ...defaultSettings('micro'), env: 'shop' })).toEqual(['env']);
  });

  it('names the settings changed since the race started, the algorithm aside', () => {
    const started = { ...defaultSettings('micro'), algo: 'seed-exact' as const };
    expect(changedSinceStart(started, { ...started, algo: 'grpo' })).toEqual([]);
    expect(changedSinceStart(started, { ...started, lr: 0.01, seed: 2 })).toEqual(['lr', 'seed']);
  });
});

describe('pairing the arms evaluations', () => {
  it('pairs only the updates where both arms evaluated, ascending', () => {
    const pairs = pairedEvaluations(GRPO, SEED, 'evalUnseen');
    expect(pairs).toEqual([
      { update: 1, grpo: 0.25, seed: 0.5, difference: 0.25 },
      { update: 3, grpo: 0.5, seed: 0.25, difference: -0.25 },
    ]);
    expect(pairedEvaluations(GRPO, SEED, 'evalSeen').map((p) => p.difference)).toEqual([0.25, 0.25]);
    expect(pairedEvaluations(GRPO, [], 'evalUnseen')).toEqual([]);
  });

  it('takes the mean of the differences so far, leaving out the warm start evaluation', () => {
    const warm = [point('grpo', 0, 0.3)];
    const pairs = pairedEvaluations([...warm, ...GRPO], [point('seed-exact', 0, 0.3), ...SEED], 'evalSeen');
    expect(pairs.map((p) => p.update)).toEqual([0, 1, 3]);
    expect(differenceSoFar(pairs)).toEqual({
      pairs: 2,
      mean: 0.25,
      last: { update: 3, grpo: 0.75, seed: 1, difference: 0.25 },
    });
    expect(differenceSoFar(pairedEvaluations(GRPO, SEED, 'evalUnseen')).mean).toBe(0);
    expect(differenceSoFar([])).toEqual({ pairs: 0, mean: null, last: null });
    expect(runningMeans(pairedEvaluations(GRPO, SEED, 'evalUnseen'))).toEqual([
      { update: 1, mean: 0.25 },
      { update: 3, mean: 0 },
    ]);
  });
});

describe('the race charts', () => {
  it('draws each arm and split as its own series, told apart by dash as well as colour', () => {
    const data = raceSuccessData(['grpo', 'seed-exact'], [GRPO, SEED]);
    expect(data.xs).toEqual([1, 3, 5]);
    expect(data.series.map((s) => s.label)).toEqual([
      'GRPO eval-unseen',
      'GRPO eval-seen',
      'SEED-exact eval-unseen',
      'SEED-exact eval-seen',
    ]);
    expect(new Set(data.series.map((s) => JSON.stringify(s.dash))).size).toBe(4);
    expect(new Set(data.series.map((s) => s.colour)).size).toBe(2);
    expect(data.ys[2]).toEqual([0.5, 0.25, null]);
  });

  it('draws the paired differences and the running mean at the paired updates only', () => {
    const data = raceDifferenceData(GRPO, SEED);
    expect(data.xs).toEqual([1, 3]);
    expect(data.series.map((s) => s.label)).toEqual([
      'eval-unseen difference',
      'eval-unseen mean so far',
      'eval-seen difference',
    ]);
    expect(data.ys).toEqual([
      [0.25, -0.25],
      [0.25, 0],
      [0.25, 0.25],
    ]);
    expect(raceDifferenceData(GRPO, []).series).toEqual([]);
  });

  it('draws no difference while the only evaluation both arms reached is the warm start, as the readout counts none', () => {
    const grpoWarm = point('grpo', 0, 0.3);
    const seedWarm = point('seed-exact', 0, 0.3);
    const atStart = raceDifferenceData([grpoWarm], [seedWarm]);
    expect(atStart.series).toEqual([]);
    expect(atStart.xs).toEqual([]);
    expect(differenceSoFar(pairedEvaluations([grpoWarm], [seedWarm], 'evalUnseen')).pairs).toBe(0);
    // Once training adds paired evaluations, the chart starts at the first of them, where the readout's count does.
    const trained = raceDifferenceData([grpoWarm, ...GRPO], [seedWarm, ...SEED]);
    expect(trained.xs).toEqual([1, 3]);
    expect(trained.xs).toHaveLength(
      differenceSoFar(pairedEvaluations([grpoWarm, ...GRPO], [seedWarm, ...SEED], 'evalUnseen')).pairs,
    );
  });
});

describe('a race in the curves CSV', () => {
  it('adds a row per arm and update, tagged race with the arm algorithm and the race seed', () => {
    const csv = curvesCsv({ seed: [point('seed', 1, 0.5)] }, null, 1, {
      seed: 7,
      arms: { grpo: GRPO.slice(0, 2), 'seed-exact': SEED.slice(0, 1) },
    });
    const rows = csv
      .trimEnd()
      .split('\n')
      .map((l) => l.split(','));
    expect(rows[0]).toEqual([...CSV_COLUMNS]);
    expect(rows.slice(1).map((r) => r.slice(0, 8))).toEqual([
      ['live', 'seed', '1', '1', '6', '0.5', '0.5', '0.5'],
      ['race', 'grpo', '7', '1', '6', '0.5', '0.25', '0.25'],
      ['race', 'grpo', '7', '2', '12', '0.5', '', ''],
      ['race', 'seed-exact', '7', '1', '6', '0.5', '0.5', '0.5'],
    ]);
  });
});
