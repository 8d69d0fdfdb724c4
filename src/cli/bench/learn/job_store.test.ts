import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../rl/config.ts';
import { CliError } from '../../cli_error.ts';
import type { Job } from './job.ts';
import { JOB_STORE_DIR, JobStore, type ReportingRunner } from './job_store.ts';
import { fakeResult } from './learn_testing.ts';
import type { JobOutcome } from './pool.ts';
import { provenanceLine } from './report.ts';

const root = mkdtempSync(join(tmpdir(), 'job-store-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
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

/** A runner that records what it was asked, fails the jobs `fails` names, and reports each outcome as it comes. */
function recording(fails: (j: Job) => boolean = () => false) {
  const asked: Job[][] = [];
  const run: ReportingRunner = async (jobs, onDone) => {
    asked.push(jobs);
    const out: JobOutcome[] = [];
    for (const job of jobs) {
      const outcome: JobOutcome = fails(job)
        ? { job, error: 'exited with code 1' }
        : { job, result: fakeResult(job.algo, job.seed, [job.seed % 2, 1]) };
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
    expect(after.map((o) => o.result)).toEqual([before[0].result, fakeResult('grpo', 2, [0, 1]), before[2].result]);
    // Without --resume, every run goes again (and is kept again).
    const fresh = recording();
    await (await JobStore.open(dir, CLEAN, false))!.runner(fresh.run, quiet)(jobs);
    expect(fresh.asked[0]).toHaveLength(3);
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
    expect(log[0]).toMatch(/\(2 kept files unusable so far: they run again\)/);
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
