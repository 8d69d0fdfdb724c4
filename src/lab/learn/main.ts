import { environmentOf } from '../../worlds/environments.ts';
import { worldOrDefault } from '../../worlds/names.ts';
import { tokenizerOf } from '../../text/tokenizer.ts';
import { noPositionals, parseOptions } from '../../cli/args.ts';
import { usageLine } from '../../cli/help.ts';
import { quote } from '../../common/json.ts';
import { CliError } from '../../cli/cli_error.ts';
import { makeDir, readCheckpointFile } from '../../cli/io.ts';
import { sourceCommit } from '../../cli/provenance.ts';
import { lockRunDir } from '../../cli/run_dir.ts';
import { outPath } from '../output.ts';
import type { LearnPlan } from './benchmark.ts';
import { checkInitPreset, PRESET, type Job } from './jobs/job.ts';
import { JobStore, type ReportingRunner } from './jobs/job_store.ts';
import { collectBenchmark, planBenchmark } from './plan_collect.ts';
import { command, withoutOptions, type LearnValues } from './plan_options.ts';
import { readPlan } from './plan_read.ts';
import { runAll } from './jobs/pool.ts';
import { runWorker } from './jobs/worker.ts';
import { runAndReport } from './write_reports.ts';

export { command };

const usage = usageLine(command);

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, command);
  noPositionals(positionals, usage);
  if (values.worker !== undefined) {
    // The job says what it runs; an option of a benchmark beside it would be ignored.
    const other = withoutOptions(args, ['worker', 'result', 'progress']).find((a) => a.startsWith('-'));
    if (other !== undefined)
      throw new CliError(
        `--worker runs one job as its file or JSON gives it, with --result and --progress alone: ${other.split('=')[0]} goes with a benchmark (--plan, --collect or a local run)`,
        2,
      );
    return runWorker(values.worker, values.result, values.progress);
  }
  if (values.result !== undefined)
    throw new CliError("--result FILE goes with --worker: it is where the job's result goes", 2);
  if (values.progress !== undefined)
    throw new CliError("--progress DIR goes with --worker: it is where the job's progress goes", 2);
  if (values.out?.endsWith('.md'))
    throw new CliError(`--out names the directory of the report files, got ${quote(values.out)}`, 2);
  if (values.collect !== undefined) return collectBenchmark(args, values);
  const plan = readPlan(values);
  const env = environmentOf(worldOrDefault(plan.env));
  const init = await readCheckpointFile(plan.init, tokenizerOf(env));
  const preset = plan.preset ?? PRESET;
  checkInitPreset(plan.init, init, preset, `--preset ${preset}`);
  if (values.plan !== undefined) return planBenchmark(args, values, plan);
  // A directory that cannot be made fails now, not after the runs.
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

/** The benchmark, once its report directory is made and locked: its jobs in child processes, kept as they finish. */
async function runLocked(args: string[], values: LearnValues, plan: LearnPlan, outDir: string): Promise<number> {
  const log = (s: string) => process.stderr.write(`${s}\n`);
  const commit = sourceCommit();
  const store = await JobStore.open(outDir, commit, values.resume === true);
  const pool: ReportingRunner = (jobs, onDone, progressDirs) => runAll(jobs, plan.workers, log, onDone, progressDirs);
  const alone = (jobs: Job[]) => runAll(jobs, plan.workers, log);
  await runAndReport({ args, values, plan, commit, out: values.out }, store ? store.runner(pool, log) : alone, log, {
    resumed: () => store?.resumed ?? 0,
  });
  return 0;
}
