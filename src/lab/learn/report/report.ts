// The report of `bench learn`: the figures (stats/), learn.json, which holds them and the digits the intervals
// can be recomputed from, the curve plot, and learn.md, whose every sentence and table is written from those
// figures in learn_prose.ts and learn_tables.ts.
import type { EnvironmentName } from '../../../worlds/names.ts';
import { hashString, Rng } from '../../../common/rng.ts';
import type { PresetName } from '../../../model/config.ts';
import type { TrainConfig } from '../../../rl/config.ts';
import type { Algo } from '../../../rl/arms.ts';
import { commitId, type SourceCommit } from '../../../cli/provenance.ts';
import { diagnosticsJson, teacherGaps, teacherJson, teacherRows } from '../stats/diagnostics.ts';
import { differenceJson, differences, type Difference } from '../stats/differences.ts';
import { layoutClusters, SWEEP_GAMES, type EvalGame } from '../design/games.ts';
import { reportName } from '../../output.ts';
import { bestDistillingArm } from '../sweeps/headline.ts';
import { PRESET, type JobResult } from '../jobs/job.ts';
import { scoreReport } from '../stats/score.ts';
import { COLORS, curveSvg } from './plot.ts';
import {
  algoRow,
  areaByGame,
  clusterBootstrap,
  dataEfficiency,
  mean,
  meanCurve,
  type AlgoRow,
  type SplitClusters,
} from '../stats/stats.ts';
import type { ArmSettings, FailedRun, SweepEdge } from '../sweeps/sweep.ts';
import type { SweepPoint, SweepRun } from '../sweeps/sweep_points.ts';
import type { PromotedControl } from '../sweeps/promote.ts';
import { settingsJson } from './sweep_report.ts';
import { ofAlgo } from '../../../rl/arms.ts';
import { bestWhy, efficiencyText, headlineText, learnMarkdown } from './learn_prose.ts';
import { mainTable } from './learn_tables.ts';

/** Everything a finished benchmark reports; paths in it are already portable (provenance.ts). */
export interface LearnOutcome {
  /** The world the runs played; absent: the household. */
  env?: EnvironmentName;
  command: string;
  commit: SourceCommit | null;
  init: string;
  base: TrainConfig;
  /**
   * The main arms (seeds firstSeed..firstSeed+seeds-1), the controls (as many as controlSeeds from firstSeed) and
   * the ablations (seed firstSeed).
   */
  algos: Algo[];
  controls: Algo[];
  ablations: Algo[];
  seeds: number;
  controlSeeds: number;
  updates: number;
  sweepUpdates: number;
  sweepSeeds: number;
  evalEvery: number;
  evalEpisodes: number;
  evalSamples: number;
  lrs: number[];
  lambdas: number[];
  /** The OPD shares the distilling main arms' lambda grids aimed at, and each arm's grid (sweep.ts SweepPlan). */
  opdShares?: number[];
  lambdaGrids?: Readonly<Record<string, readonly number[]>>;
  /** The OPID weights swept for opid (one value: none swept). */
  opidWeights: number[];
  /** The rehearsal weights swept for each main arm (one value: every arm's, none swept). */
  rehearsals: number[];
  /** Every arm's learning rate, lambda, OPID and rehearsal weights, and how each was chosen (sweep.ts). */
  settings: Map<Algo, ArmSettings>;
  sweep: SweepRun[];
  points: SweepPoint[];
  /** The controls that led GRPO on their seeds and so ran the main arms' seeds (promote.ts); absent: none. */
  promoted?: PromotedControl[];
  /** With --pick-best: the distilling arm that ran, those dropped, and each one's validation success. */
  picked?: { best: Algo; dropped: Algo[]; success: Record<string, number> };
  /** The chosen values still at an edge of their grid (sweep.ts); absent: none. */
  edges?: SweepEdge[];
  /** Steps a sweep grid could grow past an edge; absent: none. */
  extend?: number;
  /** The first seed of every arm; absent: 1. */
  firstSeed?: number;
  /** The updates after which every run played the teacher check; absent: none scheduled. */
  teacherAt?: number[];
  /** Set by --full: more seeds than the default's budget allows, and the report says so. */
  full: boolean;
  /** The plan's estimated wall time before it ran (pool.ts, estimateSeconds). */
  estimatedSeconds: number;
  warm: JobResult;
  runs: JobResult[];
  failed: FailedRun[];
  /** The eval games in the order of every run's won_seen / won_unseen (games.ts, evalGames). */
  evalGames: { seen: EvalGame[]; unseen: EvalGame[] };
  wallSeconds: number;
  workers: number;
  /** Runs taken from an earlier invocation's store (--resume, job_store.ts); 0 or absent: every run ran here. */
  resumed?: number;
  /** The folder of the plan whose jobs ran the runs, collected by --collect (plan_collect.ts); absent: they ran here. */
  planned?: string;
  /** The model preset of the warm start; absent: the benchmark's, tiny. */
  preset?: PresetName;
}

export interface LearnReport {
  markdown: string;
  json: object;
  svg: string;
  /** The headline, the main table and the data-efficiency sentence: what the command prints on stdout. */
  headline: string;
  table: string;
  efficiency: string;
  /** Per arm, its figures with their intervals, and the differences: what a record of the runs keeps (record.ts). */
  rows: AlgoRow[];
  differences: Difference[];
  /** The distilling arm the headline compares with GRPO (picked on validation); null when no main arm distils. */
  best: Algo | null;
}

/**
 * Per eval game, in the fixed order of its split, the number of its sampled episodes won (one digit each, at
 * most 9 samples): what the intervals are recomputed from.
 */
export function wonDigits(won: number[], samples: number): string {
  return won.map((w) => String(Math.round(w * samples))).join('');
}

/** Per point of a run's curve, its games' outcomes as digits (the first and last points at evalSamples episodes per game, the others at one). */
export function curveDigits(r: JobResult, samples: number): string[] {
  return r.curve_won.map((won, i) => wonDigits(won, i === 0 || i === r.curve_won.length - 1 ? samples : 1));
}

export function renderLearn(o: LearnOutcome): LearnReport {
  const { base, warm, runs, updates, evalSamples } = o;
  const arms = [...o.algos, ...o.controls, ...o.ablations];
  const rng = new Rng(hashString('bench/learn/bootstrap'));
  const clusters: SplitClusters = {
    seen: layoutClusters(o.evalGames.seen),
    unseen: layoutClusters(o.evalGames.unseen),
  };
  const byAlgo = (a: Algo) => runs.filter(ofAlgo(a));
  const episodesPerRun = updates * base.tasksPerUpdate * base.groupSize;
  const rows = arms.map((a) => algoRow(a, byAlgo(a), clusters, rng));
  // The warm start's intervals draw from the stream after the rows' and before the differences', unseen first.
  const warmCi = (won: number[], c: number[][]) => clusterBootstrap(new Map([[0, won]]), null, c, rng).ci;
  const warmUnseen = warmCi(warm.won_unseen, clusters.unseen);
  const table = mainTable(warm, { seen: warmCi(warm.won_seen, clusters.seen), unseen: warmUnseen }, rows, o.settings);
  const diffs = differences(arms, runs, warm, clusters, rng);
  // In a world with a score (the shop), its own section beside success's; none in the household.
  const score = scoreReport(arms, runs, warm, clusters, diffs);
  const best = bestDistillingArm(o.algos, o.settings, o.points);
  const head = headlineText(best, o.settings, diffs);
  const efficiency = efficiencyText(
    best && dataEfficiency(meanCurve(byAlgo('grpo')), meanCurve(byAlgo(best.algo)), warm.success_unseen),
    best?.algo ?? '',
    episodesPerRun,
    o.algos,
  );
  const settings = settingsJson(o.settings);
  const configHash = hashString(
    JSON.stringify({
      base,
      settings,
      updates,
      seeds: o.seeds,
      evalEvery: o.evalEvery,
      evalEpisodes: o.evalEpisodes,
      ...(evalSamples > 1 ? { evalSamples } : {}),
      init: o.init,
      lrs: o.lrs,
      lambdas: o.lambdas,
      ...(o.lambdaGrids ? { opdShares: o.opdShares, lambdaGrids: o.lambdaGrids } : {}),
      ...(o.settings.has('opid') ? { opidWeights: o.opidWeights } : {}),
      ...(o.rehearsals.length > 1 ? { rehearsals: o.rehearsals } : {}),
      sweepUpdates: o.sweepUpdates,
      sweepSeeds: o.sweepSeeds,
      ...(o.controls.length ? { controls: o.controls, controlSeeds: o.controlSeeds } : {}),
    }),
  )
    .toString(16)
    .padStart(8, '0');
  const svg = curveSvg(
    arms.map((a) => ({
      label: a,
      color: COLORS[a] ?? '#333',
      curve: meanCurve(byAlgo(a)),
      seeds: byAlgo(a).map((r) => r.curve),
    })),
  );
  const corr: Record<string, number | null> = Object.fromEntries(
    rows.map((r) => [r.algo, Number.isFinite(r.corr) ? r.corr : null]),
  );
  const sources = runs
    .filter((r) => r.crossgame)
    .reduce(
      (s, r) => ({
        update: s.update + r.crossgame!.update,
        pool: s.pool + r.crossgame!.pool,
        none: s.none + r.crossgame!.none,
      }),
      { update: 0, pool: 0, none: 0 },
    );
  const markdown = learnMarkdown({
    ...o,
    arms,
    configHash,
    episodesPerRun,
    clusterCounts: { seen: clusters.seen.length, unseen: clusters.unseen.length },
    headline: head,
    table,
    efficiency,
    rows,
    teacherGaps: teacherGaps(runs),
    teacherRows: teacherRows(runs),
    differences: diffs,
    score,
    sources,
    curveFile: reportName('learn_curve', o.env),
  });
  const json = {
    preset: o.preset ?? PRESET,
    episodes_per_run: episodesPerRun,
    eval_samples: evalSamples,
    eval_games: o.evalGames,
    headline: head,
    best_distilling_arm: best && { algo: best.algo, validation: best.validation, why: bestWhy(best) },
    warmstart: {
      success_seen: warm.success_seen,
      success_unseen: warm.success_unseen,
      won_seen: wonDigits(warm.won_seen, evalSamples),
      won_unseen: wonDigits(warm.won_unseen, evalSamples),
      ...(warm.score_seen === undefined ? {} : { score_seen: warm.score_seen, score_unseen: warm.score_unseen }),
    },
    runs: runs.map((r) => ({
      algo: r.algo,
      seed: r.seed,
      lr: r.lr,
      lambda: r.lambda,
      success_seen: r.success_seen,
      success_unseen: r.success_unseen,
      auc_unseen: mean(areaByGame(r.curve, r.curve_won)),
      per_type: r.per_type,
      curve: r.curve,
      wall_s: Number(r.wall_s.toFixed(1)),
      valid_skill_rate: r.valid_skill_rate,
      skill_fidelity: r.skill_fidelity,
      mean_delta: r.mean_delta,
      mean_gate: r.mean_gate,
      corr_delta_advantage: r.corr_delta_advantage,
      crossgame: r.crossgame,
      metric_means: r.metric_means,
      teacher: r.teacher,
      skipped_updates: r.skipped_updates,
      won_seen: wonDigits(r.won_seen, evalSamples),
      won_unseen: wonDigits(r.won_unseen, evalSamples),
      curve_won_unseen: curveDigits(r, evalSamples),
      ...(r.score_seen === undefined
        ? {}
        : { score_seen: r.score_seen, score_unseen: r.score_unseen, curve_score: r.curve_score }),
    })),
    corr_delta_advantage: corr,
    diagnostics: diagnosticsJson(rows),
    teacher_checks: teacherJson(o.runs),
    differences: diffs.map(differenceJson),
    ...(score ? { score: score.json } : {}),
    failed: o.failed,
    ...(o.promoted?.length ? { promoted: o.promoted } : {}),
    settings,
    sweep: {
      seeds: o.sweepSeeds,
      updates: o.sweepUpdates,
      games: SWEEP_GAMES,
      extend: o.extend ?? 0,
      ...(o.lambdaGrids ? { opd_shares: o.opdShares, lambda_grids: o.lambdaGrids } : {}),
      runs: o.sweep,
      points: o.points,
      edges: o.edges ?? [],
      ...(o.picked ? { picked: o.picked } : {}),
    },
    first_seed: o.firstSeed ?? 1,
    teacher_at: o.teacherAt ?? [],
    full: o.full,
    config_hash: configHash,
    commit: commitId(o.commit),
    command: o.command,
    wall_s: Number(o.wallSeconds.toFixed(1)),
    estimated_s: Math.round(o.estimatedSeconds),
    ...(o.resumed ? { resumed_runs: o.resumed } : {}),
    ...(o.planned ? { planned: o.planned } : {}),
  };
  return { markdown, json, svg, headline: head, table, efficiency, rows, differences: diffs, best: best?.algo ?? null };
}
