// The files of a plan's folder read back: a job file is checked field by field (and its job comes back as it
// was written, key order and all), its init checkpoint by its SHA-256; a result file is taken only when it is
// its job's and of the plan's commit, a failure as a failed outcome. No run: the results are made up.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../rl/config.ts';
import type { Job } from './job.ts';
import { checkJob } from './job_check.ts';
import { fakeResult } from '../learn_testing.ts';
import { checkInit, copyInit, readJobFile, readResult, writeJobFile, writeResultFile } from './plan_dir.ts';

const root = mkdtempSync(join(tmpdir(), 'plan-dir-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const job: Job = {
  kind: 'warmstart',
  algo: 'grpo',
  seed: 0,
  updates: 0,
  config: defaultConfig('micro'),
  init: 'init.ckpt',
  evalEvery: 1,
  evalEpisodes: 2,
  evalSamples: 1,
  preset: 'micro',
};
const CLEAN = { hash: 'abc1234', dirty: false };

describe("a plan's folder", () => {
  it('checks a job whole, and gives it back as written', () => {
    const text = JSON.stringify(job);
    expect(JSON.stringify(checkJob(JSON.parse(text)))).toBe(text);
    const bad = (change: Record<string, unknown>) => () => checkJob({ ...job, ...change });
    expect(bad({ kind: 'train' })).toThrow(/job\.kind is "train"/);
    expect(bad({ algo: 'ppo' })).toThrow(/job\.algo is "ppo", not an algorithm/);
    expect(bad({ evalSamples: 10 })).toThrow(/job\.evalSamples is 10/);
    expect(bad({ extra: 1 })).toThrow(/a field "extra" that no job has/);
    expect(bad({ config: { ...job.config, lr: -1 } })).toThrow(/job\.config: /);
    expect(bad({ config: { ...job.config, nothing: 1 } })).toThrow(/a setting "nothing"/);
    expect(bad({ teacherAt: [1] })).toThrow(/job\.teacherAt\[0\] is 1/);
    expect(bad({ kind: 'run', updates: 2, record: { episodeUpdates: [1], episodes: 2 } })).toThrow(
      /^job\.record has a field "episodes" that no record has$/,
    );
    expect(checkJob({ ...job, kind: 'run', updates: 2, record: { episodeUpdates: [1] } }).record).toEqual({
      episodeUpdates: [1],
    });
  });

  it("reads a job file with its plan's folder, and refuses an init outside it or with other bytes", async () => {
    const dir = join(root, 'plan');
    const init = join(root, 'weights.ckpt');
    writeFileSync(init, 'weights');
    const sha = await copyInit(dir, init);
    await writeJobFile(dir, 3, job, sha);
    const read = await readJobFile(join(dir, 'jobs', '3.json'));
    expect([read.dir, read.init, JSON.stringify(read.job)]).toEqual([dir, sha, JSON.stringify(job)]);
    await checkInit(join(dir, 'init.ckpt'), sha, 'the plan');
    writeFileSync(join(dir, 'init.ckpt'), 'other weights');
    await expect(checkInit(join(dir, 'init.ckpt'), sha, 'the plan')).rejects.toThrow(/is not the init checkpoint/);
    await writeJobFile(dir, 4, { ...job, init: '../weights.ckpt' }, sha);
    await expect(readJobFile(join(dir, 'jobs', '4.json'))).rejects.toThrow(/not a path inside the plan's folder/);
    writeFileSync(join(dir, 'jobs', '5.json'), '{"format": "seed bench learn job", "version": 2}');
    await expect(readJobFile(join(dir, 'jobs', '5.json'))).rejects.toThrow(/jobs\/5\.json cannot be used: it is/);
    // Job 3's file under job 6's name, as a copy over another job's file leaves it.
    cpSync(join(dir, 'jobs', '3.json'), join(dir, 'jobs', '6.json'));
    await expect(readJobFile(join(dir, 'jobs', '6.json'))).rejects.toThrow(
      /jobs\/6\.json cannot be used: it is job 3, whose file is named 3\.json$/,
    );
  });

  it("takes a result of its job at the plan's commit, and a failure; names any other and counts it missing", async () => {
    const dir = join(root, 'results');
    const logged: string[] = [];
    const log = (s: string) => logged.push(s);
    const result = fakeResult('grpo', 0, [1, 0], {
      lambda: job.config.lambda,
      opid_weight: job.config.opidWeight,
      curve: [],
      curve_won: [],
    });
    expect(await readResult(dir, 0, job, CLEAN, log)).toBeNull();
    expect(logged).toEqual([]);
    await writeResultFile(join(dir, 'results', '0.json'), job, { result }, CLEAN);
    expect((await readResult(dir, 0, job, CLEAN, log))?.result?.won_unseen).toEqual([1, 0]);
    expect(await readResult(dir, 0, job, { hash: 'def5678', dirty: false }, log)).toBeNull();
    expect(await readResult(dir, 0, { ...job, seed: 1 }, CLEAN, log)).toBeNull();
    await writeResultFile(join(dir, 'results', '1.json'), job, { error: 'out of memory' }, CLEAN);
    expect(await readResult(dir, 1, job, CLEAN, log)).toEqual({ job, error: 'out of memory' });
    writeFileSync(join(dir, 'results', '2.json'), '{"job": ');
    expect(await readResult(dir, 2, job, CLEAN, log)).toBeNull();
    expect(logged).toEqual([
      expect.stringMatching(/0\.json cannot be used \(it ran at commit abc1234, the plan at def5678\): job 0 counts/),
      expect.stringMatching(/0\.json cannot be used \(it holds the run of another job .*\): job 0 counts as missing/),
      expect.stringMatching(/2\.json cannot be used \(.*\): job 2 counts as missing, to be run again$/),
    ]);
  });
});
