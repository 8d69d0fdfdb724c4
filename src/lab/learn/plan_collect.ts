// `bench learn ... --plan DIR` and `bench learn --collect DIR`: the benchmark as jobs for any runner (a GitHub
// Actions matrix, a Slurm array, a Kubernetes Indexed Job, a shell loop; docs/cluster.md). Both replay the
// benchmark from its start through the code of a local run (write_reports.ts, runPlan, chooseSettings) with a
// Runner backed by DIR: each batch of jobs the benchmark asks for (a phase: a sweep, a step of a sweep's grid
// past its edge, then the runs) is answered from DIR/results when every result of it is there; otherwise its
// missing jobs are written to DIR/jobs/N.json (numbered in the order first asked, and found again by their
// JSON) and listed in DIR/pending.txt, and the replay stops there. --plan is the first replay (the first phase:
// what a sweep chooses decides the later jobs); each --collect goes on from the start, so that once nothing is
// missing the reports are those a local run writes, from the same outcomes in the same order.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { tokenizerOf } from '../../text/tokenizer.ts';
import { environmentOf } from '../../worlds/environments.ts';
import { worldOrDefault } from '../../worlds/names.ts';
import { noPositionals, parseOptions } from '../../cli/args.ts';
import { CliError } from '../../cli/cli_error.ts';
import { makeDir, readCheckpointFile, writeAtomic } from '../../cli/io.ts';
import { portablePath, sourceCommit } from '../../cli/provenance.ts';
import { lockRunDir } from '../../cli/run_dir.ts';
import type { LearnPlan } from './benchmark.ts';
import type { Job } from './jobs/job.ts';
import {
  copyInit,
  checkInit,
  checkJobFiles,
  INIT_FILE,
  jobCommand,
  jobKey,
  PENDING_FILE,
  PLAN_FILE,
  readManifest,
  readResult,
  writeJobFile,
  writeManifest,
  type PlanManifest,
} from './jobs/plan_dir.ts';
import { command, withoutOptions, type LearnValues } from './plan_options.ts';
import { readPlan } from './plan_read.ts';
import type { JobOutcome } from './jobs/pool.ts';
import type { Runner } from './sweeps/sweep.ts';
import { runAndReport, type Invocation } from './write_reports.ts';
import { usesOpidWeight } from '../../rl/arms.ts';

/** Thrown by the replaying runner where a phase has jobs without a result: the replay stops there. */
class Pending extends Error {
  constructor(
    readonly phase: number,
    readonly size: number,
    readonly missing: number[],
  ) {
    super(`phase ${phase}: ${missing.length} of its ${size} jobs have no result yet`);
  }
}

/** The options that say where things go or which mode runs, not what the benchmark runs. */
const MODE_OPTIONS = ['plan', 'collect', 'worker', 'result', 'resume'] as const;

const what = (job: Job) =>
  `${job.kind} ${job.algo} seed ${job.seed} lr ${job.config.lr} lambda ${job.config.lambda}` +
  `${usesOpidWeight(job.algo) ? ` opid weight ${job.config.opidWeight}` : ''}${job.config.rehearsal > 0 ? ` rehearsal ${job.config.rehearsal}` : ''}${job.config.trainGames > 0 ? ` on ${job.config.trainGames} games` : ''}`;

/** A Runner that answers each batch from DIR's results, or writes its missing jobs and stops the replay. */
function replayRunner(dir: string, manifest: PlanManifest, log: (s: string) => void): Runner {
  const numbers = new Map(manifest.jobs.map((j, n) => [j.sha256, n]));
  let phase = 0;
  return async (jobs) => {
    phase++;
    const asked = jobs.map((job) => {
      const key = jobKey(job);
      let n = numbers.get(key);
      if (n === undefined) {
        n = manifest.jobs.push({ sha256: key, what: what(job) }) - 1;
        numbers.set(key, n);
      }
      return n;
    });
    const outcomes: (JobOutcome | null)[] = [];
    for (let i = 0; i < jobs.length; i++) outcomes.push(await readResult(dir, asked[i], jobs[i], manifest.commit, log));
    const missing = [...new Set(asked.filter((_, i) => outcomes[i] === null))];
    if (missing.length === 0) {
      log(`phase ${phase}: the results of its ${jobs.length} jobs are all in ${dir}`);
      return outcomes as JobOutcome[];
    }
    for (let i = 0; i < jobs.length; i++)
      if (outcomes[i] === null) await writeJobFile(dir, asked[i], jobs[i], manifest.init);
    throw new Pending(phase, jobs.length, missing);
  };
}

/** "0-3, 7": job numbers, runs of consecutive ones shortened. */
function numberRanges(numbers: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < numbers.length; ) {
    let j = i;
    while (j + 1 < numbers.length && numbers[j + 1] === numbers[j] + 1) j++;
    parts.push(j > i ? `${numbers[i]}-${numbers[j]}` : String(numbers[i]));
    i = j + 1;
  }
  return parts.join(', ');
}

/**
 * Replays the benchmark against DIR: writes the reports when every phase's results are there, else the first
 * incomplete phase's missing jobs; either way the plan's jobs and DIR/pending.txt (empty once reported).
 */
async function replay(dir: string, manifest: PlanManifest, inv: Invocation): Promise<number> {
  const log = (s: string) => process.stderr.write(`${s}\n`);
  try {
    await runAndReport(inv, replayRunner(dir, manifest, log), log, {
      jobInit: INIT_FILE,
      planned: portablePath(dir),
    });
  } catch (err) {
    if (!(err instanceof Pending)) throw err;
    await writeManifest(dir, manifest);
    await writeAtomic(join(dir, PENDING_FILE), err.missing.map((n) => `${n}\n`).join(''));
    const jobs = `${err.missing.length} job${err.missing.length === 1 ? '' : 's'}`;
    process.stdout.write(
      [
        `phase ${err.phase} of the plan in ${dir}: ${jobs} to run (${err.missing.length === err.size ? 'all' : `${err.missing.length} of the ${err.size}`} of the phase; numbers ${numberRanges(err.missing)}, one a line in ${join(dir, PENDING_FILE)}), each by`,
        `  ${jobCommand(dir, 'N')}`,
        'then, for the next phase or the reports:',
        `  npm run seed -- bench learn --collect ${dir}`,
        '',
      ].join('\n'),
    );
    return 0;
  }
  await writeManifest(dir, manifest);
  await writeAtomic(join(dir, PENDING_FILE), '');
  log(`every job of the plan in ${dir} has its result: the reports are written`);
  return 0;
}

/** Holds DIR for the rest of the process's work on it: one --plan or --collect at a time writes a plan's folder. */
function lockPlanDir(dir: string) {
  return lockRunDir(dir, "one --plan or --collect at a time writes a plan's folder");
}

/** --plan DIR: the invocation, a copy of its init checkpoint and the first phase's jobs. */
export async function planBenchmark(args: readonly string[], values: LearnValues, plan: LearnPlan): Promise<number> {
  const dir = values.plan!;
  if (values.resume) throw new CliError("--resume is for a local run: a plan's folder keeps its results itself", 2);
  if (existsSync(join(dir, PLAN_FILE)))
    throw new CliError(`${dir} holds a plan already (${PLAN_FILE}): --collect ${dir} goes on with it`, 2);
  await makeDir(dir);
  const lock = lockPlanDir(dir);
  try {
    const commit = sourceCommit(process.cwd(), [dir]);
    const manifest: PlanManifest = {
      format: 'seed bench learn plan',
      version: 1,
      args: withoutOptions(args, ['plan']),
      workers: plan.workers,
      commit,
      init: await copyInit(dir, plan.init),
      jobs: [],
    };
    return await replay(dir, manifest, { args: manifest.args, values, plan, commit, out: values.out });
  } finally {
    lock.release();
  }
}

/** What a plan runs, for telling a changed option: the plan as read, and the files it writes beside its reports. */
const identity = (plan: LearnPlan, values: LearnValues): Map<string, string> =>
  new Map(
    Object.entries({ ...plan, workers: 0, record: values.record ?? null, full: values.full === true }).map(
      ([key, value]) => [key, JSON.stringify(value)],
    ),
  );

/** --collect DIR: the next phase's jobs, the missing ones, or the reports. */
export async function collectBenchmark(args: readonly string[], values: LearnValues): Promise<number> {
  const dir = values.collect!;
  if (values.plan !== undefined)
    throw new CliError('--plan DIR writes a plan and --collect DIR goes on with one: give one', 2);
  if (values.resume) throw new CliError("--resume is for a local run: a plan's folder keeps its results itself", 2);
  const manifest = await readManifest(dir);
  const lock = lockPlanDir(dir);
  try {
    await checkJobFiles(dir, manifest);
    const planned = parseOptions([...manifest.args], command);
    noPositionals(planned.positionals, 'bench learn');
    const stray = MODE_OPTIONS.find((name) => planned.values[name] !== undefined);
    if (stray) throw new CliError(`${join(dir, PLAN_FILE)} cannot be used: its options hold --${stray}`);
    const plan = { ...readPlan(planned.values), workers: manifest.workers };
    // Options given again must be those planned; --out may send the reports elsewhere.
    const given = withoutOptions(args, ['collect', 'out']);
    if (given.length) {
      const before = identity(plan, planned.values);
      const now = identity(readPlan(values), values);
      const changed = [...new Set([...before.keys(), ...now.keys()])].filter((k) => before.get(k) !== now.get(k));
      if (changed.length)
        throw new CliError(
          `--collect ${dir}: the options given change what was planned (${changed.join(', ')}); give the planned options (${manifest.args.join(' ') || 'none'}) or none`,
          2,
        );
    }
    const commit = sourceCommit(process.cwd(), [dir]);
    if ((commit?.hash ?? null) !== (manifest.commit?.hash ?? null))
      throw new CliError(
        `${dir} was planned at commit ${manifest.commit?.hash ?? 'unknown'} and this checkout is at ${commit?.hash ?? 'unknown'}: collect it at the commit its jobs ran`,
        2,
      );
    const init = join(dir, INIT_FILE);
    await checkInit(init, manifest.init, dir);
    await readCheckpointFile(init, tokenizerOf(environmentOf(worldOrDefault(plan.env))));
    const out = values.out ?? planned.values.out;
    return await replay(dir, manifest, { args: manifest.args, values: planned.values, plan, commit, out });
  } finally {
    lock.release();
  }
}
