// The report of `bench learn`: the markdown page (headline, tables, diagnostics, paired differences, failed
// and refused runs, data efficiency, sweeps, settings, curves), the JSON the intervals can be recomputed from,
// and the curve plot.
import type { EnvironmentName } from '../../../worlds/names.ts';
import { cpus } from 'node:os';
import { hashString, Rng } from '../../../common/rng.ts';
import { printable } from '../../../common/json.ts';
import type { PresetName } from '../../../model/config.ts';
import type { TrainConfig } from '../../../rl/config.ts';
import type { Algo } from '../../../rl/arms.ts';
import { commitId, commitText, type SourceCommit } from '../../../cli/provenance.ts';
import { diagnosticsJson, diagnosticsTable, teacherJson, teacherTable, teacherText } from '../stats/diagnostics.ts';
import { differenceJson, differences, differenceTable, seedOnlyTable, type Difference } from '../stats/differences.ts';
import { factsOf, theWorld } from '../../../worlds/facts.ts';
import { namedWorld, worldOrDefault } from '../../../worlds/names.ts';
import { layoutClusters, reportName, type EvalGame } from '../plan/games.ts';
import { bestDistillingArm, headline } from '../stats/headline.ts';
import { PRESET, type JobResult } from '../jobs/job.ts';
import { scoreReport } from '../stats/score.ts';
import { COLORS, curveSvg } from './plot.ts';
import {
  algoRow,
  AREA_NOTE,
  areaByGame,
  BOOTSTRAP_REPLICATES,
  clusterBootstrap,
  dataEfficiency,
  mean,
  meanCurve,
  pct,
  type AlgoRow,
  type SplitClusters,
} from '../stats/stats.ts';
import { DEFAULT_BUDGET_MINUTES } from '../jobs/pool.ts';
import type { ArmSettings, FailedRun, SweepEdge, SweepPoint, SweepRun } from '../sweeps/sweep.ts';
import { promotedText, type PromotedControl } from '../sweeps/promote.ts';
import { settingsJson, sweepSection } from './sweep_report.ts';
import { distils, usesOpidWeight, ARMS, ofAlgo } from '../../../rl/arms.ts';

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
  /** The OPID weights swept for opid (one value: none swept). */
  opidWeights: number[];
  /** Every arm's learning rate, lambda and OPID weight, and how each was chosen (sweep.ts). */
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

/** What a report's provenance line needs: the same in the main report and the fractions'. */
type RunFacts = Pick<LearnOutcome, 'commit' | 'wallSeconds' | 'workers' | 'estimatedSeconds' | 'resumed' | 'planned'>;

/** The line under a report's command: commit, configuration, wall time, and the runs an earlier invocation ran. */
export function provenanceLine(o: RunFacts, configHash: string): string {
  const minutes = (seconds: number) => (seconds / 60).toFixed(1);
  const resumed = o.resumed
    ? ` ${o.resumed} of the runs were taken from an earlier invocation of this command at this commit (--resume); their wall times in the table are those they took then.`
    : '';
  const planned = o.planned
    ? ` The runs ran as the jobs of a plan (${o.planned}, one command per job, on whatever machines ran them) and were collected here: the wall time is the collection's, and each run's own is in the table.`
    : '';
  return `Commit: ${commitText(o.commit)}; configuration hash ${configHash}; wall time ${minutes(o.wallSeconds)} min on ${cpus().length} cores (${o.workers} workers; estimated ${minutes(o.estimatedSeconds)} min before it ran).${resumed}${planned}`;
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

const interval = (ci: [number, number]) => `[${pct(ci[0])}, ${pct(ci[1])}]`;
const fixed = (x: number, digits: number) => (Number.isFinite(x) ? x.toFixed(digits) : 'n/a');

function mainTable(
  warm: JobResult,
  rows: AlgoRow[],
  settings: ReadonlyMap<Algo, ArmSettings>,
  clusters: SplitClusters,
  rng: Rng,
): string {
  const warmCi = (won: number[], c: number[][]) => interval(clusterBootstrap(new Map([[0, won]]), null, c, rng).ci);
  const unseen = `${pct(warm.success_unseen)} ${warmCi(warm.won_unseen, clusters.unseen)}`;
  const lambda = (a: Algo) =>
    distils(a)
      ? String(settings.get(a)?.lambda ?? 'n/a')
      : usesOpidWeight(a)
        ? `opid weight ${settings.get(a)?.opidWeight ?? 'n/a'}`
        : '-';
  return [
    '| algorithm | seeds | lr | lambda or OPID weight | eval-seen % [95% CI] | eval-unseen % [95% CI] | eval-unseen area under the curve % [95% CI] | wall s/run |',
    '|---|---|---|---|---|---|---|---|',
    `| warm start | - | - | - | ${pct(warm.success_seen)} ${warmCi(warm.won_seen, clusters.seen)} | ${unseen} | ${unseen} | - |`,
    ...rows.map(
      (r) =>
        `| ${r.algo} | ${r.seeds} | ${r.lr} | ${lambda(r.algo)} | ${pct(r.seen)} ${interval(r.seenCi)} | ${pct(r.unseen)} ${interval(r.unseenCi)} | ${pct(r.auc)} ${interval(r.aucCi)} | ${fixed(r.wall, 0)} |`,
    ),
  ].join('\n');
}

function typeTable(warm: JobResult, rows: AlgoRow[]): string {
  const types = Object.keys(warm.per_type.seen).sort();
  return [
    `| task type | warm start seen / unseen | ${rows.map((r) => `${r.algo} seen / unseen`).join(' | ')} |`,
    `|---|---|${rows.map(() => '---').join('|')}|`,
    ...types.map(
      (t) =>
        `| ${t} | ${pct(warm.per_type.seen[t])} / ${pct(warm.per_type.unseen[t] ?? NaN)} | ${rows.map((r) => `${pct(r.perType[t]?.seen ?? NaN)} / ${pct(r.perType[t]?.unseen ?? NaN)}`).join(' | ')} |`,
    ),
  ].join('\n');
}

/** The runs that gave no result, and those some of whose updates were refused (non-finite values). */
export function failureSection(failed: readonly FailedRun[], runs: readonly JobResult[], updates: number): string {
  const lines = [
    ...failed.map(
      (f) =>
        `- ${f.algo} seed ${f.seed} (${f.kind === 'sweep' ? 'sweep run, ' : ''}lr ${f.lr}${distils(f.algo) ? `, lambda ${f.lambda}` : ''}${f.trainGames > 0 ? `, ${f.trainGames} training games` : ''}): failed, no result: ${printable(f.error)}`,
    ),
    ...runs
      .filter((r) => r.skipped_updates > 0)
      .map(
        (r) =>
          `- ${r.algo} seed ${r.seed}: ${r.skipped_updates} of ${updates} updates refused for a non-finite loss or gradient (the weights kept their last good values)`,
      ),
  ];
  if (lines.length === 0) return 'None: every run finished, and no update was refused.';
  const note =
    'A failed run is left out of the tables and of every difference, which pairs only the seeds both of its arms finished.';
  return [...(failed.length ? [note, ''] : []), ...lines].join('\n');
}

function armsText(o: LearnOutcome, arms: readonly Algo[]): string {
  const crossgame = o.runs.filter((r) => r.crossgame);
  const sources = crossgame.reduce(
    (s, r) => ({
      update: s.update + r.crossgame!.update,
      pool: s.pool + r.crossgame!.pool,
      none: s.none + r.crossgame!.none,
    }),
    { update: 0, pool: 0, none: 0 },
  );
  const total = sources.update + sources.pool + sources.none;
  const seeds = (k: number) => `${k} seed${k === 1 ? '' : 's'}`;
  return [
    ...arms.map((a) => `- ${a}: ${ARMS[a].note}`),
    '',
    `The main arms (${o.algos.join(', ') || 'none'}) ran ${seeds(o.seeds)} each, the controls (${o.controls.join(', ') || 'none'}) ${seeds(o.controlSeeds)} each, the ablations (${o.ablations.join(', ') || 'none'}) one seed each, ` +
      "each control and ablation at the learning rate and lambda of the arm it varies (the settings section says which). Each control changes only the skill a trajectory distils from; rollouts, rewards and advantages are its arm's. " +
      promotedText(o.promoted ?? [], o.seeds) +
      "If a distilling arm does no better than its cross-game control, the facts of the trajectory's own game carry no credit." +
      (total
        ? ` The cross-game controls' skills came from another group of the same update for ${pct(sources.update / total)}% of its trajectories, from the pool of earlier updates' skills for ${pct(sources.pool / total)}%, and ${pct(sources.none / total)}% had none (no OPD signal).`
        : ''),
  ].join('\n');
}

const DIAGNOSTICS_NOTE =
  "Skill fidelity: how well the skill used for OPD names what its trajectory met (mention F1 against the rule-based annotator's skill of that trajectory, 1 = the same mentions; each world's RlWorld.skillFidelity). " +
  'corr(Delta, A): per update, the Pearson correlation of Delta with the group advantage over the decision tokens (command tokens with a skill at which the decoding mask allowed more than one token; src/rl/loss.ts). ' +
  "GRPO and OPD gradient norms: the norms of the two parts of an update's gradient before clipping, and their ratio (how much of the step the distillation term drives); divergence to the teacher: the mean D(student, teacher) an exact arm distils, over the decision tokens under the OPD mask (src/rl/trainer.ts, UpdateMetrics). " +
  'Every figure is a mean over the updates where it is defined, then over seeds.';

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
  const table = mainTable(warm, rows, o.settings, clusters, rng);
  const diffs = differences(arms, runs, warm, clusters, rng);
  // In a world with a score (the shop), its own section beside success's; none in the household.
  const score = scoreReport(arms, runs, warm, clusters, diffs, factsOf(worldOrDefault(o.env)).words.score ?? '0 to 1');
  const best = bestDistillingArm(o.algos, o.settings, o.points);
  const head = headline(best, o.settings, diffs);
  const efficiency = best
    ? dataEfficiency(
        meanCurve(byAlgo('grpo')),
        meanCurve(byAlgo(best.algo)),
        warm.success_unseen,
        episodesPerRun,
        o.algos,
        best.algo,
      )
    : 'No main arm distils: no data-efficiency figure.';
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
      ...(o.settings.has('opid') ? { opidWeights: o.opidWeights } : {}),
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
  const world = worldOrDefault(o.env);
  const { words } = factsOf(world);
  const layouts = `${clusters.seen.length} and ${clusters.unseen.length} ${words.clusters}`;
  const corr: Record<string, number | null> = Object.fromEntries(
    rows.map((r) => [r.algo, Number.isFinite(r.corr) ? r.corr : null]),
  );
  const markdown = [
    `# Learning benchmark: GRPO and hindsight distillation on the ${o.preset ?? PRESET} preset${namedWorld(world) ? `, in ${theWorld(world)}` : ''}`,
    '',
    `Command: \`${o.command}\`  `,
    provenanceLine(o, configHash),
    ...(o.full
      ? [
          '',
          `A --full run: ${o.seeds} seeds per main arm and ${o.controlSeeds} per control, longer than the default's budget of ${DEFAULT_BUDGET_MINUTES} minutes on 2 cores.`,
        ]
      : []),
    '',
    `Every run starts from the same warm start (${o.init}) and plays ${base.resampleRounds > 0 ? 'at least ' : ''}${episodesPerRun} training episodes (${updates} updates of ${base.tasksPerUpdate} tasks x ${base.groupSize} episodes). ` +
      `Seed k draws the same training tasks in every arm (the tasks of update u depend only on the run seed and u), so differences are paired by seed${base.resampleRounds > 0 ? ` up to the replaced groups: a group whose episodes all got the same reward is replaced by a fresh task, up to ${base.resampleRounds} rounds per update, which depends on the rewards; the curves count every episode played` : ''}. ` +
      `Success is measured on the fixed eval-seen (${warm.won_seen.length} games) and eval-unseen (${warm.won_unseen.length} games) sets, ${layouts}, at temperature ${base.evalTemperature}${evalSamples > 1 ? `, ${evalSamples} sampled episodes per game at the end of a run (the curves sample each game once)` : ''}. ` +
      `${AREA_NOTE} ` +
      `95% intervals: percentile bootstrap over seeds and ${words.clusters} (${BOOTSTRAP_REPLICATES} replicates from a seeded Rng): a replicate draws seeds and clusters with replacement and averages over the games of the drawn clusters, since ${words.clusterShares}.`,
    '',
    head,
    '',
    table,
    '',
    '## Arms',
    '',
    armsText(o, arms),
    '',
    '## Diagnostics (mean over updates, then seeds)',
    '',
    diagnosticsTable(rows),
    '',
    DIAGNOSTICS_NOTE,
    '',
    teacherText(o.runs),
    '',
    teacherTable(o.runs),
    '',
    '## Runs that failed or were refused',
    '',
    failureSection(o.failed, o.runs, o.updates),
    '',
    '## Per task type (mean over seeds, %)',
    '',
    typeTable(warm, rows),
    '',
    '## Differences, paired by seed, over layouts',
    '',
    "Each arm against grpo and against the warm start, each distilling arm against its cross-game control, and each other control or ablation against the arm it varies. A difference uses the seeds both arms ran (listed); a replicate draws the same seeds and the same layouts for both sides, so what a seed's training tasks or a room make easy cancels out.",
    '',
    differenceTable(diffs),
    '',
    'The same differences with intervals over seeds alone: a bootstrap of the per-seed differences with the eval games held fixed (what another draw of training runs would change), and how many of the common seeds are ahead.',
    '',
    seedOnlyTable(diffs),
    '',
    ...(score ? [score.markdown, ''] : []),
    '## Data efficiency',
    '',
    efficiency,
    '',
    '## Settings chosen on validation',
    '',
    sweepSection(o, o, o.evalEpisodes, evalSamples),
    '',
    '## Settings',
    '',
    "The base configuration; each run's lr and lambda are those its row above gives.",
    '',
    '```json',
    JSON.stringify(base, null, 2),
    '```',
    '',
    `![learning curves](${reportName('learn_curve', o.env)}.svg)`,
    '',
    '## Eval-unseen curves (training episodes: success)',
    '',
    ...runs.map((r) => `- ${r.algo} seed ${r.seed}: ${r.curve.map(([e, v]) => `${e}: ${pct(v)}%`).join(', ')}`),
    '',
  ].join('\n');
  const json = {
    preset: o.preset ?? PRESET,
    episodes_per_run: episodesPerRun,
    eval_samples: evalSamples,
    eval_games: o.evalGames,
    headline: head,
    best_distilling_arm: best,
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
      extend: o.extend ?? 0,
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
