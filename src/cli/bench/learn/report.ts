// The report of `bench learn`: the markdown page (tables, paired differences, failed and refused runs, data
// efficiency, sweep, settings, curves), the JSON the intervals can be recomputed from, and the curve plot.
import { cpus } from 'node:os';
import { hashString, Rng } from '../../../common/rng.ts';
import { validationScenes } from '../../../env/generate.ts';
import { TINY } from '../../../env/scale.ts';
import type { Algo, TrainConfig } from '../../../rl/config.ts';
import { commitId, commitText, type SourceCommit } from '../../provenance.ts';
import { differenceJson, differences, differenceTable, type Difference } from './differences.ts';
import { layoutClusters, type EvalGame } from './games.ts';
import { PRESET, SWEEP_SEED, type JobResult } from './job.ts';
import { COLORS, curveSvg } from './plot.ts';
import { algoRow, BOOTSTRAP_REPLICATES, clusterBootstrap, dataEfficiency, mean, meanCurve, pct, type AlgoRow, type SplitClusters } from './stats.ts';

export interface SweepPoint {
  algo: Algo;
  lr: number;
  success_validation: number;
}

/** A job that gave no result, and why. */
export interface FailedRun {
  kind: 'run' | 'sweep';
  algo: Algo;
  seed: number;
  lr: number;
  error: string;
}

/** Everything a finished benchmark reports; paths in it are already portable (provenance.ts). */
export interface LearnOutcome {
  command: string;
  commit: SourceCommit | null;
  init: string;
  base: TrainConfig;
  /** The main arms (seeds 1..seeds), the controls (seeds 1..controlSeeds) and the ablations (seed 1). */
  algos: Algo[];
  controls: Algo[];
  ablations: Algo[];
  seeds: number;
  controlSeeds: number;
  updates: number;
  sweepUpdates: number;
  evalEvery: number;
  evalEpisodes: number;
  evalSamples: number;
  lrs: number[];
  chosen: Map<Algo, number>;
  sweep: SweepPoint[];
  warm: JobResult;
  runs: JobResult[];
  failed: FailedRun[];
  /** The eval games in the order of every run's won_seen / won_unseen (games.ts, evalGames). */
  evalGames: { seen: EvalGame[]; unseen: EvalGame[] };
  wallSeconds: number;
  workers: number;
}

export interface LearnReport {
  markdown: string;
  json: object;
  svg: string;
  /** The main table and the data-efficiency sentence: what the command prints on stdout. */
  table: string;
  efficiency: string;
  /** Per arm, its figures with their intervals, and the differences: what a record of the runs keeps (record.ts). */
  rows: AlgoRow[];
  differences: Difference[];
}

/**
 * Per eval game, in the fixed order of its split, the number of its sampled episodes won (one digit each, at
 * most 9 samples): what the intervals are recomputed from.
 */
function wonDigits(won: number[], samples: number): string {
  return won.map((w) => String(Math.round(w * samples))).join('');
}

const interval = (ci: [number, number]) => `[${pct(ci[0])}, ${pct(ci[1])}]`;
const fixed = (x: number, digits: number) => (Number.isFinite(x) ? x.toFixed(digits) : 'n/a');

function mainTable(warm: JobResult, rows: AlgoRow[], clusters: SplitClusters, rng: Rng): string {
  const warmCi = (won: number[], c: number[][]) => interval(clusterBootstrap(new Map([[0, won]]), null, c, rng).ci);
  return [
    '| algorithm | seeds | lr | eval-seen % [95% CI] | eval-unseen % [95% CI] | valid skills % | skill fidelity | mean Delta / gate | corr(Delta, A) | wall s/run |',
    '|---|---|---|---|---|---|---|---|---|---|',
    `| warm start | - | - | ${pct(warm.success_seen)} ${warmCi(warm.won_seen, clusters.seen)} | ${pct(warm.success_unseen)} ${warmCi(warm.won_unseen, clusters.unseen)} | - | - | - | - | - |`,
    ...rows.map(
      (r) =>
        `| ${r.algo} | ${r.seeds} | ${r.lr} | ${pct(r.seen)} ${interval(r.seenCi)} | ${pct(r.unseen)} ${interval(r.unseenCi)} | ${pct(r.validSkill)} | ` +
        `${fixed(r.fidelity, 2)} | ${Number.isFinite(r.gate) ? `${r.delta.toFixed(3)} / ${r.gate.toFixed(3)}` : 'n/a'} | ${fixed(r.corr, 3)} | ${fixed(r.wall, 0)} |`,
    ),
  ].join('\n');
}

function typeTable(warm: JobResult, rows: AlgoRow[]): string {
  const types = Object.keys(warm.per_type.seen).sort();
  return [
    `| task type | warm start seen / unseen | ${rows.map((r) => `${r.algo} seen / unseen`).join(' | ')} |`,
    `|---|---|${rows.map(() => '---').join('|')}|`,
    ...types.map((t) => `| ${t} | ${pct(warm.per_type.seen[t])} / ${pct(warm.per_type.unseen[t] ?? NaN)} | ${rows.map((r) => `${pct(r.perType[t]?.seen ?? NaN)} / ${pct(r.perType[t]?.unseen ?? NaN)}`).join(' | ')} |`),
  ].join('\n');
}

/** The runs that gave no result, and those some of whose updates were refused (non-finite values). */
function failureSection(o: LearnOutcome): string {
  const lines = [
    ...o.failed.map((f) => `- ${f.algo} seed ${f.seed} (${f.kind === 'sweep' ? `sweep run, lr ${f.lr}` : `lr ${f.lr}`}): failed, no result: ${f.error}`),
    ...o.runs
      .filter((r) => r.skipped_updates > 0)
      .map((r) => `- ${r.algo} seed ${r.seed}: ${r.skipped_updates} of ${o.updates} updates refused for a non-finite loss or gradient (the weights kept their last good values)`),
  ];
  if (lines.length === 0) return 'None: every run finished, and no update was refused.';
  const note = 'A failed run is left out of the tables and of every difference, which pairs only the seeds both of its arms finished.';
  return [...(o.failed.length ? [note, ''] : []), ...lines].join('\n');
}

/** The teacher gap (own skill minus no skill on validation games) at the first and last check, mean over each arm's seeds. */
function teacherText(runs: readonly JobResult[]): string {
  const checked = runs.filter((r) => r.teacher.length > 0);
  if (checked.length === 0) return '';
  const arms = [...new Set(checked.map((r) => r.algo))];
  const gap = (rs: JobResult[], pick: (checks: JobResult['teacher']) => JobResult['teacher'][number]) => {
    const points = rs.map((r) => pick(r.teacher));
    const value = mean(points.map(([, no, own]) => own - no));
    return `${value >= 0 ? '+' : ''}${pct(value)} points after update ${points[0][0]}`;
  };
  const parts = arms.map((a) => {
    const rs = checked.filter((r) => r.algo === a);
    return `${a} ${gap(rs, (c) => c[0])}, ${gap(rs, (c) => c[c.length - 1])}`;
  });
  return `Teacher gap (own skill minus no skill on the validation games, the teacher check every teacherEvery updates; mean over seeds): ${parts.join('; ')}.`;
}

function controlsText(o: LearnOutcome, rows: AlgoRow[]): string {
  const crossgame = o.runs.filter((r) => r.crossgame);
  const sources = crossgame.reduce((s, r) => ({ update: s.update + r.crossgame!.update, pool: s.pool + r.crossgame!.pool, none: s.none + r.crossgame!.none }), { update: 0, pool: 0, none: 0 });
  const total = sources.update + sources.pool + sources.none;
  return [
    `The controls (${o.controls.join(', ') || 'none'}) ran ${o.controlSeeds} seed${o.controlSeeds === 1 ? '' : 's'} each, the ablations (${o.ablations.join(', ') || 'none'}) one seed each, at SEED's learning rate. ` +
      "Each control changes only the skill a trajectory distils from; rollouts, rewards and advantages are SEED's. " +
      "seed-crossgame gives a trajectory the policy's skill of another game of the same task type (the right kind of advice, the wrong facts): if SEED does no better, the facts of the trajectory's own game carry no credit. " +
      "seed-annotator distils from the rule-based annotator's faithful skills; seed-sibling from a sibling's skill of the same game (the same facts, another trajectory).",
    total
      ? `seed-crossgame's skills came from another group of the same update for ${pct(sources.update / total)}% of its trajectories, from the pool of earlier updates' skills for ${pct(sources.pool / total)}%, and ${pct(sources.none / total)}% had none (no OPD signal).`
      : '',
    "Skill fidelity: how well the skill used for OPD names the objects and places of its trajectory (mention F1 against the rule-based annotator's skill of that trajectory, 1 = the same mentions; src/rl/skill_fidelity.ts), mean over updates. " +
      'corr(Delta, A): per update, the Pearson correlation of Delta with the group advantage over the decision tokens (command tokens with a skill at which the decoding mask allowed more than one token; src/rl/diagnostics.ts), mean over the updates where it is defined, then over seeds: ' +
      rows.filter((r) => Number.isFinite(r.corr)).map((r) => `${r.algo} ${r.corr.toFixed(3)}`).join(', ') + '. ' +
      "corr(Delta, expert), the same with \"the token is on one of the expert's shortest plans from where the agent stood\" (step-level credit; the advantage is the same on every token of a game): " +
      (rows.filter((r) => Number.isFinite(r.corrExpert)).map((r) => `${r.algo} ${r.corrExpert.toFixed(3)}`).join(', ') || 'none') + '.',
    teacherText(o.runs),
  ]
    .filter((line) => line !== '')
    .join(' ');
}

function sweepSection(o: LearnOutcome): string {
  const { sweep, sweepUpdates, evalEpisodes, evalSamples, chosen, lrs } = o;
  if (!sweep.length) return `No sweep (one rate given): lr ${lrs[0]}.`;
  const games = evalEpisodes > 0 ? Math.min(evalEpisodes, validationScenes(TINY).length) : validationScenes(TINY).length;
  return (
    `One run of ${sweepUpdates} update${sweepUpdates === 1 ? '' : 's'} per rate and algorithm (seed ${SWEEP_SEED}), scored on the ${games} validation games ` +
    `(games of training rooms that neither training nor the eval sets hold), ${evalSamples} sampled episode${evalSamples > 1 ? 's' : ''} per game.\n\n` +
    ['| algorithm | lr | validation % |', '|---|---|---|', ...sweep.map((s) => `| ${s.algo} | ${s.lr} | ${pct(s.success_validation)} |`)].join('\n') +
    `\n\nChosen: ${[...chosen].map(([a, lr]) => `${a} ${lr}`).join(', ')} (controls and ablations use SEED's).`
  );
}

export function renderLearn(o: LearnOutcome): LearnReport {
  const { base, warm, runs, updates, evalSamples } = o;
  const arms = [...o.algos, ...o.controls, ...o.ablations];
  const rng = new Rng(hashString('bench/learn/bootstrap'));
  const clusters: SplitClusters = { seen: layoutClusters(o.evalGames.seen), unseen: layoutClusters(o.evalGames.unseen) };
  const byAlgo = (a: Algo) => runs.filter((r) => r.algo === a);
  const episodesPerRun = updates * base.tasksPerUpdate * base.groupSize;
  const rows = arms.map((a) => algoRow(a, byAlgo(a), clusters, rng));
  const efficiency = dataEfficiency(meanCurve(byAlgo('grpo')), meanCurve(byAlgo('seed')), warm.success_unseen, episodesPerRun, o.algos);
  const table = mainTable(warm, rows, clusters, rng);
  const diffs = differences(arms, runs, warm, clusters, rng);
  const configHash = hashString(
    JSON.stringify({
      base, chosen: [...o.chosen], updates, seeds: o.seeds, evalEvery: o.evalEvery, evalEpisodes: o.evalEpisodes, ...(evalSamples > 1 ? { evalSamples } : {}), init: o.init, lrs: o.lrs, sweepUpdates: o.sweepUpdates,
      ...(o.controls.length ? { controls: o.controls, controlSeeds: o.controlSeeds } : {}),
    }),
  ).toString(16).padStart(8, '0');
  const svg = curveSvg(arms.map((a) => ({ label: a, color: COLORS[a] ?? '#333', curve: meanCurve(byAlgo(a)), seeds: byAlgo(a).map((r) => r.curve) })));
  const layouts = `${clusters.seen.length} and ${clusters.unseen.length} room layouts`;
  const corr: Record<string, number | null> = Object.fromEntries(rows.map((r) => [r.algo, Number.isFinite(r.corr) ? r.corr : null]));
  const markdown = [
    '# Learning benchmark: GRPO vs SEED on the tiny preset',
    '',
    `Command: \`${o.command}\`  `,
    `Commit: ${commitText(o.commit)}; configuration hash ${configHash}; wall time ${(o.wallSeconds / 60).toFixed(1)} min on ${cpus().length} cores (${o.workers} workers).`,
    '',
    `Every run starts from the same warm start (${o.init}) and plays ${base.resampleRounds > 0 ? 'at least ' : ''}${episodesPerRun} training episodes (${updates} updates of ${base.tasksPerUpdate} tasks x ${base.groupSize} episodes). ` +
      `Seed k draws the same training tasks in every arm (the tasks of update u depend only on the run seed and u), so differences are paired by seed${base.resampleRounds > 0 ? ` up to the replaced groups: a group whose episodes all got the same reward is replaced by a fresh task, up to ${base.resampleRounds} rounds per update, which depends on the rewards; the curves count every episode played` : ''}. ` +
      `Success is measured on the fixed eval-seen (${warm.won_seen.length} games) and eval-unseen (${warm.won_unseen.length} games) sets, ${layouts}, at temperature ${base.evalTemperature}${evalSamples > 1 ? `, ${evalSamples} sampled episodes per game at the end of a run (the curves sample each game once)` : ''}. ` +
      `95% intervals: percentile bootstrap over seeds and room layouts (${BOOTSTRAP_REPLICATES} replicates from a seeded Rng): a replicate draws seeds and layouts with replacement and averages over the games of the drawn layouts, since games of one room share what makes them easy or hard.`,
    '',
    table,
    '',
    '## Runs that failed or were refused',
    '',
    failureSection(o),
    '',
    '## Per task type (mean over seeds, %)',
    '',
    typeTable(warm, rows),
    '',
    '## Differences, paired by seed, over layouts',
    '',
    'Each arm against grpo and against the warm start, and seed against each control and ablation. A difference uses the seeds both arms ran (listed); a replicate draws the same seeds and the same layouts for both sides, so what a seed\'s training tasks or a room make easy cancels out.',
    '',
    differenceTable(diffs),
    '',
    '## Data efficiency',
    '',
    efficiency,
    '',
    '## Learning rate sweep',
    '',
    sweepSection(o),
    '',
    '## Settings',
    '',
    "The base configuration; each run's lr is the one its row above gives.",
    '',
    '```json',
    JSON.stringify(base, null, 2),
    '```',
    '',
    controlsText(o, rows),
    '',
    '![learning curves](learn_curve.svg)',
    '',
    '## Eval-unseen curves (training episodes: success)',
    '',
    ...runs.map((r) => `- ${r.algo} seed ${r.seed}: ${r.curve.map(([e, v]) => `${e}: ${pct(v)}%`).join(', ')}`),
    '',
  ].join('\n');
  const json = {
    preset: PRESET,
    episodes_per_run: episodesPerRun,
    eval_samples: evalSamples,
    eval_games: o.evalGames,
    warmstart: { success_seen: warm.success_seen, success_unseen: warm.success_unseen, won_seen: wonDigits(warm.won_seen, evalSamples), won_unseen: wonDigits(warm.won_unseen, evalSamples) },
    runs: runs.map((r) => ({
      algo: r.algo, seed: r.seed, lr: r.lr, success_seen: r.success_seen, success_unseen: r.success_unseen, per_type: r.per_type,
      curve: r.curve, wall_s: Number(r.wall_s.toFixed(1)), valid_skill_rate: r.valid_skill_rate, skill_fidelity: r.skill_fidelity, mean_delta: r.mean_delta, mean_gate: r.mean_gate,
      corr_delta_advantage: r.corr_delta_advantage, crossgame: r.crossgame,
      corr_delta_expert: r.corr_delta_expert, corr_delta_advantage_won: r.corr_delta_advantage_won, corr_delta_advantage_lost: r.corr_delta_advantage_lost,
      mean_abs_delta: r.mean_abs_delta, forced_share: r.forced_share, zero_variance_groups: r.zero_variance_groups, teacher: r.teacher,
      skipped_updates: r.skipped_updates, won_seen: wonDigits(r.won_seen, evalSamples), won_unseen: wonDigits(r.won_unseen, evalSamples),
    })),
    corr_delta_advantage: corr,
    differences: diffs.map(differenceJson),
    failed: o.failed,
    sweep: o.sweep,
    config_hash: configHash,
    commit: commitId(o.commit),
    command: o.command,
    wall_s: Number(o.wallSeconds.toFixed(1)),
  };
  return { markdown, json, svg, table, efficiency, rows, differences: diffs };
}
