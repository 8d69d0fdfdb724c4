// `bench learn --worker FILE|JSON [--result FILE] [--progress DIR]`: one job, in this process. A plan's job file
// (plan_dir.ts) names the init checkpoint relative to the plan's folder and holds its SHA-256, which is checked
// before the run; a job's JSON (what the local benchmark's child processes are given, pool.ts) names it as it
// is. With --result the job's result, or its failure, goes to FILE (written whole or not at all) with the commit
// it ran at, as --collect reads it; without, the result is printed as the last line of stdout. With --progress
// the run keeps its progress in DIR after each point of its curve, for the job, the commit and the init weights,
// goes on from what DIR holds of them (job_progress.ts), and removes DIR once its result is out; on a tree with
// uncommitted changes, which no commit names, it keeps none and says so.
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { messageOf } from '../../../common/errors.ts';
import { parseJson } from '../../../common/json.ts';
import { CliError } from '../../cli_error.ts';
import { readInput } from '../../io.ts';
import { MAX_INPUT_BYTES } from '../../limits.ts';
import { commitId, sourceCommit, type SourceCommit } from '../../provenance.ts';
import { runJob, type Job, type JobResult } from './job.ts';
import { checkJob } from './job_check.ts';
import { dropProgress, type JobProgress } from './job_progress.ts';
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

const sha256 = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');

/** Whose a worker's progress is: the job as its result names it, the commit, and the init's bytes. */
export function progressKey(named: Job, commit: SourceCommit, init: Uint8Array): string {
  return sha256(JSON.stringify({ job: named, commit: commitId(commit), init: sha256(init) }));
}

const say = (line: string) => process.stderr.write(`${line}\n`);

/**
 * The progress of the job in `dir`; none outside a clean checkout, where no commit names the code that kept it
 * (said in one line: the job runs all the same, from its first update).
 */
async function progressOf(
  dir: string,
  run: Job,
  named: Job,
  commit: SourceCommit | null,
): Promise<JobProgress | undefined> {
  if (!commit || commit.dirty) {
    say(
      `--progress ${dir}: no progress is kept, for ${commit ? 'this tree has uncommitted changes' : 'this is not a git checkout'} and a run's progress is kept for the commit that ran it`,
    );
    return undefined;
  }
  return { dir, key: progressKey(named, commit, await readInput(run.init, MAX_INPUT_BYTES.checkpoint)), log: say };
}

export async function runWorker(
  given: string,
  resultFile: string | undefined,
  progressDir: string | undefined,
): Promise<number> {
  const { run, named, planDir } = await readWorkerJob(given);
  // Neither the plan's folder nor the progress's is a change to the code that runs the job. A job that keeps
  // neither a result file nor its progress names no commit, and asks git nothing.
  const ignored = [
    ...(planDir === null ? [] : [planDir]),
    ...(progressDir === undefined ? [] : [dirname(progressDir)]),
  ];
  const needsCommit = resultFile !== undefined || progressDir !== undefined;
  const commit = needsCommit ? sourceCommit(process.cwd(), ignored) : null;
  const progress = progressDir === undefined ? undefined : await progressOf(progressDir, run, named, commit);
  const done = async () => {
    if (progress) await dropProgress(progress.dir);
  };
  if (resultFile === undefined) {
    const result = await runJob(run, progress);
    process.stdout.write(`${JSON.stringify(result)}\n`);
    await done();
    return 0;
  }
  let result: JobResult;
  try {
    result = await runJob(run, progress);
  } catch (err) {
    const error = messageOf(err);
    await writeResultFile(resultFile, named, { error }, commit);
    throw new CliError(`the job failed (${error}); its failure is in ${resultFile}, which the report will list`);
  }
  await writeResultFile(resultFile, named, { result }, commit);
  await done();
  const scores =
    result.success_validation !== null
      ? `validation ${result.success_validation.toFixed(3)}`
      : `seen ${result.success_seen.toFixed(3)} unseen ${result.success_unseen.toFixed(3)}`;
  process.stderr.write(
    `${named.kind} ${named.algo} seed ${named.seed}: ${scores} (${result.wall_s.toFixed(0)} s); wrote ${resultFile}\n`,
  );
  return 0;
}
