import { environmentOf } from '../../../worlds/environments.ts';
import { tokenizerOf } from '../../../text/tokenizer.ts';
import { noPositionals, parseOptions } from '../../args.ts';
import { usageLine } from '../../help.ts';
import { quote } from '../../../common/json.ts';
import { CliError } from '../../cli_error.ts';
import { makeDir, readCheckpointFile } from '../../io.ts';
import { commandLine, portablePath, sourceCommit } from '../../provenance.ts';
import { lockRunDir } from '../../run_dir.ts';
import { outPath, writeOutput } from '../output.ts';
import { estimatePlan, runPlan, type LearnPlan } from './benchmark.ts';
import { renderFractions } from './fractions.ts';
import { evalGames, reportName } from './games.ts';
import { runJob, type Job } from './job.ts';
import { JobStore } from './job_store.ts';
import { runAll } from './pool.ts';
import { buildRecord, readRecordIndex, writeRecord } from './record.ts';
import { renderLearn } from './report.ts';
import { pct } from './stats.ts';
import { command, readPlan, type LearnValues } from './plan_options.ts';
import { worldOrDefault } from '../../../worlds/names.ts';

export { command };

const usage = usageLine(command);

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, command);
  noPositionals(positionals, usage);
  if (values.worker !== undefined) {
    let job: Job;
    try {
      job = JSON.parse(values.worker) as Job;
    } catch (err) {
      throw new CliError(`--worker takes the JSON of a job (${(err as Error).message})`, 2);
    }
    const result = await runJob(job);
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return 0;
  }
  const plan = readPlan(values);
  const env = environmentOf(worldOrDefault(plan.env));
  await readCheckpointFile(plan.init, tokenizerOf(env));
  // A directory that cannot be made fails now, not after the runs.
  if (values.out?.endsWith('.md'))
    throw new CliError(`--out names the directory of the report files, got ${quote(values.out)}`, 2);
  const outDir = outPath(values.out, '.');
  await makeDir(outDir);
  // Two invocations on one directory would keep runs in the same store and write over each other's report.
  const lock = lockRunDir(outDir, 'one bench learn at a time writes its report directory');
  try {
    return await runLocked(args, values, plan, outDir);
  } finally {
    lock.release();
  }
}

/** The benchmark, once its report directory is made and locked. */
async function runLocked(args: string[], values: LearnValues, plan: LearnPlan, outDir: string): Promise<number> {
  const env = environmentOf(worldOrDefault(plan.env));
  const recordFile = values.record;
  if (recordFile !== undefined) await readRecordIndex(recordFile);
  const log = (s: string) => process.stderr.write(`${s}\n`);
  const commit = sourceCommit();
  const estimatedSeconds = estimatePlan(plan);
  log(
    `estimated wall time: ${(estimatedSeconds / 60).toFixed(0)} min on ${plan.workers} worker${plan.workers === 1 ? '' : 's'}`,
  );
  const store = await JobStore.open(outDir, commit, values.resume === true);
  const pool = (jobs: Job[], onDone?: Parameters<typeof runAll>[3]) => runAll(jobs, plan.workers, log, onDone);
  const t0 = performance.now();
  const outcome = await runPlan(plan, store ? store.runner(pool, log) : pool, log);
  const common = {
    ...plan,
    command: commandLine('bench learn', args),
    commit,
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
    resumed: store?.resumed ?? 0,
  };
  if (plan.fractions.length) {
    const report = renderFractions({ ...common, fractions: outcome.fractions });
    await writeOutput(outPath(values.out, `${reportName('learn_fractions', plan.env)}.md`), report.markdown);
    await writeOutput(
      outPath(values.out, `${reportName('learn_fractions', plan.env)}.json`),
      `${JSON.stringify(report.json, null, 2)}\n`,
    );
    process.stdout.write(`${report.headline}\n\n${report.table}\n`);
  } else {
    const learn = { ...common, runs: outcome.runs, full: values.full === true };
    const report = renderLearn(learn);
    await writeOutput(outPath(values.out, `${reportName('learn', plan.env)}.md`), report.markdown);
    await writeOutput(
      outPath(values.out, `${reportName('learn', plan.env)}.json`),
      `${JSON.stringify(report.json, null, 2)}\n`,
    );
    await writeOutput(outPath(values.out, `${reportName('learn_curve', plan.env)}.svg`), report.svg);
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
  return 0;
}
