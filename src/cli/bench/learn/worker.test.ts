// `bench learn --worker JOB --progress DIR`: a job cut short goes on from the progress DIR holds of the same
// job, commit and init, ends as the job never cut, and DIR is gone once the result is out; outside a clean
// checkout the job runs without keeping progress, saying so, and without --worker --progress is refused.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { defaultConfig } from '../../../rl/config.ts';
import * as provenance from '../../provenance.ts';
import { runJob, type Job, type JobResult } from './job.ts';
import { run } from './main.ts';
import { progressKey, runWorker } from './worker.ts';

vi.mock('../../provenance.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../provenance.ts')>();
  return { ...real, sourceCommit: vi.fn(real.sourceCommit) };
});

const root = mkdtempSync(join(tmpdir(), 'learn-worker-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());
const CLEAN = { hash: 'abc1234', dirty: false };

const JOB: Job = {
  kind: 'run',
  algo: 'seed',
  seed: 1,
  updates: 3,
  config: { ...defaultConfig('micro'), groupSize: 2, tasksPerUpdate: 2, maxSteps: 3, history: 3 },
  init: 'public/warmstart-micro.ckpt',
  evalEvery: 1,
  evalEpisodes: 2,
  evalSamples: 1,
  preset: 'micro',
};
const sansWall = (r: JobResult) => ({ ...r, wall_s: 0 });

describe('bench learn --worker --progress', () => {
  it('goes on from the progress of the same job, commit and init, and removes it once the result is out', async () => {
    vi.mocked(provenance.sourceCommit).mockReturnValue(CLEAN);
    const dir = join(root, 'job.progress');
    const key = progressKey(JOB, CLEAN, await readFile(JOB.init));
    const cut = (updates: number) => {
      if (updates === 2) throw new Error('cut');
    };
    await expect(runJob(JOB, { dir, key, log: () => {}, onKept: cut })).rejects.toThrow('cut');
    const stderr = vi.spyOn(process.stderr, 'write').mockReturnValue(true);
    const resultFile = join(root, 'result.json');
    expect(await runWorker(JSON.stringify(JOB), resultFile, dir)).toBe(0);
    const said = stderr.mock.calls.map(([text]) => String(text));
    expect(said[0]).toBe(`a run goes on from update 2, kept in ${dir}\n`);
    const { result } = JSON.parse(readFileSync(resultFile, 'utf8')) as { result: JobResult };
    expect(sansWall(result)).toEqual(sansWall(await runJob(JOB)));
    expect(existsSync(dir)).toBe(false);
  }, 120_000);

  it('keeps no progress outside a clean checkout, saying so, and is refused without --worker', async () => {
    const dir = join(root, 'p');
    const short = { ...JOB, updates: 2, algo: 'grpo' as const };
    for (const commit of [{ hash: 'abc1234', dirty: true }, null]) {
      vi.mocked(provenance.sourceCommit).mockReturnValue(commit);
      const stderr = vi.spyOn(process.stderr, 'write').mockReturnValue(true);
      const stdout = vi.spyOn(process.stdout, 'write').mockReturnValue(true);
      expect(await runWorker(JSON.stringify(short), undefined, dir)).toBe(0);
      expect(String(stderr.mock.calls[0][0])).toMatch(
        commit
          ? /^--progress .*: no progress is kept, for this tree has uncommitted changes and /
          : /^--progress .*: no progress is kept, for this is not a git checkout and /,
      );
      expect(JSON.parse(String(stdout.mock.calls.at(-1)![0])).algo).toBe('grpo');
      expect(existsSync(dir)).toBe(false);
      vi.restoreAllMocks();
    }
    await expect(run(['--progress', dir])).rejects.toThrow('--progress DIR goes with --worker');
  }, 120_000);
});
