// The report of `bench learn --fractions`, learn_fractions.md and learn_fractions.json beside the main report:
// the figures of stats/fractions.ts, the sentences and tables of fractions_prose.ts, the sweep that chose the
// settings, the configuration hash and the wall time.
import { hashString, Rng } from '../../../common/rng.ts';
import type { TrainConfig } from '../../../rl/config.ts';
import type { Algo } from '../../../rl/arms.ts';
import { commitId, type SourceCommit } from '../../../cli/provenance.ts';
import type { FractionRuns } from '../stats/fractions.ts';
import { layoutClusters, SWEEP_GAMES, type EvalGame } from '../design/games.ts';
import type { JobResult } from '../jobs/job.ts';
import { fractionDifferences, fractionRows } from '../stats/fractions.ts';
import { bestDistillingArm } from '../sweeps/headline.ts';
import { areaByGame, mean, type Estimate } from '../stats/stats.ts';
import type { ArmSettings, FailedRun, SweepPlan } from '../sweeps/sweep.ts';
import type { SweepPoint, SweepRun } from '../sweeps/sweep_points.ts';
import { fractionsHeadline, fractionsMarkdown, fractionsTable } from './fractions_prose.ts';
import { curveDigits, wonDigits } from './report.ts';
import { settingsJson } from './sweep_report.ts';

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

export function renderFractions(o: FractionsOutcome): {
  markdown: string;
  json: object;
  headline: string;
  table: string;
} {
  const rng = new Rng(hashString('bench/learn/fractions/bootstrap'));
  const clusters = layoutClusters(o.evalGames.unseen);
  const table = fractionsTable(fractionRows(o.fractions, clusters, rng), o.settings);
  const diffs = fractionDifferences(o.fractions, clusters, rng);
  const head = fractionsHeadline(bestDistillingArm(o.algos, o.settings, o.points), diffs);
  const base: TrainConfig = o.base;
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
  const markdown = fractionsMarkdown({
    ...o,
    configHash,
    clusterCount: clusters.length,
    headline: head,
    table,
    differences: diffs,
    runs,
  });
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
    sweep: { seeds: o.sweepSeeds, updates: o.sweepUpdates, games: SWEEP_GAMES, runs: o.sweep, points: o.points },
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
