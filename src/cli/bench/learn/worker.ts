// `bench learn --worker FILE|JSON [--result FILE]`: one job, in this process. A plan's job file (plan_dir.ts)
// names the init checkpoint relative to the plan's folder and holds its SHA-256, which is checked before the
// run; a job's JSON (what the local benchmark's child processes are given, pool.ts) names it as it is. With
// --result the job's result, or its failure, goes to FILE (written whole or not at all) with the commit it ran
// at, as --collect reads it; without, the result is printed as the last line of stdout.
import { join } from 'node:path';
import { messageOf } from '../../../common/errors.ts';
import { parseJson } from '../../../common/json.ts';
import { CliError } from '../../cli_error.ts';
import { sourceCommit } from '../../provenance.ts';
import { runJob, type Job, type JobResult } from './job.ts';
import { checkJob } from './job_check.ts';
import { checkInit, readJobFile, writeResultFile } from './plan_dir.ts';

/** The job to run (its init where this machine finds it) and the job as its result names it. */
async function readWorkerJob(given: string): Promise<{ run: Job; named: Job; planDir: string | null }> {
  if (given.trimStart().startsWith('{')) {
    let job: Job;
    try {
      job = checkJob(parseJson(given));
    } catch (err) {
      throw new CliError(`--worker takes a job file or the JSON of a job (${messageOf(err)})`, 2);
    }
    return { run: job, named: job, planDir: null };
  }
  const { job, dir, init } = await readJobFile(given);
  const path = join(dir, job.init);
  await checkInit(path, init, `job file ${given}`);
  return { run: { ...job, init: path }, named: job, planDir: dir };
}

export async function runWorker(given: string, resultFile: string | undefined): Promise<number> {
  const { run, named, planDir } = await readWorkerJob(given);
  if (resultFile === undefined) {
    const result = await runJob(run);
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return 0;
  }
  // The plan's folder is no change to the code that runs the job.
  const commit = sourceCommit(process.cwd(), planDir === null ? [] : [planDir]);
  let result: JobResult;
  try {
    result = await runJob(run);
  } catch (err) {
    const error = messageOf(err);
    await writeResultFile(resultFile, named, { error }, commit);
    throw new CliError(`the job failed (${error}); its failure is in ${resultFile}, which the report will list`);
  }
  await writeResultFile(resultFile, named, { result }, commit);
  const scores =
    result.success_validation !== null
      ? `validation ${result.success_validation.toFixed(3)}`
      : `seen ${result.success_seen.toFixed(3)} unseen ${result.success_unseen.toFixed(3)}`;
  process.stderr.write(
    `${named.kind} ${named.algo} seed ${named.seed}: ${scores} (${result.wall_s.toFixed(0)} s); wrote ${resultFile}\n`,
  );
  return 0;
}
