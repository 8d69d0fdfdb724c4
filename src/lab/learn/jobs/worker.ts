// `bench learn --worker FILE|JSON [--result FILE] [--progress DIR]`: one job, in this process. A plan's job file
// (plan_dir.ts) names the init checkpoint relative to the plan's folder and holds its SHA-256, which is checked
// before the run; a job's JSON (what the local benchmark's child processes are given, pool.ts) names it as it
// is. With --result the job's result, or its failure, goes to FILE (written whole or not at all) with the commit
// it ran at, as --collect reads it; without, the result is printed as the last line of stdout. With --progress
// the run keeps its progress in DIR after each point of its curve, for the job, the commit and the init weights,
// goes on from what DIR holds of them (job_progress.ts), and removes DIR once its result is out; on a tree with
// uncommitted changes, which no commit names, it keeps none and says so (DIR, other jobs' progress folders beside
// it and the plan's folder are no change; any other file is). Before the job runs, its inputs and
// places are checked: its init is of its world and preset; FILE is none of its inputs and, inside a plan's
// folder, its job's results/N.json; DIR is a progress folder (or none yet) apart from this folder, its parents
// and every file the job reads or writes.
import { createHash } from 'node:crypto';
import { existsSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { messageOf } from '../../../common/errors.ts';
import { parseJson } from '../../../common/json.ts';
import { CliError } from '../../../cli/cli_error.ts';
import { checkOutputsApart, readInput } from '../../../cli/io.ts';
import { MAX_INPUT_BYTES } from '../../../cli/limits.ts';
import { commitId, sourceCommit, type SourceCommit } from '../../../cli/provenance.ts';
import { readJobInit, runJob, type Job, type JobResult } from './job.ts';
import { checkJob } from './job_check.ts';
import { dropProgress, progressFolderProblem, progressFoldersBeside, type JobProgress } from './job_progress.ts';
import { checkInit, PLAN_FILE, readJobFile, writeResultFile } from './plan_dir.ts';

/** The job to run (its init where this machine finds it), the job as its result names it, and its plan's job file. */
interface WorkerJob {
  run: Job;
  named: Job;
  /** From a plan's job file: the plan's folder, the file and the job's number. */
  plan: { dir: string; file: string; number: number } | null;
}

async function readWorkerJob(given: string): Promise<WorkerJob> {
  if (given.trimStart().startsWith('{')) {
    let job: Job;
    try {
      job = checkJob(parseJson(given));
    } catch (err) {
      throw new CliError(`--worker takes a job file or the JSON of a job (${messageOf(err)})`, 2);
    }
    return { run: job, named: job, plan: null };
  }
  const { job, dir, init, number } = await readJobFile(given);
  const path = join(dir, job.init);
  await checkInit(path, init, `job file ${given}`);
  return { run: { ...job, init: path }, named: job, plan: { dir, file: given, number } };
}

/** `path` as the file system finds it: its longest part that exists with the links in it followed, then the rest. */
function realPath(path: string): string {
  const absolute = resolve(path);
  try {
    return realpathSync(absolute);
  } catch {
    const parent = dirname(absolute);
    return parent === absolute ? absolute : join(realPath(parent), basename(absolute));
  }
}

/** Whether `path` is `dir` or lies inside it (both real paths). */
function inside(dir: string, path: string): boolean {
  const r = relative(dir, path);
  return r === '' || (r !== '..' && !r.startsWith(`..${sep}`) && !isAbsolute(r));
}

/**
 * Refuses a result file that is an input of the job (its job file, its init) or a file of a plan's folder other
 * than a result, and, for a plan's job, other than its own (results/N.json): a plan's files, and another job's
 * result, are what --collect reads.
 */
function checkResultPlace(file: string, job: WorkerJob): void {
  checkOutputsApart(
    [{ option: '--result', path: file }],
    [
      ...(job.plan ? [{ option: '--worker', path: job.plan.file }] : []),
      { option: "the job's init", path: job.run.init },
    ],
  );
  const existing = statSync(file, { throwIfNoEntry: false });
  if (existing && !existing.isFile()) throw new CliError(`--result ${file} is not a regular file`, 2);
  const path = realPath(file);
  const name = job.plan ? `${job.plan.number}.json` : null;
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    if (
      existsSync(join(dir, PLAN_FILE)) &&
      (dirname(path) !== join(dir, 'results') || (name && basename(path) !== name))
    )
      throw new CliError(
        `--result ${file} lies in the plan's folder ${dir}, where ${job.plan ? `job ${job.plan.number}'s result goes to results/${name}` : "a job's result goes to results/N.json"} and nothing else is written`,
        2,
      );
    if (dirname(dir) === dir) return;
  }
}

/**
 * Refuses a progress folder that is this folder or one above it, that holds (or whose DIR.new holds) a file the
 * job reads or writes, or that is no progress folder: a job removes its progress folder once its result is out.
 */
async function checkProgressPlace(dir: string, resultFile: string | undefined, job: WorkerJob): Promise<void> {
  const own = "a job's progress goes in a folder of its own, which is removed once its result is out";
  const here = realPath('.');
  const real = realPath(dir);
  if (inside(real, here))
    throw new CliError(`--progress ${dir} is ${real === here ? 'this folder' : 'a folder above this one'}: ${own}`, 2);
  const held: [what: string, path: string | undefined][] = [
    ['the result file', resultFile],
    ['the job file', job.plan?.file],
    ["the plan's folder", job.plan?.dir],
    ["the job's init", job.run.init],
  ];
  for (const [what, path] of held) {
    if (path === undefined) continue;
    const file = realPath(path);
    if (inside(real, file) || inside(`${real}.new`, file))
      throw new CliError(`--progress ${dir} holds ${what} ${path}: ${own}`, 2);
  }
  for (const folder of [dir, `${dir}.new`]) {
    const problem = await progressFolderProblem(folder);
    if (problem !== null)
      throw new CliError(`--progress ${dir}: ${folder} is no job's progress folder (${problem}): ${own}`, 2);
  }
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
  const job = await readWorkerJob(given);
  const { run, named } = job;
  await readJobInit(run);
  if (resultFile !== undefined) checkResultPlace(resultFile, job);
  if (progressDir !== undefined) await checkProgressPlace(progressDir, resultFile, job);
  // Neither the plan's folder nor a job's progress (its own, and other jobs' beside it) is a change to the code
  // that runs the job; any other file beside them is. A job that keeps neither a result file nor its progress
  // names no commit, and asks git nothing.
  const ignored = [
    ...(job.plan === null ? [] : [job.plan.dir]),
    ...(progressDir === undefined ? [] : await progressFoldersBeside(progressDir)),
  ];
  const needsCommit = resultFile !== undefined || progressDir !== undefined;
  const commit = needsCommit ? sourceCommit(process.cwd(), ignored) : null;
  const progress = progressDir === undefined ? undefined : await progressOf(progressDir, run, named, commit);
  const done = async () => {
    if (progress) await dropProgress(progress.dir).catch((err) => say(`the job's progress is kept: ${messageOf(err)}`));
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
      ? `validation-unseen ${result.success_validation.toFixed(3)}`
      : `seen ${result.success_seen.toFixed(3)} unseen ${result.success_unseen.toFixed(3)}`;
  process.stderr.write(
    `${named.kind} ${named.algo} seed ${named.seed}: ${scores} (${result.wall_s.toFixed(0)} s); wrote ${resultFile}\n`,
  );
  return 0;
}
