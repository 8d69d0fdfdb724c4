// The report of `bench learn`: the markdown page (tables, paired differences, data efficiency, sweep,
// settings, curves), the JSON the intervals can be recomputed from, and the curve plot.
import { cpus } from 'node:os';
import { hashString, Rng } from '../../../common/rng.ts';
import { validationScenes } from '../../../env/generate.ts';
import { TINY } from '../../../env/scale.ts';
import type { Algo, TrainConfig } from '../../../rl/config.ts';
import { commitId, commitText, type SourceCommit } from '../../provenance.ts';
import { PRESET, SWEEP_SEED, type JobResult } from './job.ts';
import { COLORS, curveSvg } from './plot.ts';
import { algoRow, bootstrap, dataEfficiency, mean, meanCurve, pairedBootstrap, pct, type AlgoRow, type GameScores } from './stats.ts';

export interface SweepPoint {
  algo: Algo;
  lr: number;
  success_validation: number;
}

/** Everything a finished benchmark reports; paths in it are already portable (provenance.ts). */
export interface LearnOutcome {
  command: string;
  commit: SourceCommit | null;
  init: string;
  base: TrainConfig;
  algos: Algo[];
  ablations: Algo[];
  seeds: number;
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
}

/**
 * Per eval game, in the fixed order of its split, the number of its sampled episodes won (one digit each, at
 * most 9 samples): what the intervals are recomputed from.
 */
function wonDigits(won: number[], samples: number): string {
  return won.map((w) => String(Math.round(w * samples))).join('');
}

const interval = (ci: [number, number]) => `[${pct(ci[0])}, ${pct(ci[1])}]`;

function mainTable(warm: JobResult, rows: AlgoRow[], rng: Rng): string {
  return [
    '| algorithm | seeds | lr | eval-seen % [95% CI] | eval-unseen % [95% CI] | valid skills % | skill fidelity | mean Delta / gate | wall s/run |',
    '|---|---|---|---|---|---|---|---|---|',
    `| warm start | - | - | ${pct(warm.success_seen)} [${pct(bootstrap([warm.won_seen], rng)[0])}, ${pct(bootstrap([warm.won_seen], rng)[1])}] | ${pct(warm.success_unseen)} [${pct(bootstrap([warm.won_unseen], rng)[0])}, ${pct(bootstrap([warm.won_unseen], rng)[1])}] | - | - | - | - |`,
    ...rows.map(
      (r) =>
        `| ${r.algo} | ${r.seeds} | ${r.lr} | ${pct(r.seen)} ${interval(r.seenCi)} | ${pct(r.unseen)} ${interval(r.unseenCi)} | ${pct(r.validSkill)} | ` +
        `${Number.isFinite(r.fidelity) ? r.fidelity.toFixed(2) : 'n/a'} | ${Number.isFinite(r.gate) ? `${r.delta.toFixed(3)} / ${r.gate.toFixed(3)}` : 'n/a'} | ${r.wall.toFixed(0)} |`,
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

/**
 * Paired differences: every main algorithm and ablation against the warm start, and each main algorithm after
 * the first against the first (SEED against GRPO by default).
 */
function diffTable(o: LearnOutcome, byAlgo: (a: Algo) => JobResult[], rng: Rng): string {
  const { algos, ablations, warm } = o;
  const pairs: [string, GameScores[], GameScores[], GameScores[], GameScores[]][] = [];
  for (const a of [...algos, ...ablations]) pairs.push([`${a} - warm start`, byAlgo(a).map((r) => r.won_seen), [warm.won_seen], byAlgo(a).map((r) => r.won_unseen), [warm.won_unseen]]);
  for (const a of algos.slice(1)) {
    pairs.push([`${a} - ${algos[0]}`, byAlgo(a).map((r) => r.won_seen), byAlgo(algos[0]).map((r) => r.won_seen), byAlgo(a).map((r) => r.won_unseen), byAlgo(algos[0]).map((r) => r.won_unseen)]);
  }
  const meanWon = (runs: GameScores[]) => mean(runs.map((w) => (w.length ? w.reduce((n: number, x) => n + +x, 0) / w.length : NaN)));
  const points = (d: number) => (Number.isFinite(d) ? `${d >= 0 ? '+' : ''}${(100 * d).toFixed(1)}` : 'n/a');
  const diffCell = (a: GameScores[], b: GameScores[]) => {
    const [lo, hi] = pairedBootstrap(a, b, rng);
    return `${points(meanWon(a) - meanWon(b))} [${points(lo)}, ${points(hi)}]`;
  };
  return [
    '| difference | eval-seen points [95% CI] | eval-unseen points [95% CI] |',
    '|---|---|---|',
    ...pairs.filter(([, sa, sb]) => sa.length > 0 && sb.length > 0).map(([label, sa, sb, ua, ub]) => `| ${label} | ${diffCell(sa, sb)} | ${diffCell(ua, ub)} |`),
  ].join('\n');
}

function sweepSection(o: LearnOutcome): string {
  const { sweep, sweepUpdates, evalEpisodes, evalSamples, chosen, lrs } = o;
  if (!sweep.length) return `No sweep (one rate given): lr ${lrs[0]}.`;
  const games = evalEpisodes > 0 ? Math.min(evalEpisodes, validationScenes(TINY).length) : validationScenes(TINY).length;
  return (
    `One run of ${sweepUpdates} update${sweepUpdates === 1 ? '' : 's'} per rate and algorithm (seed ${SWEEP_SEED}), scored on the ${games} validation games ` +
    `(games of training rooms that neither training nor the eval sets hold), ${evalSamples} sampled episode${evalSamples > 1 ? 's' : ''} per game.\n\n` +
    ['| algorithm | lr | validation % |', '|---|---|---|', ...sweep.map((s) => `| ${s.algo} | ${s.lr} | ${pct(s.success_validation)} |`)].join('\n') +
    `\n\nChosen: ${[...chosen].map(([a, lr]) => `${a} ${lr}`).join(', ')} (ablations use SEED's).`
  );
}

export function renderLearn(o: LearnOutcome): LearnReport {
  const { base, algos, ablations, warm, runs, updates, evalSamples } = o;
  const rng = new Rng(hashString('bench/learn/bootstrap'));
  const byAlgo = (a: Algo) => runs.filter((r) => r.algo === a);
  const episodesPerRun = updates * base.tasksPerUpdate * base.groupSize;
  const rows = [...algos, ...ablations].map((a) => algoRow(a, byAlgo(a), rng));
  const efficiency = dataEfficiency(meanCurve(byAlgo('grpo')), meanCurve(byAlgo('seed')), warm.success_unseen, episodesPerRun, algos);
  const table = mainTable(warm, rows, rng);
  const differences = diffTable(o, byAlgo, rng);
  const configHash = hashString(
    JSON.stringify({ base, chosen: [...o.chosen], updates, seeds: o.seeds, evalEvery: o.evalEvery, evalEpisodes: o.evalEpisodes, ...(evalSamples > 1 ? { evalSamples } : {}), init: o.init, lrs: o.lrs, sweepUpdates: o.sweepUpdates }),
  ).toString(16).padStart(8, '0');
  const svg = curveSvg([...algos, ...ablations].map((a) => ({ label: a, color: COLORS[a] ?? '#333', curve: meanCurve(byAlgo(a)), seeds: byAlgo(a).map((r) => r.curve) })));
  const markdown = [
    '# Learning benchmark: GRPO vs SEED on the tiny preset',
    '',
    `Command: \`${o.command}\`  `,
    `Commit: ${commitText(o.commit)}; configuration hash ${configHash}; wall time ${(o.wallSeconds / 60).toFixed(1)} min on ${cpus().length} cores (${o.workers} workers).`,
    '',
    `Every run starts from the same warm start (${o.init}) and plays ${base.resampleRounds > 0 ? 'at least ' : ''}${episodesPerRun} training episodes (${updates} updates of ${base.tasksPerUpdate} tasks x ${base.groupSize} episodes). ` +
      (base.resampleRounds > 0
        ? `A group whose episodes all got the same reward is replaced by a fresh task, up to ${base.resampleRounds} rounds per update; the curves count every episode played. `
        : '') +
      `Success is measured on the fixed eval-seen (${warm.won_seen.length} games) and eval-unseen (${warm.won_unseen.length} games) sets at temperature ${base.evalTemperature}${evalSamples > 1 ? `, ${evalSamples} sampled episodes per game at the end of a run (the curves sample each game once)` : ''}. ` +
      '95% intervals: bootstrap over seeds, then over games within a seed (2000 resamples).',
    '',
    table,
    '',
    '## Per task type (mean over seeds, %)',
    '',
    typeTable(warm, rows),
    '',
    '## Differences, paired over games',
    '',
    'Every run plays the same eval games, so a resample of the games serves both sides of a difference (the seeds of each side are resampled on their own): how hard a game is cancels out, and these intervals are narrower than the unpaired ones above.',
    '',
    differences,
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
    `The ablations (${ablations.join(', ') || 'none'}) ran one seed each. seed-sibling gives every trajectory the skill of another trajectory of its task, i.e. of the same game: if it does as well as seed, the hindsight need not be about the trajectory itself. ` +
      "Skill fidelity: how well the skill used for OPD names the objects and places of its trajectory (mention F1 against the rule-based annotator's skill of that trajectory, 1 = the same mentions; src/rl/skill_fidelity.ts), mean over updates.",
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
    warmstart: { success_seen: warm.success_seen, success_unseen: warm.success_unseen, won_seen: wonDigits(warm.won_seen, evalSamples), won_unseen: wonDigits(warm.won_unseen, evalSamples) },
    runs: runs.map((r) => ({
      algo: r.algo, seed: r.seed, lr: r.lr, success_seen: r.success_seen, success_unseen: r.success_unseen, per_type: r.per_type,
      curve: r.curve, wall_s: Number(r.wall_s.toFixed(1)), valid_skill_rate: r.valid_skill_rate, skill_fidelity: r.skill_fidelity, mean_delta: r.mean_delta, mean_gate: r.mean_gate,
      skipped_updates: r.skipped_updates, won_seen: wonDigits(r.won_seen, evalSamples), won_unseen: wonDigits(r.won_unseen, evalSamples),
    })),
    sweep: o.sweep,
    config_hash: configHash,
    commit: commitId(o.commit),
    command: o.command,
    wall_s: Number(o.wallSeconds.toFixed(1)),
  };
  return { markdown, json, svg, table, efficiency };
}
