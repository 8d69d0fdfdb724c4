// The benchmark and its reports, one path for every way its jobs run: runPlan asks a Runner for the jobs (child
// processes in a local run, kept by the job store; the results in a plan's folder when a plan is collected,
// plan_collect.ts), and the same report functions then write the same files and print the same table.
import { environmentOf } from '../../worlds/environments.ts';
import { worldOrDefault } from '../../worlds/names.ts';
import { commandLine, portablePath, type SourceCommit } from '../../cli/provenance.ts';
import { outPath, reportName, writeOutput } from '../output.ts';
import { estimatePlan, runPlan, type LearnPlan } from './benchmark.ts';
import { renderFractions } from './report/fractions_report.ts';
import { evalGames } from './design/games.ts';
import type { LearnValues } from './plan_options.ts';
import { buildRecord, readRecordIndex, writeRecord } from './report/record.ts';
import { renderLearn } from './report/report.ts';
import { pct } from './stats/stats.ts';
import type { Runner } from './sweeps/sweep.ts';

/** One invocation of the benchmark: its options as given and as read, and the commit it runs at. */
export interface Invocation {
  /** The options (the report's command line). */
  args: readonly string[];
  values: LearnValues;
  plan: LearnPlan;
  commit: SourceCommit | null;
  /** The report's directory (--out). */
  out: string | undefined;
}

export interface ReportExtras {
  /** The init checkpoint the jobs name, where it is not the plan's (a plan's folder names its copy). */
  jobInit?: string;
  /** Runs taken from an earlier invocation's store, once the runs are done (--resume). */
  resumed?: () => number;
  /** The folder of the plan whose jobs ran the runs (--collect): the report says so. */
  planned?: string;
}

/** Runs the benchmark's jobs on `run`, then writes its reports and prints its table. */
export async function runAndReport(
  inv: Invocation,
  run: Runner,
  log: (s: string) => void,
  extras: ReportExtras = {},
): Promise<void> {
  const { plan, values } = inv;
  const env = environmentOf(worldOrDefault(plan.env));
  const recordFile = values.record;
  if (recordFile !== undefined) await readRecordIndex(recordFile);
  const estimatedSeconds = estimatePlan(plan);
  log(
    `estimated wall time: ${(estimatedSeconds / 60).toFixed(0)} min on ${plan.workers} worker${plan.workers === 1 ? '' : 's'}`,
  );
  const t0 = performance.now();
  const outcome = await runPlan(extras.jobInit === undefined ? plan : { ...plan, init: extras.jobInit }, run, log);
  const common = {
    ...plan,
    command: commandLine('bench learn', inv.args),
    commit: inv.commit,
    init: portablePath(plan.init),
    settings: outcome.settings,
    sweep: outcome.sweep,
    points: outcome.points,
    edges: outcome.edges,
    ...(plan.pickBest ? { algos: outcome.algos, controls: outcome.controls, picked: outcome.picked } : {}),
    failed: outcome.failed,
    warm: outcome.warm,
    evalGames: evalGames(plan.evalEpisodes, env),
    wallSeconds: (performance.now() - t0) / 1000,
    estimatedSeconds,
    resumed: extras.resumed?.() ?? 0,
    ...(extras.planned === undefined ? {} : { planned: extras.planned }),
  };
  const file = (name: string, ext: string) => outPath(inv.out, `${reportName(name, plan.env)}.${ext}`);
  if (plan.fractions.length) {
    const report = renderFractions({ ...common, fractions: outcome.fractions });
    await writeOutput(file('learn_fractions', 'md'), report.markdown);
    await writeOutput(file('learn_fractions', 'json'), `${JSON.stringify(report.json, null, 2)}\n`);
    process.stdout.write(`${report.headline}\n\n${report.table}\n`);
  } else {
    const learn = { ...common, runs: outcome.runs, promoted: outcome.promoted, full: values.full === true };
    const report = renderLearn(learn);
    await writeOutput(file('learn', 'md'), report.markdown);
    await writeOutput(file('learn', 'json'), `${JSON.stringify(report.json, null, 2)}\n`);
    await writeOutput(file('learn_curve', 'svg'), report.svg);
    if (recordFile !== undefined) {
      const bytes = await writeRecord(recordFile, buildRecord(learn, report, new Date()));
      log(`record: ${bytes} bytes`);
    }
    process.stdout.write(`${report.headline}\n\n${report.table}\n\n${report.efficiency}\n`);
  }
  process.stderr.write(`warm start seen ${pct(outcome.warm.success_seen)}%\n`);
  if (outcome.failed.length)
    process.stderr.write(
      `${outcome.failed.length} run${outcome.failed.length === 1 ? '' : 's'} failed: listed in the report\n`,
    );
}
