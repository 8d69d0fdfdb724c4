// The finished runs of `bench learn`, kept one file per job in DIR/.learn_jobs/ as each finishes, so that a
// benchmark cut short (a crash, a killed session) goes on where it stopped with --resume instead of starting
// over. A job's key is the SHA-256 of its JSON, the source commit and the bytes of its init checkpoint: a run
// is taken from the store only when the same code would run the same job from the same weights, which on the
// CPU backend gives the same result bit for bit. A tree with uncommitted changes names no code, so it neither
// keeps runs nor resumes. Failed runs are not kept: they run again.
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { messageOf } from '../../../common/errors.ts';
import { commitId, type SourceCommit } from '../../provenance.ts';
import { CliError } from '../../cli_error.ts';
import { writeAtomic } from '../../io.ts';
import type { Job, JobResult } from './job.ts';
import type { JobOutcome } from './pool.ts';

export const JOB_STORE_DIR = '.learn_jobs';

/** Runs jobs, telling `onDone` of each outcome as it comes; outcomes in the order given. */
export type ReportingRunner = (jobs: Job[], onDone: (outcome: JobOutcome) => Promise<void>) => Promise<JobOutcome[]>;

interface StoredRun {
  job: Job;
  result: JobResult;
}

const sha256 = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');

export class JobStore {
  /** Runs asked for, runs taken from the store, and kept files that could not be used (those ran again). */
  asked = 0;
  resumed = 0;
  unusable = 0;
  private readonly inits = new Map<string, string>();

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
    await mkdir(dir, { recursive: true });
    return new JobStore(dir, commitId(commit), resume);
  }

  private async key(job: Job): Promise<string> {
    let init = this.inits.get(job.init);
    if (init === undefined) {
      init = sha256(await readFile(job.init));
      this.inits.set(job.init, init);
    }
    return sha256(JSON.stringify({ job, commit: this.commit, init }));
  }

  /** The result kept under `key` for `job`, or null (none, unreadable, or another job's). */
  private async stored(key: string, job: Job, names: Set<string>): Promise<JobResult | null> {
    if (!names.has(`${key}.json`)) return null;
    try {
      const stored = JSON.parse(await readFile(join(this.dir, `${key}.json`), 'utf8')) as StoredRun;
      if (
        JSON.stringify(stored.job) === JSON.stringify(job) &&
        typeof stored.result === 'object' &&
        stored.result !== null
      )
        return stored.result;
    } catch {
      // Unreadable (a file cut short): the run goes again.
    }
    this.unusable++;
    return null;
  }

  /** A runner that keeps each run as it finishes, and with resume takes the kept runs instead of running them. */
  runner(run: ReportingRunner, log: (s: string) => void): (jobs: Job[]) => Promise<JobOutcome[]> {
    return async (jobs) => {
      const keys = new Map<Job, string>();
      for (const job of jobs) keys.set(job, await this.key(job));
      const names = new Set(this.resume ? await readdir(this.dir) : []);
      const found = new Map<Job, JobResult>();
      for (const job of jobs) {
        const result = this.resume ? await this.stored(keys.get(job)!, job, names) : null;
        if (result) found.set(job, result);
      }
      this.asked += jobs.length;
      this.resumed += found.size;
      if (this.resume)
        log(
          `resumed ${found.size} of ${jobs.length} runs from ${this.dir}${this.unusable ? ` (${this.unusable} kept files unusable so far: they run again)` : ''}`,
        );
      const keep = async (outcome: JobOutcome) => {
        if (!outcome.result) return;
        const stored: StoredRun = { job: outcome.job, result: outcome.result };
        try {
          await writeAtomic(join(this.dir, `${keys.get(outcome.job)}.json`), `${JSON.stringify(stored)}\n`);
        } catch (err) {
          // The run itself stands; only a later --resume would run it again.
          log(`could not keep a finished run in ${this.dir}: ${messageOf(err)}`);
        }
      };
      const missing = jobs.filter((job) => !found.has(job));
      const ran = new Map((await run(missing, keep)).map((o) => [o.job, o]));
      return jobs.map((job) => (found.has(job) ? { job, result: found.get(job)! } : ran.get(job)!));
    };
  }
}
