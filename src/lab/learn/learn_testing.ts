// Made-up results and outcomes of `bench learn` for the tests of its report, record and choices: every field
// a real job fills, with the figures the test gives.
import { defaultConfig } from '../../rl/config.ts';
import type { Algo } from '../../rl/arms.ts';
import type { JobResult } from './jobs/job.ts';
import type { LearnOutcome } from './report/report.ts';
import type { ArmSettings } from './sweeps/sweep.ts';
import { MEAN_METRIC_KEYS, type MetricMeans } from './jobs/update_means.ts';

/** A run whose final per-game outcomes on both splits are `won`; its curve goes from the warm start's 0.25 to them. */
export function fakeResult(algo: Algo, seed: number, won: number[], extra: Partial<JobResult> = {}): JobResult {
  const success = won.reduce((a, b) => a + b, 0) / won.length;
  const metrics = Object.fromEntries(MEAN_METRIC_KEYS.map((k) => [k, null])) as MetricMeans;
  return {
    algo,
    seed,
    lr: 5e-4,
    lambda: 0.1,
    opid_weight: 1e-3,
    success_seen: success,
    success_unseen: success,
    success_validation: null,
    per_type: { seen: { pick_and_place_simple: success }, unseen: { pick_and_place_simple: success } },
    curve: [
      [0, 0.25],
      [64, success],
    ],
    curve_won: [won.map(() => 0.25), won],
    wall_s: 12.3,
    won_seen: won,
    won_unseen: won,
    valid_skill_rate: null,
    skill_fidelity: null,
    mean_delta: null,
    mean_gate: null,
    corr_delta_advantage: null,
    crossgame: null,
    skipped_updates: 0,
    metric_means: metrics,
    teacher: [],
    teacher_kl: [],
    ...extra,
  };
}

/** Metric means where every metric is null but those given. */
export function metricMeans(given: Partial<MetricMeans>): MetricMeans {
  return { ...(Object.fromEntries(MEAN_METRIC_KEYS.map((k) => [k, null])) as MetricMeans), ...given };
}

/** Every arm at lr 5e-4, lambda 0.1 and no rehearsal, given. */
export function givenSettings(arms: readonly Algo[]): Map<Algo, ArmSettings> {
  return new Map(
    arms.map((a) => [
      a,
      {
        lr: 5e-4,
        lambda: 0.1,
        opidWeight: 1e-3,
        rehearsal: 0,
        how: {
          lr: 'the one rate given',
          lambda: 'the one value given',
          opidWeight: a === 'opid' ? 'the one value given' : 'no OPID term',
          rehearsal: 'the one value given',
        },
      },
    ]),
  );
}

/** A benchmark of grpo and seed on the given runs, one seed each unless the runs say otherwise, no sweep. */
export function fakeOutcome(
  runs: JobResult[],
  games: LearnOutcome['evalGames']['seen'],
  extra: Partial<LearnOutcome> = {},
): LearnOutcome {
  const algos: Algo[] = extra.algos ?? ['grpo', 'seed'];
  return {
    command: 'npm run seed -- bench learn --init bench/runs/primed/warmstart.ckpt',
    commit: null,
    init: 'bench/runs/primed/warmstart.ckpt',
    base: defaultConfig('tiny'),
    algos,
    controls: [],
    ablations: [],
    seeds: 1,
    controlSeeds: 1,
    updates: 2,
    sweepUpdates: 2,
    sweepSeeds: 2,
    evalEvery: 1,
    evalEpisodes: games.length,
    evalSamples: 2,
    lrs: [5e-4],
    lambdas: [0.1],
    opidWeights: [1e-3],
    rehearsals: [0],
    settings: givenSettings([...algos, ...(extra.controls ?? []), ...(extra.ablations ?? [])]),
    sweep: [],
    points: [],
    full: false,
    estimatedSeconds: 60,
    warm: fakeResult(
      'grpo',
      0,
      games.map(() => 0.25),
    ),
    runs,
    failed: [],
    evalGames: { seen: games, unseen: games },
    wallSeconds: 90,
    workers: 2,
    ...extra,
  };
}
