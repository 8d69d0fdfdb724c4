// The process pool of `bench learn`: each job runs in a child process (`bench learn --worker JOB`), which
// prints its JobResult as the last line of its stdout; independent runs then use one core each. A job that
// fails (a non-zero exit, no result) is reported with its reason, and the others go on: the report lists it.
// Also the estimate of a plan's wall time, from the measured cost of an update of each arm.
import { spawn } from 'node:child_process';
import { factsOf } from '../../../worlds/facts.ts';
import { worldOrDefault } from '../../../worlds/names.ts';
import { armOf, type Algo, type PartControl, distils, usesOpidWeight } from '../../../rl/arms.ts';
import { CliError } from '../../../cli/cli_error.ts';
import { evalGameCounts } from '../design/games.ts';
import type { Job, JobResult } from './job.ts';

/**
 * Seconds per update of the tiny preset on one core of a 2-core machine running two jobs at once, from the
 * measured per-run wall times of the benchmark (grpo 120 s, seed 179 s, seed-annotator 158 s per 192-update
 * run with its evaluations; seed-exact about 1.4 s per update): skills and re-scoring cost extra, the
 * annotator's skills, like the static library's, need no decoding, and exact distillation scores the teacher's
 * whole rows. A part control that was not measured costs what its arm does: its transform of a skill is
 * nothing beside the update.
 */
const UPDATE_SECONDS: Readonly<Record<Exclude<Algo, PartControl>, number> & Partial<Record<PartControl, number>>> = {
  grpo: 0.49,
  seed: 0.8,
  'seed-static': 0.72,
  'seed-sibling': 0.79,
  'seed-crossgame': 0.79,
  'seed-annotator': 0.69,
  opid: 0.81,
  'seed-nogate': 0.96,
  'seed-exact': 1.4,
  'seed-exact-crossgame': 1.4,
};
function updateSeconds(algo: Algo): number {
  return UPDATE_SECONDS[algo] ?? UPDATE_SECONDS[armOf(algo)];
}

/** Seconds to start a job's child process and load its checkpoint. */
const JOB_START_SECONDS = 5;
/** Seconds per evaluation episode (about 2,600 of them add some 26 s to a run of the default benchmark). */
const EVAL_EPISODE_SECONDS = 0.01;
/**
 * The wall-time budget of `bench learn` at its defaults, on 2 cores: room for 4 seeds per value of the lambda sweep,
 * with which values a few points apart can be told apart.
 */
export const DEFAULT_BUDGET_MINUTES = 90;

/** The estimated seconds of one job: its updates, the curve's evaluations, its teacher checks and the final evaluation. */
function jobSeconds(job: Job): number {
  // What an update, an evaluation episode and a teacher check's game cost in the job's world (WorldFacts.cost).
  const world = worldOrDefault(job.env);
  const cost = factsOf(world).cost;
  const g = evalGameCounts(job.evalEpisodes, world);
  const training = job.kind === 'warmstart' ? 0 : job.updates * updateSeconds(job.algo) * cost.update;
  const points = job.kind === 'run' ? Math.ceil(job.updates / job.evalEvery) - 1 : 0;
  const curve = points * (g.unseen + (job.record ? g.seen : 0));
  const final = job.evalSamples * (job.kind === 'sweep' ? g.sweep : g.seen + g.unseen);
  const checks = (job.teacherAt?.length ?? 0) * job.config.teacherGames * cost.teacherGame * EVAL_EPISODE_SECONDS;
  return JOB_START_SECONDS + training + (curve + final) * EVAL_EPISODE_SECONDS * cost.evalEpisode + checks;
}

/** The estimated wall seconds of running `jobs` on `workers` as runAll does (longest first, each to the first free worker). */
export function estimateSeconds(jobs: readonly Job[], workers: number): number {
  const free = new Array<number>(Math.max(1, workers)).fill(0);
  for (const cost of jobs.map(jobSeconds).sort((a, b) => b - a)) {
    const w = free.indexOf(Math.min(...free));
    free[w] += cost;
  }
  return Math.max(...free);
}

/** What became of a job: its result, or why it has none. */
export type JobOutcome =
  | { job: Job; result: JobResult; error?: undefined }
  | { job: Job; result?: undefined; error: string };

/** Where a job keeps its progress (job_progress.ts), or undefined where it keeps none. */
export type ProgressDirs = (job: Job) => string | undefined;

/**
 * Runs jobs in child processes, at most `workers` at a time, longest first (so that no long run starts last
 * and leaves the other workers idle); `onDone` hears of each result as it comes (job_store.ts keeps it), and
 * the outcomes come back in the order given. A job given a progress folder keeps its progress there.
 */
export async function runAll(
  jobs: Job[],
  workers: number,
  log: (s: string) => void,
  onDone: (outcome: JobOutcome) => Promise<void> = async () => {},
  progressDirs: ProgressDirs = () => undefined,
): Promise<JobOutcome[]> {
  const outcomes: JobOutcome[] = new Array(jobs.length);
  const cost = jobSeconds;
  // What is left to run, which a resumed invocation's plan-wide estimate does not say.
  if (jobs.length)
    log(
      `${jobs.length} job${jobs.length === 1 ? '' : 's'} to run: about ${Math.max(1, Math.round(estimateSeconds(jobs, workers) / 60))} min on ${workers} worker${workers === 1 ? '' : 's'}`,
    );
  const order = jobs.map((_, i) => i).sort((a, b) => cost(jobs[b]) - cost(jobs[a]) || a - b);
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < order.length) {
      const i = order[next++];
      const job = jobs[i];
      const name =
        job.kind === 'warmstart'
          ? 'warm start'
          : `${job.algo} seed ${job.seed} lr ${job.config.lr}${distils(job.algo) ? ` lambda ${job.config.lambda}` : ''}${usesOpidWeight(job.algo) ? ` opid weight ${job.config.opidWeight}` : ''}${job.config.rehearsal > 0 ? ` rehearsal ${job.config.rehearsal}` : ''}${job.config.trainGames > 0 ? ` on ${job.config.trainGames} games` : ''}`;
      try {
        const r = await runChild(job, progressDirs(job));
        outcomes[i] = { job, result: r };
        await onDone(outcomes[i]);
        const scores =
          r.success_validation !== null
            ? `validation-unseen ${r.success_validation.toFixed(3)}`
            : `seen ${r.success_seen.toFixed(3)} unseen ${r.success_unseen.toFixed(3)}`;
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

function runChild(job: Job, progressDir: string | undefined): Promise<JobResult> {
  const progress = progressDir === undefined ? [] : ['--progress', progressDir];
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [...process.execArgv, process.argv[1], 'bench', 'learn', '--worker', JSON.stringify(job), ...progress],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0)
        return reject(new CliError(`a benchmark run (${job.algo} seed ${job.seed}) exited with code ${code}`));
      try {
        resolve(JSON.parse(out.trim().split('\n').pop()!) as JobResult);
      } catch {
        reject(new CliError(`a benchmark run (${job.algo} seed ${job.seed}) printed no result`));
      }
    });
  });
}
