// What `bench learn` runs, in order: the sweeps that choose each arm's settings on the validation-unseen games (sweep.ts),
// then either the main benchmark (the warm start's evaluation, the main arms, the controls and the ablations)
// or the data-fraction runs (grpo and each main distilling arm at each fraction of the training games). Jobs
// go to a Runner (child processes in the command, in-process or made up in tests); the estimate of a plan's
// wall time comes from the same job lists.
import type { PresetName } from '../../model/config.ts';
import { episodeUpdates } from '../../rl/recorded_run.ts';
import type { TrainConfig } from '../../rl/config.ts';
import type { Algo } from '../../rl/arms.ts';
import { printable } from '../../common/json.ts';
import { CliError } from '../../cli/cli_error.ts';
import { SWEEP_SEED, type Job, type JobResult } from './jobs/job.ts';
import { estimateSeconds } from './jobs/pool.ts';
import { controlsLeadingGrpo, type PromotedControl } from './sweeps/promote.ts';
import {
  chooseSettings,
  failedRun,
  lambdaGridOf,
  type ArmSettings,
  type Chosen,
  type FailedRun,
  type MakeJob,
  type Runner,
  type SweepPlan,
} from './sweeps/sweep.ts';
import { namedWorld } from '../../worlds/names.ts';
import { distils, isBaseline, usesOpidWeight } from '../../rl/arms.ts';
import type { FractionRuns } from './stats/fractions.ts';

export interface LearnPlan extends SweepPlan {
  /** The first seed of every arm: main arms run seeds firstSeed..firstSeed+seeds-1, controls as many as controlSeeds. */
  firstSeed?: number;
  seeds: number;
  controlSeeds: number;
  /** The updates after which every run plays the teacher check (0: before the first); absent: none. */
  teacherAt?: number[];
  updates: number;
  evalEvery: number;
  evalEpisodes: number;
  evalSamples: number;
  init: string;
  /** The model preset of `init`: the benchmark's, or the micro preset in tests. */
  preset?: PresetName;
  workers: number;
  /** Keep each arm's first seed's episodes for a record of the runs (--record). */
  record: boolean;
  /** Data fractions to run instead of the main benchmark; empty for the main benchmark. */
  fractions: number[];
}

export interface RunsOutcome extends Chosen {
  warm: JobResult;
  /** The main benchmark's runs (empty for a fraction sweep). */
  runs: JobResult[];
  /** The fraction sweep's runs by fraction (empty for the main benchmark). */
  fractions: FractionRuns[];
  /** The controls that led GRPO and so ran the main arms' seeds (promote.ts). */
  promoted: PromotedControl[];
}

function jobMaker(plan: LearnPlan): MakeJob {
  return (kind, algo, seed, updates, config) => ({
    kind,
    algo,
    seed,
    updates,
    config,
    init: plan.init,
    evalEvery: plan.evalEvery,
    evalEpisodes: plan.evalEpisodes,
    evalSamples: plan.evalSamples,
    ...(plan.preset ? { preset: plan.preset } : {}),
    ...(plan.env && namedWorld(plan.env) ? { env: plan.env } : {}),
    // A recorded benchmark keeps the episodes of each arm's first seed.
    ...(plan.record && kind === 'run'
      ? { record: { episodeUpdates: seed === (plan.firstSeed ?? 1) ? episodeUpdates(updates, plan.evalEvery) : [] } }
      : {}),
    ...(kind === 'run' && plan.teacherAt?.length ? { teacherAt: plan.teacherAt.filter((u) => u <= updates) } : {}),
  });
}

/** The training games of a run at data fraction f: that share of the tasks the run plays, at least one. */
export function fractionGames(plan: Pick<LearnPlan, 'updates' | 'base'>, fraction: number): number {
  return Math.max(1, Math.round(fraction * plan.updates * plan.base.tasksPerUpdate));
}

/** The arms of the data-fraction runs: grpo and every main arm that distils. */
function fractionArms(algos: readonly Algo[]): Algo[] {
  return algos.filter((a) => isBaseline(a) || distils(a));
}

const configOf = (plan: LearnPlan, settings: ReadonlyMap<Algo, ArmSettings>, a: Algo): TrainConfig => {
  const { lr, lambda, opidWeight, rehearsal } = settings.get(a)!;
  return { ...plan.base, lr, lambda, opidWeight, rehearsal };
};

/** The warm start's evaluation, then the runs of the main benchmark or of every fraction, tagged with their fraction. */
function runJobs(plan: LearnPlan, settings: ReadonlyMap<Algo, ArmSettings>): { job: Job; fraction: number | null }[] {
  const job = jobMaker(plan);
  const jobs: { job: Job; fraction: number | null }[] = [
    { job: job('warmstart', 'grpo', 0, 0, plan.base), fraction: null },
  ];
  const add = (a: Algo, seed: number, fraction: number | null, config = configOf(plan, settings, a)) =>
    jobs.push({ job: job('run', a, seed, plan.updates, config), fraction });
  const first = plan.firstSeed ?? 1;
  if (plan.fractions.length) {
    for (const f of plan.fractions)
      for (let s = first; s < first + plan.seeds; s++)
        for (const a of fractionArms(plan.algos))
          add(a, s, f, { ...configOf(plan, settings, a), trainGames: fractionGames(plan, f) });
    return jobs;
  }
  for (let s = first; s < first + plan.seeds; s++) for (const a of plan.algos) add(a, s, null);
  for (let s = first; s < first + plan.controlSeeds; s++) for (const a of plan.controls) add(a, s, null);
  for (const a of plan.ablations) add(a, first, null);
  return jobs;
}

/** The plan whose arms' settings are chosen: the data fractions run only grpo and the main arms that distil. */
const sweptPlan = (plan: LearnPlan): LearnPlan =>
  plan.fractions.length ? { ...plan, algos: fractionArms(plan.algos) } : plan;

/** The estimated wall seconds of the whole plan: its sweeps, one after the other, then its runs. */
export function estimatePlan(whole: LearnPlan): number {
  const plan = sweptPlan(whole);
  const job = jobMaker(plan);
  const seeds = Array.from({ length: plan.sweepSeeds }, (_, i) => SWEEP_SEED + i);
  const sweep = (arms: Algo[], valuesOf: (a: Algo) => readonly number[]) =>
    arms.flatMap((a) => valuesOf(a).flatMap(() => seeds.map((s) => job('sweep', a, s, plan.sweepUpdates, plan.base))));
  const lr = plan.lrs.length > 1 ? sweep(plan.algos, () => plan.lrs) : [];
  const lambda = sweep(
    plan.algos.filter(distils).filter((a) => lambdaGridOf(plan, a).length > 1),
    (a) => lambdaGridOf(plan, a),
  );
  const arms = [...plan.algos, ...plan.controls, ...plan.ablations];
  const opidWeight = plan.opidWeights.length > 1 ? sweep(arms.filter(usesOpidWeight), () => plan.opidWeights) : [];
  const rehearsal = plan.rehearsals.length > 1 ? sweep(plan.algos, () => plan.rehearsals) : [];
  const settings = new Map(
    arms.map((a) => [
      a,
      {
        lr: plan.lrs[0],
        lambda: plan.base.lambda,
        opidWeight: plan.base.opidWeight,
        rehearsal: plan.rehearsals[0],
        how: { lr: '', lambda: '', opidWeight: '', rehearsal: '' },
      },
    ]),
  );
  const runs = runJobs(plan, settings).map((j) => j.job);
  return [lr, lambda, rehearsal, opidWeight, runs].reduce(
    (t, jobs) => t + (jobs.length ? estimateSeconds(jobs, plan.workers) : 0),
    0,
  );
}

/** Chooses the settings, then runs the main benchmark or the fractions. */
export async function runPlan(plan: LearnPlan, run: Runner, log: (s: string) => void): Promise<RunsOutcome> {
  const chosen = await chooseSettings(sweptPlan(plan), jobMaker(plan), run, log);
  // --pick-best: only the best distilling arm of the sweeps runs, with its controls.
  const ran = plan.pickBest ? { ...plan, algos: chosen.algos, controls: chosen.controls } : plan;
  const jobs = runJobs(ran, chosen.settings);
  const what = plan.fractions.length ? ` at data fractions ${plan.fractions.join(', ')}` : '';
  const runCount = jobs.length - 1;
  log(
    `${runCount} run${runCount === 1 ? '' : 's'} of ${plan.updates} updates (${plan.base.tasksPerUpdate} x ${plan.base.groupSize} episodes each)${what}, ${plan.workers} worker${plan.workers === 1 ? '' : 's'}`,
  );
  const outcomes = await run(jobs.map((j) => j.job));
  const warm = outcomes[0].result;
  if (!warm) throw new CliError(`the warm start's evaluation failed: ${printable(outcomes[0].error ?? '')}`);
  const failed: FailedRun[] = [...chosen.failed];
  const runs: JobResult[] = [];
  const fractions: FractionRuns[] = plan.fractions.map((fraction) => ({
    fraction,
    trainGames: fractionGames(plan, fraction),
    runs: [],
  }));
  // Every curve starts at the warm start: its success and, per game, its outcomes (and scores, in a world with a score).
  const fromWarmStart = (o: (typeof outcomes)[number]): JobResult | null => {
    if (!o.result) {
      failed.push(failedRun(o.job, o.error));
      return null;
    }
    o.result.curve.unshift([0, warm.success_unseen]);
    o.result.curve_won.unshift(warm.won_unseen);
    o.result.curve_score?.unshift(warm.score_unseen!);
    o.result.curve_scores?.unshift(warm.scores_unseen!);
    return o.result;
  };
  outcomes.slice(1).forEach((o, i) => {
    const result = fromWarmStart(o);
    if (!result) return;
    const fraction = jobs[i + 1].fraction;
    (fraction === null ? runs : fractions.find((f) => f.fraction === fraction)!.runs).push(result);
  });
  const promoted = plan.fractions.length
    ? []
    : await promoteControls(ran, chosen.settings, runs, run, log, fromWarmStart);
  return { ...chosen, failed, warm, runs, fractions, promoted };
}

/**
 * The controls that lead GRPO (promote.ts) run the seeds of the main arms they have not run; their results join
 * `runs`. None when the controls already run as many seeds as the main arms.
 */
async function promoteControls(
  plan: LearnPlan,
  settings: ReadonlyMap<Algo, ArmSettings>,
  runs: JobResult[],
  run: Runner,
  log: (s: string) => void,
  fromWarmStart: (o: Awaited<ReturnType<Runner>>[number]) => JobResult | null,
): Promise<PromotedControl[]> {
  if (plan.controlSeeds >= plan.seeds) return [];
  const promoted = controlsLeadingGrpo(plan.controls, runs);
  if (promoted.length === 0) return [];
  const job = jobMaker(plan);
  const first = plan.firstSeed ?? 1;
  const jobs = promoted.flatMap((p) =>
    Array.from({ length: plan.seeds - plan.controlSeeds }, (_, k) =>
      job('run', p.algo, first + plan.controlSeeds + k, plan.updates, configOf(plan, settings, p.algo)),
    ),
  );
  for (const p of promoted)
    log(
      `${p.algo} leads grpo on eval-unseen by ${(100 * p.lead).toFixed(1)} points over seeds ${p.seeds.join(', ')}: it runs the main arms' seeds too`,
    );
  for (const o of await run(jobs)) {
    const result = fromWarmStart(o);
    if (result) runs.push(result);
  }
  return promoted;
}
