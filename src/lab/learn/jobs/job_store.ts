// The finished runs of `bench learn`, kept one file per job in DIR/.learn_jobs/ as each finishes, so that a
// benchmark cut short (a crash, a killed session) goes on where it stopped with --resume instead of starting
// over. A job's key is the SHA-256 of its JSON, the source commit and the bytes of its init checkpoint: a run
// is taken from the store only when the same code would run the same job from the same weights, which on the
// CPU backend gives the same result bit for bit. A tree with uncommitted changes names no code, so it neither
// keeps runs nor resumes. Failed runs are not kept: they run again. A kept file that --resume cannot use
// (unreadable, of another shape or job, a number out of range: kept_run_check.ts) counts as missing: it is
// renamed beside itself (KEY.json.damaged), never removed, and its job runs again under its usual name. A run
// keeps its progress in KEY.progress/ while it runs (job_progress.ts): --resume goes on from it, a run without
// --resume removes it first, and it is removed once the run is kept.
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { messageOf } from '../../../common/errors.ts';
import { parseJson } from '../../../common/json.ts';
import { commitId, type SourceCommit } from '../../../cli/provenance.ts';
import { CliError } from '../../../cli/cli_error.ts';
import { asideName, readTextInput, writeAtomic } from '../../../cli/io.ts';
import type { Job, JobResult } from './job.ts';
import { checkKeptRun, type KeptRun } from './kept_run_check.ts';
import { dropProgress } from './job_progress.ts';
import type { JobOutcome, ProgressDirs } from './pool.ts';

export const JOB_STORE_DIR = '.learn_jobs';
/** A run's progress goes in KEY.progress/ beside its kept result KEY.json (job_progress.ts). */
const PROGRESS_SUFFIX = '.progress';

/**
 * Runs jobs, telling `onDone` of each outcome as it comes, each job keeping its progress where `progressDirs`
 * says; outcomes in the order given.
 */
export type ReportingRunner = (
  jobs: Job[],
  onDone: (outcome: JobOutcome) => Promise<void>,
  progressDirs?: ProgressDirs,
) => Promise<JobOutcome[]>;

/** The most bytes a kept run is read to: a recorded run with its episodes takes a few megabytes. */
const MAX_KEPT_BYTES = 64 << 20;

const reason = (err: unknown) => (err as NodeJS.ErrnoException).code ?? messageOf(err);

const sha256 = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');

export class JobStore {
  /** Runs asked for, runs taken from the store, and kept files that could not be used (those ran again). */
  asked = 0;
  resumed = 0;
  unusable = 0;
  private readonly inits = new Map<string, string>();
  /** Keys whose damaged file could not be moved aside: a fresh run is not written over it. */
  private readonly blocked = new Set<string>();

  private constructor(
    readonly dir: string,
    private readonly commit: string,
    private readonly resume: boolean,
  ) {}

  /**
   * The store of a report directory for the code at `commit`; with `resume`, the runs it holds are reused.
   * Without a clean commit nothing is kept (null), and --resume is refused.
   */
  static async open(outDir: string, commit: SourceCommit | null, resume: boolean): Promise<JobStore | null> {
    if (!commit || commit.dirty) {
      if (resume)
        throw new CliError(
          `--resume needs a clean git checkout: the kept runs are keyed by the commit that ran them, and ${commit ? 'this tree has uncommitted changes (outside bench/)' : 'this is not a git checkout'}`,
          2,
        );
      return null;
    }
    const dir = join(outDir, JOB_STORE_DIR);
    const info = await stat(dir).catch(() => null);
    if (info && !info.isDirectory())
      throw new CliError(
        `${dir} is not a folder: bench learn keeps its finished runs there (--resume); move it away or give another --out`,
      );
    try {
      await mkdir(dir, { recursive: true });
    } catch (err) {
      throw new CliError(`cannot create ${dir}, the folder of the finished runs (--resume): ${reason(err)}`);
    }
    const store = new JobStore(dir, commitId(commit), resume);
    if (resume) await store.names();
    return store;
  }

  /** The names in the store's folder. */
  private async names(): Promise<Set<string>> {
    try {
      return new Set(await readdir(this.dir));
    } catch (err) {
      throw new CliError(`cannot read ${this.dir}, the folder of the finished runs (--resume): ${reason(err)}`);
    }
  }

  private async key(job: Job): Promise<string> {
    let init = this.inits.get(job.init);
    if (init === undefined) {
      init = sha256(await readFile(job.init));
      this.inits.set(job.init, init);
    }
    return sha256(JSON.stringify({ job, commit: this.commit, init }));
  }

  /**
   * The result kept under `key` for `job`, or null: none kept, or a file that cannot be used (unreadable, not
   * JSON, not this job's result: kept_run_check.ts), which is moved aside and said so in one line on `log`.
   */
  private async stored(key: string, job: Job, names: Set<string>, log: (s: string) => void): Promise<JobResult | null> {
    if (!names.has(`${key}.json`)) return null;
    const path = join(this.dir, `${key}.json`);
    let text: string;
    try {
      text = await readTextInput(path, MAX_KEPT_BYTES);
    } catch (err) {
      return this.setAside(key, path, messageOf(err), log);
    }
    let value: unknown;
    try {
      value = parseJson(text);
    } catch (err) {
      return this.setAside(key, path, `not JSON: ${messageOf(err)}`, log);
    }
    try {
      return checkKeptRun(value, job);
    } catch (err) {
      return this.setAside(key, path, messageOf(err), log);
    }
  }

  /**
   * Renames a kept file that cannot be used to KEY.json.damaged beside it (.damaged.2 and on when that is
   * taken), so that its job's fresh run goes under the usual name and the damaged file is still there to look
   * at. Where it cannot be moved, it stays as it is and the fresh run is not written over it.
   */
  private async setAside(key: string, path: string, why: string, log: (s: string) => void): Promise<null> {
    this.unusable++;
    const aside = await asideName(path);
    try {
      await rename(path, aside);
      log(`${path} cannot be used (${why}): moved to ${basename(aside)} beside it, and its job runs again`);
    } catch (err) {
      this.blocked.add(key);
      log(
        `${path} cannot be used (${why}) nor moved aside (${reason(err)}): left as it is, and its job runs again without being kept`,
      );
    }
    return null;
  }

  /** A runner that keeps each run as it finishes, and with resume takes the kept runs instead of running them. */
  runner(run: ReportingRunner, log: (s: string) => void): (jobs: Job[]) => Promise<JobOutcome[]> {
    return async (jobs) => {
      const keys = new Map<Job, string>();
      for (const job of jobs) keys.set(job, await this.key(job));
      const names = this.resume ? await this.names() : new Set<string>();
      const found = new Map<Job, JobResult>();
      for (const job of jobs) {
        const result = this.resume ? await this.stored(keys.get(job)!, job, names, log) : null;
        if (result) found.set(job, result);
      }
      this.asked += jobs.length;
      this.resumed += found.size;
      const missing = jobs.filter((job) => !found.has(job));
      const progressDir = (job: Job) => join(this.dir, `${keys.get(job)}${PROGRESS_SUFFIX}`);
      // A run cut short goes on from its last kept point with --resume; without, it starts over.
      const cut = missing.filter((job) => names.has(basename(progressDir(job)))).length;
      if (this.resume)
        log(
          `resumed ${found.size} of ${jobs.length} runs from ${this.dir}${cut ? `, and ${cut} cut short ${cut === 1 ? 'goes on from its' : 'go on from their'} last point` : ''}${this.unusable ? ` (${this.unusable} kept files unusable so far: they run again)` : ''}`,
        );
      else
        for (const job of missing)
          await dropProgress(progressDir(job)).catch((err) => {
            throw new CliError(
              `cannot remove ${progressDir(job)}, a run's progress that a run without --resume starts over: ${reason(err)}`,
            );
          });
      const keep = async (outcome: JobOutcome) => {
        const key = keys.get(outcome.job)!;
        if (!outcome.result || this.blocked.has(key)) return;
        const kept: KeptRun = { job: outcome.job, result: outcome.result };
        try {
          await writeAtomic(join(this.dir, `${key}.json`), `${JSON.stringify(kept)}\n`);
        } catch (err) {
          // The run itself stands; only a later --resume would run it again.
          log(`could not keep a finished run in ${this.dir}: ${messageOf(err)}`);
          return;
        }
        await dropProgress(progressDir(outcome.job)).catch((err) =>
          log(`could not remove ${progressDir(outcome.job)}, the progress of a kept run: ${reason(err)}`),
        );
      };
      const ran = new Map((await run(missing, keep, progressDir)).map((o) => [o.job, o]));
      return jobs.map((job) => (found.has(job) ? { job, result: found.get(job)! } : ran.get(job)!));
    };
  }
}
