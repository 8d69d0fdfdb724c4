// The folder of a planned `bench learn` (--plan DIR, --collect DIR, --worker DIR/jobs/N.json): what each file
// holds, how it is written and how it is checked when read back.
//
//   DIR/plan.json       the invocation (its options and workers), the commit that planned it, the init
//                       checkpoint's SHA-256, and every job asked so far by number (the SHA-256 of its JSON)
//   DIR/init.ckpt       a copy of --init: every job names it relative to DIR, and checks its SHA-256
//   DIR/jobs/N.json     job N, self-contained: the job runJob runs and the init checkpoint's SHA-256
//   DIR/results/N.json  job N's result ({job, result, commit}), or its failure ({job, error, commit})
//   DIR/pending.txt     the numbers of the jobs to run next, one a line; empty once the reports are written
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { messageOf } from '../../../common/errors.ts';
import { parseJson } from '../../../common/json.ts';
import { array, object, refuse, show, whole } from '../../../rl/recorded_run_check.ts';
import { CliError } from '../../../cli/cli_error.ts';
import { makeDir, readInput, readTextInput, writeAtomic } from '../../../cli/io.ts';
import { MAX_INPUT_BYTES } from '../../../cli/limits.ts';
import type { SourceCommit } from '../../../cli/provenance.ts';
import type { Job, JobResult } from './job.ts';
import { checkJob } from './job_check.ts';
import { checkKeptRun } from './kept_run_check.ts';
import type { JobOutcome } from './pool.ts';

export const PLAN_FILE = 'plan.json';
export const INIT_FILE = 'init.ckpt';
export const PENDING_FILE = 'pending.txt';
const FORMAT = 'seed bench learn plan';
const JOB_FORMAT = 'seed bench learn job';
const VERSION = 1;
/** The most bytes a plan, a job or a result file is read to (a recorded run's result holds its episodes). */
const MAX_FILE_BYTES = 64 << 20;
/** The most jobs a plan numbers, and the longest error text a failure keeps. */
const MAX_JOBS = 100_000;
const MAX_ERROR = 4000;

export interface PlanManifest {
  format: typeof FORMAT;
  version: typeof VERSION;
  /** The invocation's options, without --plan DIR: --collect reads the plan from them. */
  args: string[];
  /** Its workers (from the planning machine's cores unless given): the report's, and its estimate's. */
  workers: number;
  /** The commit that planned it (null outside a git checkout): jobs and the collection run the same code. */
  commit: SourceCommit | null;
  /** The SHA-256 of DIR/init.ckpt, the copy of --init. */
  init: string;
  /** Every job asked so far, by number (in the order first asked): the SHA-256 of its JSON and what it is. */
  jobs: { sha256: string; what: string }[];
}

const sha256 = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');

/** A job's key among the plan's jobs: the SHA-256 of its JSON, which the same invocation asks again alike. */
export const jobKey = (job: Job) => sha256(JSON.stringify(job));

const jobPath = (dir: string, n: number) => join(dir, 'jobs', `${n}.json`);
const resultPath = (dir: string, n: number) => join(dir, 'results', `${n}.json`);

/** The one command that runs job N of the plan in DIR, as the docs and the printed plan give it. */
export function jobCommand(dir: string, n: number | string): string {
  const at = (kind: string) => join(dir, kind, `${n}.json`);
  return `npm run seed -- bench learn --worker ${at('jobs')} --result ${at('results')}`;
}

/** A refusal of a file's content as a CliError naming the file. */
function checked<T>(path: string, check: () => T): T {
  try {
    return check();
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw new CliError(`${path} cannot be used: ${messageOf(err)}`);
  }
}

async function readJsonFile(path: string): Promise<unknown> {
  const text = await readTextInput(path, MAX_FILE_BYTES);
  return checked(path, () => parseJson(text));
}

const hex = (v: unknown, at: string): string => {
  if (typeof v !== 'string' || !/^[0-9a-f]{64}$/.test(v)) refuse(`${at} is ${show(v)}, not a SHA-256`);
  return v;
};

function sourceCommitOf(v: unknown, at: string): SourceCommit | null {
  if (v === null) return null;
  const o = object(v, at);
  if (typeof o.hash !== 'string' || !/^[0-9a-f]{4,64}$/.test(o.hash)) refuse(`${at}.hash is ${show(o.hash)}`);
  if (typeof o.dirty !== 'boolean') refuse(`${at}.dirty is ${show(o.dirty)}, not true or false`);
  return { hash: o.hash, dirty: o.dirty };
}

/** DIR/plan.json, checked whole. */
export async function readManifest(dir: string): Promise<PlanManifest> {
  const path = join(dir, PLAN_FILE);
  if (!existsSync(path))
    throw new CliError(`${dir} holds no ${PLAN_FILE}: plan a benchmark into it first (bench learn ... --plan DIR)`, 2);
  const value = await readJsonFile(path);
  return checked(path, () => {
    const o = object(value, 'the plan');
    if (o.format !== FORMAT || o.version !== VERSION)
      refuse(`it is ${show(o.format)} version ${show(o.version)}, not ${FORMAT} version ${VERSION}`);
    const args = array(o.args, 'args', 10_000).map((a, i) => {
      if (typeof a !== 'string') refuse(`args[${i}] is ${show(a)}, not text`);
      return a;
    });
    const first = new Map<string, number>();
    const jobs = array(o.jobs, 'jobs', MAX_JOBS).map((j, i) => {
      const job = object(j, `jobs[${i}]`);
      if (typeof job.what !== 'string') refuse(`jobs[${i}].what is ${show(job.what)}, not text`);
      const sha = hex(job.sha256, `jobs[${i}].sha256`);
      if (first.has(sha)) refuse(`jobs[${i}].sha256 is that of jobs[${first.get(sha)}]: one job has one number`);
      first.set(sha, i);
      return { sha256: sha, what: job.what };
    });
    return {
      format: FORMAT,
      version: VERSION,
      args,
      workers: whole(o.workers, 'workers', 1, 64),
      commit: sourceCommitOf(o.commit, 'commit'),
      init: hex(o.init, 'init'),
      jobs,
    };
  });
}

/**
 * Refuses a plan whose jobs, by number, are not those of its job files: the replay finds each job by the
 * SHA-256 of its JSON, so a number whose SHA-256 was changed would have its job planned again under a new
 * number, and its result never read. A job file that is absent or cannot be read is left to the replay, which
 * writes it again where its job has no result.
 */
export async function checkJobFiles(dir: string, manifest: PlanManifest): Promise<void> {
  for (const [n, { sha256 }] of manifest.jobs.entries()) {
    const path = jobPath(dir, n);
    if (!existsSync(path)) continue;
    const read = await readJobFile(path).catch(() => null);
    if (read !== null && jobKey(read.job) !== sha256)
      throw new CliError(
        `${join(dir, PLAN_FILE)} cannot be used: its job ${n} (SHA-256 ${sha256.slice(0, 12)}...) is not the job of ${path} (${jobKey(read.job).slice(0, 12)}...), so one of them was changed after it was planned`,
      );
  }
}

export async function writeManifest(dir: string, manifest: PlanManifest): Promise<void> {
  await writeAtomic(join(dir, PLAN_FILE), `${JSON.stringify(manifest, null, 1)}\n`);
}

/** Copies the init checkpoint into DIR (unless it is DIR's copy already); its SHA-256. */
export async function copyInit(dir: string, init: string): Promise<string> {
  const bytes = await readInput(init, MAX_INPUT_BYTES.checkpoint);
  const copy = join(dir, INIT_FILE);
  await makeDir(dir);
  if (resolve(init) !== resolve(copy)) await writeAtomic(copy, bytes);
  return sha256(bytes);
}

/** Refuses an init checkpoint whose bytes are not those the plan copied. */
export async function checkInit(path: string, expected: string, what: string): Promise<void> {
  const found = sha256(await readInput(path, MAX_INPUT_BYTES.checkpoint));
  if (found !== expected)
    throw new CliError(
      `${path} is not the init checkpoint ${what} was planned from (SHA-256 ${found.slice(0, 12)}..., the plan's is ${expected.slice(0, 12)}...)`,
    );
}

export async function writeJobFile(dir: string, n: number, job: Job, init: string): Promise<void> {
  await makeDir(join(dir, 'jobs'));
  const file = { format: JOB_FORMAT, version: VERSION, number: n, init_sha256: init, job };
  await writeAtomic(jobPath(dir, n), `${JSON.stringify(file, null, 1)}\n`);
}

/** A job file, checked: the job (its init named relative to the plan's folder) and where that folder is. */
export async function readJobFile(path: string): Promise<{ job: Job; dir: string; init: string; number: number }> {
  const value = await readJsonFile(path);
  return checked(path, () => {
    const o = object(value, 'the job file');
    if (o.format !== JOB_FORMAT || o.version !== VERSION)
      refuse(`it is ${show(o.format)} version ${show(o.version)}, not ${JOB_FORMAT} version ${VERSION}`);
    const number = whole(o.number, 'number', 0, MAX_JOBS);
    // Its name is the number --collect reads its result by: a job file copied over another's would run the
    // other job and have its result taken for this one's.
    if (basename(path) !== `${number}.json`) refuse(`it is job ${number}, whose file is named ${number}.json`);
    const job = checkJob(o.job);
    if (job.init.startsWith('/') || job.init.split(/[\\/]/).includes('..'))
      refuse(`job.init is ${show(job.init)}, not a path inside the plan's folder`);
    // The plan's folder is the one above jobs/.
    return { job, dir: dirname(dirname(resolve(path))), init: hex(o.init_sha256, 'init_sha256'), number };
  });
}

/** What a worker writes for its job: the result, or why there is none, with the commit it ran at. */
export async function writeResultFile(
  path: string,
  job: Job,
  outcome: { result: JobResult } | { error: string },
  commit: SourceCommit | null,
): Promise<void> {
  await makeDir(dirname(path));
  await writeAtomic(path, `${JSON.stringify({ job, ...outcome, commit })}\n`);
}

/**
 * Job N's outcome from DIR/results/N.json for `job`, or null: no file yet, or one that cannot be used (not JSON,
 * another job's, run at another commit than the plan's, a result that fails the checks --resume applies:
 * kept_run_check.ts), which `log` names in one line; its job then counts as missing and runs again.
 */
export async function readResult(
  dir: string,
  n: number,
  job: Job,
  commit: SourceCommit | null,
  log: (s: string) => void,
): Promise<JobOutcome | null> {
  const path = resultPath(dir, n);
  if (!existsSync(path)) return null;
  try {
    const value = parseJson(await readTextInput(path, MAX_FILE_BYTES));
    const o = object(value, 'the file');
    const ran = sourceCommitOf(o.commit, 'commit');
    if ((ran?.hash ?? null) !== (commit?.hash ?? null))
      refuse(`it ran at commit ${ran?.hash ?? 'unknown'}, the plan at ${commit?.hash ?? 'unknown'}`);
    if (o.error === undefined) return { job, result: checkKeptRun(o, job) };
    if (JSON.stringify(o.job) !== JSON.stringify(job)) refuse('it holds the failure of another job than its number');
    if (typeof o.error !== 'string' || o.error.length > MAX_ERROR) refuse(`error is ${show(o.error)}, not a reason`);
    return { job, error: o.error };
  } catch (err) {
    log(`${path} cannot be used (${messageOf(err)}): job ${n} counts as missing, to be run again`);
    return null;
  }
}
