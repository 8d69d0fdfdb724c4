import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { rename } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { defaultConfig } from '../../../rl/config.ts';
import { CliError } from '../../../cli/cli_error.ts';
import type { Job, JobResult } from './job.ts';
import { JOB_STORE_DIR, JobStore, type ReportingRunner } from './job_store.ts';
import { fakeResult } from '../learn_testing.ts';
import type { JobOutcome } from './pool.ts';
import { provenanceLine } from '../report/learn_prose.ts';

// rename can be made to fail, as on a read-only folder (root renames in any folder it can read).
vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  return { ...real, rename: vi.fn(real.rename) };
});

const root = mkdtempSync(join(tmpdir(), 'job-store-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());
const CLEAN = { hash: 'abc1234', dirty: false };

/** A report directory, an init checkpoint and jobs that start from it. */
function setup(name: string) {
  const dir = join(root, name);
  const init = join(root, `${name}.init`);
  writeFileSync(init, 'weights');
  const job = (seed: number, algo: Job['algo'] = 'grpo'): Job => ({
    kind: 'run',
    algo,
    seed,
    updates: 4,
    config: defaultConfig('tiny'),
    init,
    evalEvery: 2,
    evalEpisodes: 2,
    evalSamples: 1,
  });
  return { dir, job };
}

/**
 * A result that checks against `job` (kept_run_check.ts): its arm and settings, a curve point at each of its
 * evaluations (updates 2 and 4), and the first two games of each eval split.
 */
function resultFor(job: Job): JobResult {
  const won = [job.seed % 2, 1];
  return fakeResult(job.algo, job.seed, won, {
    lr: job.config.lr,
    lambda: job.config.lambda,
    opid_weight: job.config.opidWeight,
    curve: [
      [8, 0.5],
      [16, (won[0] + won[1]) / 2],
    ],
    curve_won: [[0, 1], won],
  });
}

/** A runner that records what it was asked, fails the jobs `fails` names, and reports each outcome as it comes. */
function recording(fails: (j: Job) => boolean = () => false) {
  const asked: Job[][] = [];
  const run: ReportingRunner = async (jobs, onDone) => {
    asked.push(jobs);
    const out: JobOutcome[] = [];
    for (const job of jobs) {
      const outcome: JobOutcome = fails(job) ? { job, error: 'exited with code 1' } : { job, result: resultFor(job) };
      await onDone(outcome);
      out.push(outcome);
    }
    return out;
  };
  return { asked, run };
}

const quiet = () => {};

describe('bench learn --resume: the store of finished runs', () => {
  it('keeps each finished run; a resumed invocation runs only what is missing, failed runs included, and gives the same outcomes', async () => {
    const { dir, job } = setup('resume');
    const jobs = [job(1), job(2), job(3, 'seed')];
    const first = recording((j) => j.seed === 2);
    const store = (await JobStore.open(dir, CLEAN, false))!;
    const before = await store.runner(first.run, quiet)(jobs);
    expect(first.asked).toEqual([jobs]);
    expect(readdirSync(join(dir, JOB_STORE_DIR))).toHaveLength(2);
    expect(store.resumed).toBe(0);

    const again = recording();
    const log: string[] = [];
    const resumed = (await JobStore.open(dir, CLEAN, true))!;
    const after = await resumed.runner(again.run, (s) => log.push(s))(jobs.map((j) => structuredClone(j)));
    expect(again.asked.map((js) => js.map((j) => j.seed))).toEqual([[2]]);
    expect(resumed.resumed).toBe(2);
    expect(log[0]).toMatch(/^resumed 2 of 3 runs from /);
    expect(after.map((o) => o.result)).toEqual([before[0].result, resultFor(jobs[1]), before[2].result]);
    // Without --resume, every run goes again (and is kept again).
    const fresh = recording();
    await (await JobStore.open(dir, CLEAN, false))!.runner(fresh.run, quiet)(jobs);
    expect(fresh.asked[0]).toHaveLength(3);
  });

  it('gives each run a progress folder beside its kept file: gone on from with --resume, removed before a run without it and once the run is kept', async () => {
    const { dir, job } = setup('progress');
    const jobs = [job(1), job(2)];
    // A runner whose runs leave progress behind, as a child cut short does; the run of seed 2 is cut.
    const cutting = (cut: boolean) => {
      const found = new Map<number, { dir: string; existed: boolean }>();
      const run: ReportingRunner = async (given, onDone, progressDirs) => {
        const out: JobOutcome[] = [];
        for (const j of given) {
          const progress = progressDirs!(j)!;
          found.set(j.seed, { dir: progress, existed: existsSync(progress) });
          mkdirSync(progress, { recursive: true });
          const outcome: JobOutcome =
            cut && j.seed === 2 ? { job: j, error: 'killed' } : { job: j, result: resultFor(j) };
          await onDone(outcome);
          out.push(outcome);
        }
        return out;
      };
      return { found, run };
    };
    const first = cutting(true);
    await (await JobStore.open(dir, CLEAN, false))!.runner(first.run, quiet)(jobs);
    const [one, two] = [first.found.get(1)!, first.found.get(2)!];
    expect(one.dir).toMatch(new RegExp(`${JOB_STORE_DIR}/[0-9a-f]{64}\\.progress$`));
    expect([existsSync(one.dir), existsSync(two.dir)]).toEqual([false, true]);

    const log: string[] = [];
    const resumed = cutting(true);
    await (await JobStore.open(dir, CLEAN, true))!.runner(resumed.run, (l) => log.push(l))(jobs);
    expect(log[0]).toMatch(/^resumed 1 of 2 runs from .*, and 1 cut short goes on from its last point$/);
    expect(resumed.found.get(2)).toEqual({ dir: two.dir, existed: true });

    const fresh = cutting(false);
    await (await JobStore.open(dir, CLEAN, false))!.runner(fresh.run, quiet)(jobs);
    expect(fresh.found.get(2)).toEqual({ dir: two.dir, existed: false });
    expect(existsSync(two.dir)).toBe(false);
  });

  it('takes nothing kept by another commit, from other init weights, or in a file cut short', async () => {
    const { dir, job } = setup('keys');
    const jobs = [job(1), job(2)];
    await (await JobStore.open(dir, CLEAN, false))!.runner(recording().run, quiet)(jobs);
    const other = recording();
    await (await JobStore.open(dir, { hash: 'def5678', dirty: false }, true))!.runner(other.run, quiet)(jobs);
    expect(other.asked[0]).toHaveLength(2);

    writeFileSync(jobs[0].init, 'other weights');
    const reweighted = recording();
    await (await JobStore.open(dir, CLEAN, true))!.runner(reweighted.run, quiet)(jobs);
    expect(reweighted.asked[0]).toHaveLength(2);

    const store = join(dir, JOB_STORE_DIR);
    for (const name of readdirSync(store)) writeFileSync(join(store, name), '{"job": {"kind": "ru');
    const cut = recording();
    const resumed = (await JobStore.open(dir, CLEAN, true))!;
    const log: string[] = [];
    await resumed.runner(cut.run, (s) => log.push(s))(jobs);
    expect(cut.asked[0]).toHaveLength(2);
    expect(resumed.unusable).toBe(2);
    expect(log.at(-1)).toMatch(/\(2 kept files unusable so far: they run again\)/);
  });

  it('keeps nothing for a tree with uncommitted changes or outside git, and refuses --resume there', async () => {
    const { dir } = setup('dirty');
    expect(await JobStore.open(dir, { hash: 'abc1234', dirty: true }, false)).toBeNull();
    expect(await JobStore.open(dir, null, false)).toBeNull();
    await expect(JobStore.open(dir, { hash: 'abc1234', dirty: true }, true)).rejects.toThrow(CliError);
    await expect(JobStore.open(dir, null, true)).rejects.toThrow(
      /--resume needs a clean git checkout: .*not a git checkout/,
    );
  });

  it('the report says how many runs an earlier invocation ran', () => {
    const facts = { commit: CLEAN, wallSeconds: 90, workers: 2, estimatedSeconds: 600 };
    expect(provenanceLine(facts, '0badc0de')).toMatch(
      /^Commit: abc1234; configuration hash 0badc0de; wall time 1\.5 min on \d+ cores \(2 workers; estimated 10\.0 min before it ran\)\.$/,
    );
    expect(provenanceLine({ ...facts, resumed: 7 }, '0badc0de')).toMatch(
      /\. 7 of the runs were taken from an earlier invocation of this command at this commit \(--resume\); their wall times in the table are those they took then\.$/,
    );
  });
});

type Kept = { job: Job; result: Record<string, unknown> };

/** A damaged kept file: its text, from the good one of job(1) and the file of job(2). */
const DAMAGE: [string, (good: Kept, other: string) => string, RegExp][] = [
  ['not JSON', () => 'not json', /^not JSON: /],
  ['cut short', (_, other) => other.slice(0, 120), /^not JSON: /],
  ['empty', () => '', /^not JSON: /],
  ['{}', () => '{}', /^it names no job$/],
  ['a string', () => '"run"', /^the file is "run", not an object$/],
  ['null', () => 'null', /^the file is null, not an object$/],
  ['another job', (_, other) => other, /^it holds the run of another job /],
  ['a null result', (g) => JSON.stringify({ ...g, result: null }), /^result is null, not an object$/],
  ['a null field', (g) => edit(g, (r) => (r.success_seen = null)), /^result.success_seen is null, not a number/],
  ['a missing field', (g) => edit(g, (r) => delete r.wall_s), /^result.wall_s is undefined, not a number/],
  [
    'an emptied list',
    (g) => edit(g, (r) => (r.won_unseen = [])),
    /^result.won_unseen has 0 entries, but the job gives 2 \(one per eval-unseen game\)$/,
  ],
  [
    'a longer curve',
    (g) => edit(g, (r) => (r.curve as unknown[]).push([24, 0.5])),
    /^result.curve has 3 entries, but the job gives 2 \(one per evaluation, after update 2, 4\)$/,
  ],
  [
    'a shorter curve',
    (g) => edit(g, (r) => (r.curve as unknown[]).pop()),
    /^result.curve has 1 entries, but the job gives 2 /,
  ],
  [
    'curve episodes going back',
    (g) => edit(g, (r) => ((r.curve as number[][])[1][0] = 8)),
    /^result.curve\[1\] is at 8 episodes, not after 8$/,
  ],
  ['a wrong type', (g) => edit(g, (r) => (r.wall_s = '12.3')), /^result.wall_s is "12.3", not a number/],
  ['another arm', (g) => edit(g, (r) => (r.algo = 'seed')), /^result.algo is "seed", but the job's is "grpo"$/],
  [
    'success -5',
    (g) => edit(g, (r) => (r.success_unseen = -5)),
    /^result.success_unseen is -5, not a number in \[0, 1\]$/,
  ],
  ['success 1e308', (g) => edit(g, (r) => (r.success_seen = 1e308)), /^result.success_seen is 1e\+308, not a number/],
  [
    'an overflowing number',
    (g) => JSON.stringify(g).replace('"wall_s":12.3', '"wall_s":1e999'),
    /^result.wall_s is Infinity, not a number/,
  ],
  ['NaN as text', (g) => edit(g, (r) => (r.success_seen = 'NaN')), /^result.success_seen is "NaN", not a number/],
  ['a seed of 1e308', (g) => edit(g, (r) => (r.seed = 1e308)), /^result.seed is 1e\+308, but the job's is 1$/],
  [
    'a non-integer update',
    (g) => edit(g, (r) => (r.teacher = [[1.5, 0.5, 0.5, 0.5, 0.5]])),
    /^result.teacher\[0\]\[0\] is 1.5, not a whole number$/,
  ],
  [
    'a per-game figure out of range',
    (g) => edit(g, (r) => ((r.curve_won as number[][])[0][1] = 2)),
    /^result.curve_won\[0\]\[1\] is 2, not a number in \[0, 1\]$/,
  ],
  [
    'a metric out of range',
    (g) => edit(g, (r) => ((r.metric_means as Record<string, number>).forcedShare = 1.5)),
    /^result.metric_means.forcedShare is 1.5, not a number in \[0, 1\]$/,
  ],
  [
    'more skipped updates than updates',
    (g) => edit(g, (r) => (r.skipped_updates = 5)),
    /^result.skipped_updates is 5, not a number in \[0, 4\]$/,
  ],
  [
    'a record the job did not ask for',
    (g) => edit(g, (r) => (r.recorded = { curve: [], episodes: [] })),
    /^result.recorded is an object, but the job keeps no record$/,
  ],
];

/** The good kept run with its result changed by `change`, as text. */
function edit(good: Kept, change: (r: Record<string, unknown>) => unknown): string {
  const copy = structuredClone(good);
  change(copy.result);
  return JSON.stringify(copy);
}

/** The kept files of a store by seed: job(1) and job(2) of `setup`, kept by a first invocation. */
async function keptPair(name: string) {
  const { dir, job } = setup(name);
  const jobs = [job(1), job(2)];
  await (await JobStore.open(dir, CLEAN, false))!.runner(recording().run, quiet)(jobs);
  const store = join(dir, JOB_STORE_DIR);
  const files = readdirSync(store).map((f) => join(store, f));
  const bySeed = (seed: number) => files.find((f) => JSON.parse(readFileSync(f, 'utf8')).job.seed === seed)!;
  return { dir, jobs, store, first: bySeed(1), second: bySeed(2) };
}

/** A resumed invocation of `jobs`: which seeds ran again, and its log. */
async function resume(dir: string, jobs: Job[]) {
  const again = recording();
  const log: string[] = [];
  const store = (await JobStore.open(dir, CLEAN, true))!;
  const outcomes = await store.runner(again.run, (s) => log.push(s))(jobs);
  return { ran: again.asked.flat().map((j) => j.seed), log, outcomes, store };
}

describe('bench learn --resume: a damaged kept run', () => {
  it.each(DAMAGE)(
    '%s: moved aside as KEY.json.damaged, named on one line with the reason, and run again',
    async (name, damage, why) => {
      const { dir, jobs, first, second } = await keptPair(`damage-${name.replace(/\W+/g, '-')}`);
      const good = JSON.parse(readFileSync(first, 'utf8')) as Kept;
      const text = damage(good, readFileSync(second, 'utf8'));
      writeFileSync(first, text);
      const { ran, log, outcomes } = await resume(dir, jobs);
      expect(ran).toEqual([1]);
      expect(outcomes.map((o) => o.result)).toEqual([resultFor(jobs[0]), resultFor(jobs[1])]);
      expect(log).toHaveLength(2);
      const [line, summary] = log;
      expect(line.startsWith(`${first} cannot be used (`)).toBe(true);
      expect(line.endsWith(`): moved to ${first.split('/').pop()}.damaged beside it, and its job runs again`)).toBe(
        true,
      );
      expect(line.slice(`${first} cannot be used (`.length, line.lastIndexOf('): moved to'))).toMatch(why);
      expect(line).not.toMatch(/\n|\s{2}|at .*\.ts:\d+/);
      expect(summary).toMatch(/^resumed 1 of 2 runs from .* \(1 kept files unusable so far: they run again\)$/);
      // The damaged file is kept as it was; the fresh run went under the usual name, and is taken next time.
      expect(readFileSync(`${first}.damaged`, 'utf8')).toBe(text);
      expect((await resume(dir, jobs)).ran).toEqual([]);
    },
  );

  it('takes a good kept run whatever the number of damaged files beside it, and numbers the damaged ones', async () => {
    const { dir, jobs, first } = await keptPair('numbered');
    for (const n of [1, 2, 3]) {
      writeFileSync(first, `damaged ${n}`);
      expect((await resume(dir, jobs)).ran).toEqual([1]);
    }
    const damaged = (n: string) => readFileSync(`${first}.damaged${n}`, 'utf8');
    expect([damaged(''), damaged('.2'), damaged('.3')]).toEqual(['damaged 1', 'damaged 2', 'damaged 3']);
  });

  it('a kept file that is a folder is unreadable: moved aside the same way', async () => {
    const { dir, jobs, first } = await keptPair('folder');
    rmSync(first);
    mkdirSync(first);
    const { ran, log } = await resume(dir, jobs);
    expect(ran).toEqual([1]);
    expect(log[0]).toBe(
      `${first} cannot be used (cannot read ${first}: EISDIR): moved to ${first.split('/').pop()}.damaged beside it, and its job runs again`,
    );
  });

  it('a damaged file that cannot be moved aside is left as it is, and the fresh run is not written over it', async () => {
    const { dir, jobs, first } = await keptPair('stuck');
    writeFileSync(first, '{"job": {"kind": "ru');
    vi.mocked(rename).mockRejectedValueOnce(Object.assign(new Error('read-only file system'), { code: 'EROFS' }));
    const { ran, log } = await resume(dir, jobs);
    expect(ran).toEqual([1]);
    expect(log[0]).toMatch(
      /cannot be used \(not JSON: .*\) nor moved aside \(EROFS\): left as it is, and its job runs again without being kept$/,
    );
    expect(readFileSync(first, 'utf8')).toBe('{"job": {"kind": "ru');
  });
});

describe('bench learn --resume: the folder of the kept runs', () => {
  it('a .learn_jobs that is a file is refused in one line, with or without --resume, and left as it was', async () => {
    const { dir } = setup('store-file');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, JOB_STORE_DIR), 'notes');
    for (const resume of [false, true]) {
      const refused = JobStore.open(dir, CLEAN, resume);
      await expect(refused).rejects.toThrow(CliError);
      await expect(refused).rejects.toThrow(
        `${join(dir, JOB_STORE_DIR)} is not a folder: bench learn keeps its finished runs there (--resume); move it away or give another --out`,
      );
    }
    expect(readFileSync(join(dir, JOB_STORE_DIR), 'utf8')).toBe('notes');
  });

  it('a .learn_jobs that cannot be read (a link to itself) is refused in one line', async () => {
    const { dir } = setup('store-loop');
    mkdirSync(dir, { recursive: true });
    symlinkSync(JOB_STORE_DIR, join(dir, JOB_STORE_DIR));
    await expect(JobStore.open(dir, CLEAN, true)).rejects.toThrow(
      new RegExp(
        `^cannot create ${join(dir, JOB_STORE_DIR)}, the folder of the finished runs \\(--resume\\): E[A-Z]+$`,
      ),
    );
  });
});
