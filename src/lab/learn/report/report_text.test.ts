// The text of every report `bench learn` writes, held in files beside this test: learn.md and learn.json for a
// benchmark that takes most of the report's turnings (controls, ablations, promotion, failures, refused
// updates, sweeps with a grown grid, a picked arm, teacher checks), for one in a world with a score, for ones
// without GRPO or without a distilling arm, and learn_fractions.md and .json. A change to any sentence, table
// or field shows here as a difference to review; the core count the provenance line names is the machine's.
import { describe, expect, it } from 'vitest';
import type { Algo } from '../../../rl/arms.ts';
import { defaultConfig } from '../../../rl/config.ts';
import type { FractionRuns } from '../stats/fractions.ts';
import type { JobResult } from '../jobs/job.ts';
import { fakeOutcome, fakeResult, givenSettings, metricMeans } from '../learn_testing.ts';
import { renderFractions } from './fractions_report.ts';
import type { SweepPoint, SweepRun } from '../sweeps/sweep_points.ts';
import { buildRecord } from './record.ts';
import { renderLearn, type LearnOutcome } from './report.ts';

const GAMES = [
  { layout: 'kitchen/train/0', type: 'pick_and_place_simple' },
  { layout: 'kitchen/train/0', type: 'pick_two_obj_and_place' },
  { layout: 'bathroom/train/3', type: 'pick_and_place_simple' },
  { layout: 'kitchen/train/5', type: 'look_at_obj_in_light' },
];

const machine = (text: string) => text.replace(/ on \d+ cores /g, ' on N cores ');

/** A distilling run with its diagnostics, teacher checks and metric means filled. */
function distilling(algo: Algo, seed: number, won: number[], extra: Partial<JobResult> = {}): JobResult {
  return fakeResult(algo, seed, won, {
    valid_skill_rate: 0.75 + seed / 100,
    skill_fidelity: 0.5,
    mean_delta: 0.0125 * seed,
    mean_gate: 0.625,
    corr_delta_advantage: 0.25 - seed / 50,
    metric_means: metricMeans({
      gradNormGrpo: 1.234567,
      gradNormOpd: 0.0456,
      gradNormRatio: 0.037,
      opdDeltaShare: 0.0925,
      meanDivergence: 2,
    }),
    teacher: [
      [0, 0.25, 0.5, 0.25, 0.25 + seed / 16],
      [2, 0.25 + seed / 8, 0.75, 0.5, 0.375],
    ],
    teacher_kl: [
      [0, 0.5],
      [2, null],
    ],
    ...extra,
  });
}

const point = (algo: Algo, param: SweepPoint['param'], value: number, per: number[], ratio: number | null) => ({
  param,
  algo,
  value,
  seeds: per.map((_, i) => 1000 + i),
  per_seed: per,
  success: per.reduce((a, b) => a + b, 0) / per.length,
  grad_norm_ratio: ratio,
  // Made up as the share the ratio of mean norms would give.
  opd_share: ratio === null ? null : ratio / (1 + ratio),
});

function rich(): LearnOutcome {
  const arms: Algo[] = ['grpo', 'seed', 'seed-exact', 'seed-crossgame', 'seed-nogate', 'opid'];
  const settings = givenSettings(arms);
  settings.set('seed', {
    lr: 1e-3,
    lambda: 0.3,
    opidWeight: 1e-3,
    rehearsal: 1,
    how: {
      lr: 'best mean validation-unseen success of 2 seeds per value',
      lambda: 'best of 2',
      opidWeight: 'no OPID term',
      rehearsal: 'best mean validation-unseen success of 2 seeds per value',
    },
  });
  for (const a of ['seed-crossgame', 'seed-nogate', 'opid'] as const)
    settings.set(a, { ...settings.get(a)!, rehearsal: 1, how: { ...settings.get(a)!.how, rehearsal: "seed's" } });
  const runs = [
    fakeResult('grpo', 1, [1, 0, 0.5, 0.5]),
    fakeResult('grpo', 2, [0.5, 0, 0.5, 0]),
    distilling('seed', 1, [1, 0.5, 0.5, 0.5]),
    distilling('seed', 2, [1, 0.5, 1, 0]),
    distilling('seed-exact', 1, [0.5, 0.5, 0, 0.5]),
    distilling('seed-exact', 2, [1, 1, 0.5, 0], { skipped_updates: 1 }),
    distilling('seed-crossgame', 1, [1, 0, 0, 0.5], { crossgame: { update: 5, pool: 2, none: 1 } }),
    distilling('seed-nogate', 1, [0.5, 0.5, 0.5, 0.5]),
    distilling('opid', 1, [1, 0, 0.5, 1]),
  ];
  const sweep: SweepRun[] = [
    {
      param: 'lr',
      algo: 'seed',
      seed: 1000,
      lr: 1e-3,
      lambda: 0.1,
      opidWeight: 1e-3,
      rehearsal: 0,
      success_validation: 0.5,
      grad_norm_ratio: 0.25,
      grad_norm_grpo: 0.8,
      grad_norm_opd: 0.2,
      opd_share: 0.2,
    },
  ];
  return fakeOutcome(runs, GAMES, {
    commit: { hash: 'abc1234', dirty: true },
    base: { ...defaultConfig('tiny'), resampleRounds: 2 },
    algos: ['grpo', 'seed', 'seed-exact'],
    controls: ['seed-crossgame'],
    ablations: ['seed-nogate', 'opid'],
    seeds: 2,
    controlSeeds: 1,
    lrs: [5e-4, 1e-3],
    lambdas: [0.1, 0.3],
    opidWeights: [1e-3, 1e-2],
    rehearsals: [0, 1],
    settings,
    sweep,
    points: [
      point('seed', 'lr', 5e-4, [0.25, 0.5], 0.125),
      point('seed', 'lr', 1e-3, [0.5, 0.5], 0.25),
      point('seed-exact', 'lr', 5e-4, [0.5, 0.25], null),
      point('seed', 'lambda', 0.1, [0.5, 0.75], 0.5),
      point('seed', 'lambda', 0.3, [0.75, 0.75], 1.5),
      point('seed-exact', 'lambda', 0.1, [0.25, 0.5], 0.75),
      point('seed', 'rehearsal', 0, [0.75, 0.75], 1.5),
      point('seed', 'rehearsal', 1, [0.75, 1], 1.5),
      point('seed-exact', 'rehearsal', 0, [0.25, 0.5], 0.75),
    ],
    promoted: [{ algo: 'seed-crossgame', lead: 0.0625, seeds: [1] }],
    picked: { best: 'seed', dropped: ['seed-exact'], success: { seed: 0.75, 'seed-exact': 0.375 } },
    edges: [{ param: 'lambda', algo: 'seed', value: 0.3 }],
    extend: 1,
    firstSeed: 1,
    teacherAt: [0, 2],
    full: true,
    warm: fakeResult('grpo', 0, [0.5, 0, 0, 0.5]),
    failed: [
      {
        kind: 'run',
        algo: 'grpo',
        seed: 3,
        lr: 5e-4,
        lambda: 0.1,
        rehearsal: 0,
        trainGames: 0,
        error: 'exited with code 1\nstack',
      },
      {
        kind: 'sweep',
        algo: 'seed',
        seed: 1001,
        lr: 1e-3,
        lambda: 0.3,
        rehearsal: 1,
        trainGames: 16,
        error: 'out of memory',
      },
    ],
    resumed: 3,
    planned: 'bench/plans/night',
    wallSeconds: 3723.46,
    estimatedSeconds: 3600.4,
  });
}

/** A run in a world with a score: per-game scores beside the outcomes, on both splits and the curve. */
function scored(algo: Algo, seed: number, won: number[], scores: number[]): JobResult {
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  return fakeResult(algo, seed, won, {
    score_seen: mean(scores),
    score_unseen: mean(scores),
    scores_seen: scores,
    scores_unseen: scores,
    curve_score: [0.5, mean(scores)],
    curve_scores: [scores.map(() => 0.5), scores],
  });
}

function shop(): LearnOutcome {
  const games = [0, 1, 2, 3].map((i) => ({ layout: `c${i % 2}`, type: 'shirts' }));
  return fakeOutcome(
    [
      scored('grpo', 1, [1, 0, 0, 1], [1, 0.5, 0.25, 1]),
      scored('grpo', 2, [0, 0, 0, 1], [0.5, 0.5, 0.25, 1]),
      scored('seed', 1, [1, 1, 0, 1], [1, 1, 0.5, 1]),
      scored('seed', 2, [1, 0, 0, 1], [1, 0.75, 0.25, 1]),
    ],
    games,
    { env: 'shop', seeds: 2, evalSamples: 1, warm: scored('grpo', 0, [0, 0, 0, 1], [0.5, 0.25, 0.25, 1]) },
  );
}

describe('the text of the reports', () => {
  it('learn.md, learn.json and the record of a benchmark that takes most turnings', async () => {
    const o = rich();
    const r = renderLearn(o);
    await expect(machine(r.markdown)).toMatchFileSnapshot('./report_text/learn.md.txt');
    await expect(`${JSON.stringify(r.json)}\n`).toMatchFileSnapshot('./report_text/learn.json.txt');
    await expect(`${r.headline}\n\n${r.table}\n\n${r.efficiency}\n`).toMatchFileSnapshot('./report_text/stdout.txt');
    const record = buildRecord(o, r, new Date(Date.UTC(2026, 0, 2)));
    await expect(`${JSON.stringify(record)}\n`).toMatchFileSnapshot('./report_text/record.json.txt');
  });

  it('learn.md and learn.json in a world with a score', async () => {
    const r = renderLearn(shop());
    await expect(machine(r.markdown)).toMatchFileSnapshot('./report_text/learn_shop.md.txt');
    await expect(`${JSON.stringify(r.json)}\n`).toMatchFileSnapshot('./report_text/learn_shop.json.txt');
  });

  it('learn.md without GRPO, and without a distilling arm', async () => {
    const games = GAMES.slice(0, 2);
    const noGrpo = renderLearn(
      fakeOutcome([fakeResult('seed', 1, [1, 0]), fakeResult('seed-exact', 1, [0, 1])], games, {
        algos: ['seed', 'seed-exact'],
      }),
    );
    const noDistilling = renderLearn(
      fakeOutcome([fakeResult('grpo', 1, [1, 0])], games, { algos: ['grpo'], evalSamples: 1 }),
    );
    const lowGrpo = renderLearn(
      fakeOutcome([fakeResult('grpo', 1, [0, 0]), fakeResult('seed', 1, [1, 0])], games, { algos: ['grpo', 'seed'] }),
    );
    const text = [noGrpo, noDistilling, lowGrpo].map((r) => machine(r.markdown)).join('\n----\n');
    await expect(text).toMatchFileSnapshot('./report_text/learn_few_arms.md.txt');
  });

  it('learn_fractions.md and learn_fractions.json', async () => {
    const at = (fraction: number, runs: [Algo, number, number[]][]): FractionRuns => ({
      fraction,
      trainGames: fraction * 64,
      runs: runs.map(([a, s, won]) => fakeResult(a, s, won, { skipped_updates: a === 'grpo' && s === 2 ? 1 : 0 })),
    });
    const games = GAMES.slice(0, 2);
    const base = fakeOutcome([], games, {
      algos: ['grpo', 'seed-exact'],
      settings: givenSettings(['grpo', 'seed-exact']),
      resumed: 2,
      failed: [
        {
          kind: 'run',
          algo: 'seed-exact',
          seed: 2,
          lr: 5e-4,
          lambda: 0.1,
          rehearsal: 0,
          trainGames: 32,
          error: 'killed',
        },
      ],
    });
    const fractions = [
      at(0.25, [
        ['grpo', 1, [0, 0.5]],
        ['seed-exact', 1, [0.5, 0.5]],
        ['grpo', 2, [0, 0]],
        ['seed-exact', 2, [0.5, 0]],
      ]),
      at(0.5, [
        ['grpo', 1, [0.5, 0.5]],
        ['seed-exact', 1, [1, 0.5]],
        ['grpo', 2, [0, 0.5]],
      ]),
    ];
    const r = renderFractions({ ...base, fractions });
    await expect(machine(r.markdown)).toMatchFileSnapshot('./report_text/learn_fractions.md.txt');
    await expect(`${JSON.stringify(r.json)}\n`).toMatchFileSnapshot('./report_text/learn_fractions.json.txt');
    const alone = renderFractions({ ...base, fractions: [at(0.5, [['seed-exact', 1, [1, 0]]])] });
    await expect(`${alone.headline}\n`).toMatchFileSnapshot('./report_text/learn_fractions_alone.txt');
  });
});
