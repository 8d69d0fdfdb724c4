// The report of `bench learn --fractions`: grpo and each main distilling arm trained on a fraction of the
// training games, final eval-unseen success and area under the eval-unseen curve per fraction, with paired
// differences (against grpo at the same fraction, and against grpo at the largest fraction: hindsight with less
// data against GRPO with more), the sweep that chose the settings, and the wall time. The report
// (learn_fractions in markdown and JSON) goes beside the main report.
import { hashString, Rng } from '../../../common/rng.ts';
import type { TrainConfig } from '../../../rl/config.ts';
import type { Algo } from '../../../rl/arms.ts';
import { commitId, type SourceCommit } from '../../../cli/provenance.ts';
import type { FractionRuns } from '../benchmark.ts';
import { differenceCell } from './differences.ts';
import { layoutClusters, type EvalGame } from '../plan/games.ts';
import { bestDistillingArm, verdict } from './headline.ts';
import type { JobResult } from '../jobs/job.ts';
import { curveDigits, failureSection, provenanceLine, wonDigits } from '../report/report.ts';
import {
  AREA_NOTE,
  areaByGame,
  BOOTSTRAP_REPLICATES,
  clusterBootstrap,
  mean,
  pct,
  scoresBySeed,
  type Estimate,
} from './stats.ts';
import type { ArmSettings, FailedRun, SweepPlan, SweepPoint, SweepRun } from '../sweeps/sweep.ts';
import { settingsJson, sweepSection } from '../report/sweep_report.ts';
import { factsOf } from '../../../worlds/facts.ts';
import { worldOrDefault } from '../../../worlds/names.ts';
import { distils, ofAlgo } from '../../../rl/arms.ts';

export interface FractionsOutcome extends SweepPlan {
  command: string;
  commit: SourceCommit | null;
  init: string;
  seeds: number;
  updates: number;
  evalEvery: number;
  evalEpisodes: number;
  evalSamples: number;
  settings: Map<Algo, ArmSettings>;
  sweep: SweepRun[];
  points: SweepPoint[];
  failed: FailedRun[];
  warm: JobResult;
  fractions: FractionRuns[];
  evalGames: { seen: EvalGame[]; unseen: EvalGame[] };
  wallSeconds: number;
  estimatedSeconds: number;
  workers: number;
  /** Runs taken from an earlier invocation's store (--resume). */
  resumed?: number;
  /** The folder of the plan whose jobs ran the runs (--collect); absent: they ran here. */
  planned?: string;
}

export interface FractionDifference {
  a: Algo;
  aFraction: number;
  b: Algo;
  bFraction: number;
  unseen: Estimate;
  auc: Estimate;
}

const label = (d: Pick<FractionDifference, 'a' | 'aFraction' | 'b' | 'bFraction'>) =>
  `${d.a} at ${d.aFraction} - ${d.b} at ${d.bFraction}`;
const interval = (e: Estimate) => `${pct(e.value)} [${pct(e.ci[0])}, ${pct(e.ci[1])}]`;

/**
 * Per fraction, each distilling arm against grpo at that fraction; then each distilling arm at every smaller
 * fraction against grpo at the largest. Paired by seed (the seeds both ran), over eval-unseen's layouts.
 */
export function fractionDifferences(
  fractions: readonly FractionRuns[],
  clusters: number[][],
  rng: Rng,
): FractionDifference[] {
  const of = (f: FractionRuns, a: Algo) => f.runs.filter(ofAlgo(a));
  const compare = (a: Algo, fa: FractionRuns, fb: FractionRuns): FractionDifference => {
    const side = (measure: 'unseen' | 'auc') =>
      clusterBootstrap(scoresBySeed(of(fa, a), measure), scoresBySeed(of(fb, 'grpo'), measure), clusters, rng);
    return { a, aFraction: fa.fraction, b: 'grpo', bFraction: fb.fraction, unseen: side('unseen'), auc: side('auc') };
  };
  const ran = (f: FractionRuns) => [...new Set(f.runs.map((r) => r.algo))].filter(distils);
  const diffs: FractionDifference[] = [];
  for (const f of fractions) if (of(f, 'grpo').length) for (const a of ran(f)) diffs.push(compare(a, f, f));
  const largest = fractions.reduce<FractionRuns | null>(
    (m, f) => (m === null || f.fraction > m.fraction ? f : m),
    null,
  );
  if (largest && of(largest, 'grpo').length) {
    for (const f of fractions)
      if (f.fraction < largest.fraction) for (const a of ran(f)) diffs.push(compare(a, f, largest));
  }
  return diffs;
}

function fractionTable(o: FractionsOutcome, clusters: number[][], rng: Rng): string {
  const rows = o.fractions.flatMap((f) => {
    const arms = [...new Set(f.runs.map((r) => r.algo))];
    return arms.map((a) => {
      const rs = f.runs.filter(ofAlgo(a));
      const unseen = clusterBootstrap(scoresBySeed(rs, 'unseen'), null, clusters, rng);
      const auc = clusterBootstrap(scoresBySeed(rs, 'auc'), null, clusters, rng);
      const lambda = distils(a) ? String(o.settings.get(a)?.lambda ?? 'n/a') : '-';
      return `| ${f.fraction} | ${f.trainGames} | ${a} | ${rs.length} | ${lambda} | ${interval(unseen)} | ${interval(auc)} | ${mean(rs.map((r) => r.wall_s)).toFixed(0)} |`;
    });
  });
  return [
    '| fraction | training games | algorithm | seeds | lambda | eval-unseen % [95% CI] | area under the curve % [95% CI] | wall s/run |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

/** The headline: the best distilling arm (on validation) against grpo at each fraction, and with less data against grpo with the most. */
function fractionsHeadline(o: FractionsOutcome, diffs: readonly FractionDifference[]): string {
  const best = bestDistillingArm(o.algos, o.settings, o.points);
  if (!best) return 'No main arm distils: no hindsight arm to compare with GRPO.';
  const mine = diffs.filter((d) => d.a === best.algo);
  if (!mine.length) return `Best distilling arm: ${best.algo} (${best.why}); no GRPO runs to compare it with.`;
  return [
    `Best distilling arm: ${best.algo}, ${best.why}. On eval-unseen, paired by seed:`,
    ...mine.map(
      (d) =>
        `${label(d)}: final success ${differenceCell(d.unseen)} points, ${verdict(d.unseen)}; area under the curve ${differenceCell(d.auc)}, ${verdict(d.auc)}.`,
    ),
  ].join(' ');
}

export function renderFractions(o: FractionsOutcome): {
  markdown: string;
  json: object;
  headline: string;
  table: string;
} {
  const rng = new Rng(hashString('bench/learn/fractions/bootstrap'));
  const clusters = layoutClusters(o.evalGames.unseen);
  const table = fractionTable(o, clusters, rng);
  const diffs = fractionDifferences(o.fractions, clusters, rng);
  const head = fractionsHeadline(o, diffs);
  const base: TrainConfig = o.base;
  const tasks = o.updates * base.tasksPerUpdate;
  const settings = settingsJson(o.settings);
  const configHash = hashString(
    JSON.stringify({
      base,
      settings,
      fractions: o.fractions.map((f) => f.fraction),
      seeds: o.seeds,
      updates: o.updates,
      evalEvery: o.evalEvery,
      evalEpisodes: o.evalEpisodes,
      evalSamples: o.evalSamples,
      init: o.init,
    }),
  )
    .toString(16)
    .padStart(8, '0');
  const runs = o.fractions.flatMap((f) => f.runs);
  const markdown = [
    '# Data-fraction sweep: GRPO and hindsight distillation with less training data',
    '',
    `Command: \`${o.command}\`  `,
    provenanceLine(o, configHash),
    '',
    `Every run starts from the same warm start (${o.init}) and plays ${o.updates} updates of ${base.tasksPerUpdate} tasks x ${base.groupSize} episodes, as in learn.md, ` +
      `but its ${tasks} tasks cycle through a fraction of that many training games (trainGames), so a game comes back once the run has played them all. ` +
      `Seed k draws the same training games in every arm at a fraction, so differences are paired by seed. The eval-unseen set (${o.warm.won_unseen.length} games, ${clusters.length} ${factsOf(worldOrDefault(o.env)).words.clusters}) ` +
      `is played at temperature ${base.evalTemperature}${o.evalSamples > 1 ? `, ${o.evalSamples} sampled episodes per game at the end of a run` : ''}. ${AREA_NOTE} ` +
      `95% intervals: percentile bootstrap over seeds and ${factsOf(worldOrDefault(o.env)).words.clusters} (${BOOTSTRAP_REPLICATES} replicates). The warm start's eval-unseen success: ${pct(o.warm.success_unseen)}%.`,
    '',
    head,
    '',
    table,
    '',
    '## Differences, paired by seed, over layouts',
    '',
    '| difference | seeds | eval-unseen points [95% CI] | area under the curve, points [95% CI] |',
    '|---|---|---|---|',
    ...diffs.map(
      (d) =>
        `| ${label(d)} | ${d.unseen.seeds.join(', ') || 'none in common'} | ${differenceCell(d.unseen)} | ${differenceCell(d.auc)} |`,
    ),
    '',
    '## Runs that failed or were refused',
    '',
    failureSection(o.failed, runs, o.updates),
    '',
    '## Settings chosen on validation',
    '',
    'The sweeps train on every training game (no fraction).',
    '',
    sweepSection(o, o, o.evalEpisodes, o.evalSamples),
    '',
    '## Settings',
    '',
    '```json',
    JSON.stringify(base, null, 2),
    '```',
    '',
  ].join('\n');
  const side = (e: Estimate) => ({ value: e.value, ci: e.ci });
  const json = {
    headline: head,
    fractions: o.fractions.map((f) => ({
      fraction: f.fraction,
      train_games: f.trainGames,
      runs: f.runs.map((r) => ({
        algo: r.algo,
        seed: r.seed,
        lr: r.lr,
        lambda: r.lambda,
        success_unseen: r.success_unseen,
        auc_unseen: mean(areaByGame(r.curve, r.curve_won)),
        curve: r.curve,
        wall_s: Number(r.wall_s.toFixed(1)),
        metric_means: r.metric_means,
        won_unseen: wonDigits(r.won_unseen, o.evalSamples),
        curve_won_unseen: curveDigits(r, o.evalSamples),
      })),
    })),
    differences: diffs.map((d) => ({
      a: d.a,
      a_fraction: d.aFraction,
      b: d.b,
      b_fraction: d.bFraction,
      seeds: d.unseen.seeds,
      unseen: side(d.unseen),
      auc: side(d.auc),
    })),
    eval_games: o.evalGames.unseen,
    eval_samples: o.evalSamples,
    warmstart: { success_unseen: o.warm.success_unseen, won_unseen: wonDigits(o.warm.won_unseen, o.evalSamples) },
    settings,
    sweep: { seeds: o.sweepSeeds, updates: o.sweepUpdates, runs: o.sweep, points: o.points },
    failed: o.failed,
    config_hash: configHash,
    commit: commitId(o.commit),
    command: o.command,
    wall_s: Number(o.wallSeconds.toFixed(1)),
    ...(o.resumed ? { resumed_runs: o.resumed } : {}),
    ...(o.planned ? { planned: o.planned } : {}),
    estimated_s: Math.round(o.estimatedSeconds),
  };
  return { markdown, json, headline: head, table };
}
