// The process pool of `bench learn`: each job runs in a child process (`bench learn --worker JOB`), which
// prints its JobResult as the last line of its stdout; independent runs then use one core each. A job that
// fails (a non-zero exit, no result) is reported with its reason, and the others go on: the report lists it.
import { spawn } from 'node:child_process';
import type { Algo } from '../../../rl/config.ts';
import { CliError } from '../../cli_error.ts';
import type { Job, JobResult } from './job.ts';

/**
 * Relative cost of one update (measured per-run wall times of the tiny preset): skills and re-scoring cost
 * extra; the annotator's skills, like the static library's, need no decoding.
 */
const UPDATE_COST: Record<Algo, number> = {
  grpo: 5.4, seed: 7.3, 'seed-static': 6.6, 'seed-sibling': 7.3, 'seed-crossgame': 7.3, 'seed-annotator': 6.6, opid: 7.4, 'seed-nogate': 8.8,
};

/** What became of a job: its result, or why it has none. */
type JobOutcome = { job: Job; result: JobResult; error?: undefined } | { job: Job; result?: undefined; error: string };

/**
 * Runs jobs in child processes, at most `workers` at a time, longest first (so that no long run starts last
 * and leaves the other workers idle); outcomes come back in the order given.
 */
export async function runAll(jobs: Job[], workers: number, log: (s: string) => void): Promise<JobOutcome[]> {
  const outcomes: JobOutcome[] = new Array(jobs.length);
  const cost = (j: Job) => (j.kind === 'warmstart' ? 0 : j.updates * UPDATE_COST[j.algo]);
  const order = jobs.map((_, i) => i).sort((a, b) => cost(jobs[b]) - cost(jobs[a]) || a - b);
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < order.length) {
      const i = order[next++];
      const job = jobs[i];
      const name = `${job.kind === 'warmstart' ? 'warm start' : job.algo} seed ${job.seed} lr ${job.config.lr}`;
      try {
        const r = await runChild(job);
        outcomes[i] = { job, result: r };
        const scores = r.success_validation !== null ? `validation ${r.success_validation.toFixed(3)}` : `seen ${r.success_seen.toFixed(3)} unseen ${r.success_unseen.toFixed(3)}`;
        log(`[${++done}/${jobs.length}] ${name}: ${scores} (${r.wall_s.toFixed(0)} s)`);
      } catch (err) {
        outcomes[i] = { job, error: (err as Error).message };
        log(`[${++done}/${jobs.length}] ${name}: FAILED, ${(err as Error).message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(workers, jobs.length)) }, worker));
  return outcomes;
}

function runChild(job: Job): Promise<JobResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, process.argv[1], 'bench', 'learn', '--worker', JSON.stringify(job)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new CliError(`a benchmark run (${job.algo} seed ${job.seed}) exited with code ${code}`));
      try {
        resolve(JSON.parse(out.trim().split('\n').pop()!) as JobResult);
      } catch {
        reject(new CliError(`a benchmark run (${job.algo} seed ${job.seed}) printed no result`));
      }
    });
  });
}
