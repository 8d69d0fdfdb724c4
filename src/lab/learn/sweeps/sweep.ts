// The settings of each arm of `bench learn`, chosen on the validation-unseen games only (SWEEP_GAMES: games of
// what training holds out that no eval set holds, so that each setting is chosen for the games the headline
// reports, on none of them): a learning-rate sweep over
// the main arms (when more than one rate is given), then a lambda sweep over the main arms that distil
// (when more than one lambda is given), then a sweep of the rehearsal weight over the main arms (when more
// than one weight is given), each at the settings chosen before it; each value run on `sweepSeeds` seeds (SWEEP_SEED, SWEEP_SEED + 1, ...)
// that no main run draws; the value with the best mean success on those games wins. A best value at an edge of
// the grid says only that the best may lie beyond it: the arm's grid then grows by one step past that edge
// (the ratio of its last two values) and the new value runs, until the best lies inside or `extend` steps
// were taken (each arm on its own). With pickBest only the distilling main arm best on them goes on.
// Controls and ablations take the settings of the main arm they vary (arms.ts); sweep_report.ts reports all this.
import type { EnvironmentName } from '../../../worlds/names.ts';
import type { TrainConfig } from '../../../rl/config.ts';
import { printable } from '../../../common/json.ts';
import {
  armOf,
  isPartArm,
  partControl,
  skillPartOf,
  type Algo,
  distils,
  usesOpidWeight,
  ofAlgo,
} from '../../../rl/arms.ts';
import { CliError } from '../../../cli/cli_error.ts';
import { opdShareOfNorms } from '../../../rl/opd_share.ts';
import { settingsSource } from '../design/arms.ts';
import { SWEEP_GAMES } from '../design/games.ts';
import { SWEEP_SEED, type Job, type JobResult } from '../jobs/job.ts';
import type { JobOutcome } from '../jobs/pool.ts';
import { bestPoint, pastEdge, sweepPoints, type SweepParam, type SweepPoint, type SweepRun } from './sweep_points.ts';

/**
 * An arm's learning rate, lambda, OPID weight and rehearsal weight, and how each was chosen (one phrase each, for
 * the report).
 */
export interface ArmSettings {
  lr: number;
  lambda: number;
  /** The weight of Delta in opid's advantage, A + opidWeight * Delta (unused by every other arm). */
  opidWeight: number;
  /** The weight of the rehearsal term of the warm start's skill examples (rl/rehearsal.ts; 0: none). */
  rehearsal: number;
  how: { lr: string; lambda: string; opidWeight: string; rehearsal: string };
}

/** A job that gave no result, and why. */
export interface FailedRun {
  kind: 'run' | 'sweep';
  algo: Algo;
  seed: number;
  lr: number;
  lambda: number;
  rehearsal: number;
  /** The training games of a data-fraction run; 0 for a run that draws a fresh game for every task. */
  trainGames: number;
  error: string;
}

export function failedRun(job: Job, error: string): FailedRun {
  const { lr, lambda, rehearsal, trainGames } = job.config;
  return {
    kind: job.kind === 'sweep' ? 'sweep' : 'run',
    algo: job.algo,
    seed: job.seed,
    lr,
    lambda,
    rehearsal,
    trainGames,
    error,
  };
}

/** What the sweeps need to know of the benchmark. */
export interface SweepPlan {
  algos: Algo[];
  controls: Algo[];
  ablations: Algo[];
  base: TrainConfig;
  lrs: number[];
  /** The lambdas given (--lambdas, --set lambda); empty when each arm's grid is stated by OPD shares (lambdaGrids). */
  lambdas: number[];
  /**
   * The OPD shares of the gradient each distilling main arm's lambda grid aims at (--opd-shares), and per such arm
   * the grid they give in the plan's world (design/lambda_grid.ts); absent when the lambdas were given.
   */
  opdShares?: number[];
  lambdaGrids?: Readonly<Record<string, readonly number[]>>;
  /** OPID weights swept for the opid arm, main arm or ablation (one value: no sweep). */
  opidWeights: number[];
  /** Rehearsal weights swept for each main arm (one value: every arm's, no sweep). */
  rehearsals: number[];
  sweepSeeds: number;
  sweepUpdates: number;
  /** Steps a grid may grow past an edge that holds its best value, per arm and setting; absent: none. */
  extend?: number;
  /** Only the distilling main arm best on validation runs (its controls take the dropped arms' controls' place). */
  pickBest?: boolean;
  /** The world the benchmark plays; absent: the household. */
  env?: EnvironmentName;
}

export type MakeJob = (kind: Job['kind'], algo: Algo, seed: number, updates: number, config: TrainConfig) => Job;
export type Runner = (jobs: Job[]) => Promise<JobOutcome[]>;

export interface Chosen {
  settings: Map<Algo, ArmSettings>;
  /** The main arms that run, and the controls: the plan's, or with --pick-best the best distilling arm's. */
  algos: Algo[];
  controls: Algo[];
  /** With --pick-best: the distilling main arm that runs, the ones dropped and each one's validation success. */
  picked?: { best: Algo; dropped: Algo[]; success: Record<string, number> };
  sweep: SweepRun[];
  points: SweepPoint[];
  failed: FailedRun[];
  /** The chosen values that still sit at an edge of their arm's grid once it stopped growing. */
  edges: SweepEdge[];
}

/** A chosen value at an edge of its grid: the best may lie beyond what was tried. */
export interface SweepEdge {
  param: SweepParam;
  algo: Algo;
  value: number;
}

/** The lambdas `algo` sweeps: its own grid by OPD share, or the lambdas given. */
export function lambdaGridOf(plan: Pick<SweepPlan, 'lambdas' | 'lambdaGrids'>, algo: Algo): readonly number[] {
  return plan.lambdaGrids?.[algo] ?? plan.lambdas;
}

/** Whether the plan sweeps lambda: a distilling main arm has more than one value to choose from. */
export function sweepsLambda(plan: Pick<SweepPlan, 'algos' | 'lambdas' | 'lambdaGrids'>): boolean {
  return plan.algos.filter(distils).some((a) => lambdaGridOf(plan, a).length > 1);
}

const sweepRun = (param: SweepParam, job: Job, r: JobResult): SweepRun => ({
  param,
  algo: r.algo,
  seed: r.seed,
  lr: r.lr,
  lambda: r.lambda,
  opidWeight: r.opid_weight,
  rehearsal: job.config.rehearsal,
  success_validation: r.success_validation!,
  grad_norm_ratio: r.metric_means.gradNormRatio,
  grad_norm_grpo: r.metric_means.gradNormGrpo,
  grad_norm_opd: r.metric_means.gradNormOpd,
  opd_share:
    r.metric_means.gradNormGrpo === null || r.metric_means.gradNormOpd === null
      ? null
      : opdShareOfNorms(r.metric_means.gradNormGrpo, r.metric_means.gradNormOpd),
});

/**
 * Runs the sweeps the plan asks for and settles every arm's learning rate, lambda, OPID and rehearsal weights. A sweep run that fails
 * is listed; an arm none of whose sweep runs finished leaves nothing to choose from, and stops the benchmark.
 */
export async function chooseSettings(
  plan: SweepPlan,
  job: MakeJob,
  run: Runner,
  log: (s: string) => void,
): Promise<Chosen> {
  const { algos, base, lrs, lambdas, rehearsals, sweepSeeds, sweepUpdates } = plan;
  const settings = new Map<Algo, ArmSettings>();
  const sweep: SweepRun[] = [];
  const points: SweepPoint[] = [];
  const failed: FailedRun[] = [];
  const edges: SweepEdge[] = [];
  const seeds = Array.from({ length: sweepSeeds }, (_, i) => SWEEP_SEED + i);
  const sweepOver = async (
    param: SweepParam,
    arms: Algo[],
    valuesOf: (a: Algo) => readonly number[],
    config: (a: Algo, value: number) => TrainConfig,
  ) => {
    const given = arms.map((a) => valuesOf(a).join(', '));
    const what = given.every((v) => v === given[0])
      ? `${given[0]} x ${arms.join(', ')}`
      : arms.map((a, i) => `${a} ${given[i]}`).join('; ');
    log(
      `${param} sweep: ${what}, ${seeds.length} seeds x ${sweepUpdates} update${sweepUpdates === 1 ? '' : 's'} each, scored on the ${SWEEP_GAMES} games`,
    );
    const runValues = async (grids: ReadonlyMap<Algo, readonly number[]>) => {
      const outcomes = await run(
        [...grids].flatMap(([a, vs]) =>
          vs.flatMap((v) => seeds.map((s) => job('sweep', a, s, sweepUpdates, config(a, v)))),
        ),
      );
      for (const o of outcomes) {
        if (o.result) sweep.push(sweepRun(param, o.job, o.result));
        else failed.push(failedRun(o.job, o.error));
      }
    };
    const grids = new Map(arms.map((a) => [a, [...valuesOf(a)].sort((x, y) => x - y)]));
    await runValues(new Map(arms.map((a) => [a, valuesOf(a)])));
    const bestOf = (a: Algo) => {
      const best = bestPoint(sweepPoints(sweep, param, a, grids.get(a)!));
      if (!best)
        throw new CliError(
          `every ${param} sweep run of ${a} failed (${printable(failed.find(ofAlgo(a))?.error ?? '')}): no ${param} to choose`,
        );
      return best.value;
    };
    for (let step = 0; step < (plan.extend ?? 0); step++) {
      const next = new Map<Algo, number[]>();
      for (const a of arms) {
        const beyond = pastEdge(grids.get(a)!, bestOf(a), param);
        if (beyond !== null) next.set(a, [beyond]);
      }
      if (next.size === 0) break;
      log(
        `${param} sweep: best at an edge of the grid, one step past it: ${[...next].map(([a, [v]]) => `${a} ${v}`).join(', ')}`,
      );
      for (const [a, [v]] of next)
        grids.set(
          a,
          [...grids.get(a)!, v].sort((x, y) => x - y),
        );
      await runValues(next);
    }
    return new Map(
      arms.map((a) => {
        const grid = grids.get(a)!;
        const best = bestOf(a);
        points.push(...sweepPoints(sweep, param, a, grid));
        if (grid.length > 1 && (best === grid[0] || best === grid[grid.length - 1]))
          edges.push({ param, algo: a, value: best });
        return [a, best];
      }),
    );
  };
  const sweepHow = `best mean ${SWEEP_GAMES} success of ${sweepSeeds} seeds per value`;
  const lrOf =
    lrs.length > 1
      ? await sweepOver(
          'lr',
          algos,
          () => lrs,
          (_, lr) => ({ ...base, lr, lambda: lambdaDuringLrSweep(plan) }),
        )
      : null;
  const opidHow = (a: Algo) =>
    usesOpidWeight(a) ? (plan.opidWeights.length > 1 ? sweepHow : 'the one value given') : 'no OPID term';
  for (const a of algos)
    settings.set(a, {
      lr: lrOf?.get(a) ?? lrs[0],
      lambda: base.lambda,
      opidWeight: base.opidWeight,
      rehearsal: base.rehearsal,
      how: {
        lr: lrOf ? sweepHow : 'the one rate given',
        lambda: '',
        opidWeight: opidHow(a),
        rehearsal: 'the one value given',
      },
    });
  const distilling = algos.filter(distils);
  const swept = distilling.filter((a) => lambdaGridOf(plan, a).length > 1);
  const lambdaOf = swept.length
    ? await sweepOver(
        'lambda',
        swept,
        (a) => lambdaGridOf(plan, a),
        (a, lambda) => ({ ...base, lr: settings.get(a)!.lr, lambda }),
      )
    : null;
  for (const a of algos) {
    const s = settings.get(a)!;
    if (!distils(a)) s.how.lambda = 'no distillation term';
    else if (lambdaOf?.has(a)) {
      s.lambda = lambdaOf.get(a)!;
      s.how.lambda = sweepHow;
    } else {
      s.lambda = lambdaGridOf(plan, a)[0];
      s.how.lambda = plan.lambdaGrids?.[a] ? 'the one OPD share given' : 'the one value given';
    }
  }
  // Rehearsal keeps the teacher's skill context trained, which may help one arm and not another: each main arm
  // takes the weight best for it, at its chosen rate and lambda.
  const rehearsalOf =
    rehearsals.length > 1
      ? await sweepOver(
          'rehearsal',
          algos,
          () => rehearsals,
          (a, rehearsal) => ({ ...base, lr: settings.get(a)!.lr, lambda: settings.get(a)!.lambda, rehearsal }),
        )
      : null;
  for (const a of algos) {
    const s = settings.get(a)!;
    s.rehearsal = rehearsalOf?.get(a) ?? rehearsals[0];
    if (rehearsalOf) s.how.rehearsal = sweepHow;
  }
  const picked = plan.pickBest ? pickBest(plan, settings, points) : null;
  const mains = picked ? algos.filter((a) => !picked.dropped.includes(a)) : algos;
  const controls = picked ? plan.controls.map((a) => asControlOf(a, picked.best, picked.dropped)) : plan.controls;
  if (picked)
    log(
      `best distilling arm on ${SWEEP_GAMES}: ${picked.best}; ${picked.dropped.join(', ')} run${picked.dropped.length === 1 ? 's' : ''} no more`,
    );
  for (const a of [...new Set(controls)].filter((c) => !mains.includes(c)).concat(plan.ablations)) {
    const source = settingsSource(a, mains);
    const from = source ? settings.get(source)! : null;
    settings.set(a, {
      lr: from?.lr ?? lrs[0],
      lambda: from?.lambda ?? (lambdas.length === 1 ? lambdas[0] : base.lambda),
      opidWeight: base.opidWeight,
      rehearsal: from?.rehearsal ?? rehearsals[0],
      how: {
        lr: source ? `${source}'s` : 'the first rate given',
        lambda: !distils(a)
          ? 'no distillation term'
          : source
            ? `${source}'s`
            : lambdas.length === 1
              ? 'the one value given'
              : "the preset's (no main arm distils)",
        opidWeight: opidHow(a),
        rehearsal: source ? `${source}'s` : rehearsals.length === 1 ? 'the one value given' : 'the first value given',
      },
    });
  }
  // opid's weight plays the part lambda plays for a distilling arm, so it is chosen the same way, at the
  // learning rate opid runs at, whether opid is a main arm or an ablation.
  const opid = [...settings.keys()].filter(usesOpidWeight);
  if (opid.length) {
    const weightOf =
      plan.opidWeights.length > 1
        ? await sweepOver(
            'opidWeight',
            opid,
            () => plan.opidWeights,
            (a, opidWeight) => ({
              ...base,
              lr: settings.get(a)!.lr,
              rehearsal: settings.get(a)!.rehearsal,
              opidWeight,
            }),
          )
        : null;
    for (const a of opid) settings.get(a)!.opidWeight = weightOf?.get(a) ?? plan.opidWeights[0];
  }
  for (const a of picked?.dropped ?? []) settings.delete(a);
  return {
    settings,
    sweep,
    points,
    failed,
    edges,
    algos: mains,
    controls: [...new Set(controls)].filter((c) => !mains.includes(c)),
    ...(picked ? { picked: { best: picked.best, dropped: picked.dropped, success: picked.success } } : {}),
  };
}

/**
 * Of the distilling main arms, the one whose chosen settings scored best on SWEEP_GAMES (the sweep point of its
 * chosen rehearsal weight, the last one swept at all its other settings; else of its chosen lambda; else of its
 * chosen rate); every other distilling main arm is dropped.
 * Refuses a plan whose sweeps leave nothing to compare.
 */
function pickBest(
  plan: SweepPlan,
  settings: ReadonlyMap<Algo, ArmSettings>,
  points: readonly SweepPoint[],
): { best: Algo; dropped: Algo[]; success: Record<string, number> } {
  const distilling = plan.algos.filter(distils);
  if (distilling.length < 2)
    throw new CliError(`--pick-best needs two distilling main arms, got ${distilling.join(', ') || 'none'}`, 2);
  const success: Record<string, number> = {};
  for (const a of distilling) {
    const s = settings.get(a)!;
    const point =
      points.filter(ofAlgo(a)).find((p) => p.param === 'rehearsal' && p.value === s.rehearsal) ??
      points.filter(ofAlgo(a)).find((p) => p.param === 'lambda' && p.value === s.lambda) ??
      points.filter(ofAlgo(a)).find((p) => p.param === 'lr' && p.value === s.lr);
    if (!point)
      throw new CliError(
        `--pick-best compares the arms' sweeps on the ${SWEEP_GAMES} games: sweep lambda, the learning rate or the rehearsal weight`,
        2,
      );
    success[a] = point.success;
  }
  const best = distilling.reduce((x, y) => (success[y] > success[x] ? y : x));
  return { best, dropped: distilling.filter((a) => a !== best), success };
}

/** A control of a dropped arm as the same control of the best arm (seed-procedure for seed-exact-procedure). */
function asControlOf(control: Algo, best: Algo, dropped: readonly Algo[]): Algo {
  const part = skillPartOf(control);
  if (part === null || !dropped.includes(armOf(control)) || !isPartArm(best)) return control;
  return partControl(best, part);
}

/** The lambda of the learning-rate sweep's runs: the one value given, else the preset's. */
export function lambdaDuringLrSweep(plan: SweepPlan): number {
  return plan.lambdas.length === 1 ? plan.lambdas[0] : plan.base.lambda;
}
