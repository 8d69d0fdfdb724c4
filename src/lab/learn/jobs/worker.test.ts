// `bench learn --worker JOB --progress DIR`: a job cut short goes on from the progress DIR holds of the same
// job, commit and init, ends as the job never cut, and DIR is gone once the result is out; outside a clean
// checkout (a changed file beside DIR included, other jobs' progress beside it not) the job runs without keeping
// progress, saying so, and without --worker --progress is refused. Before any run, a worker refuses what would
// lose a file: a progress folder that holds the job's files or this folder, or holds what no progress holds; a
// result written over a plan's file or the job's; an init of another preset; and an option of a benchmark beside
// --worker.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { defaultConfig } from '../../../rl/config.ts';
import { runCaptured } from '../../../cli/testing.ts';
import * as provenance from '../../../cli/provenance.ts';
import { runJob, type Job, type JobResult } from './job.ts';
import { dropProgress } from './job_progress.ts';
import { run } from '../main.ts';
import { progressKey, runWorker } from './worker.ts';

vi.mock('../../../cli/provenance.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../cli/provenance.ts')>();
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

describe('bench learn --worker --progress in a git checkout', () => {
  it("keeps no progress where a file beside its folder changed; other jobs' progress beside it is no change", async () => {
    vi.mocked(provenance.sourceCommit).mockReset(); // git's own answer, for the checkout below
    const repo = join(root, 'checkout');
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'commit.gpgsign=false', ...args], {
        cwd: repo,
        encoding: 'utf8',
      }).trim();
    mkdirSync(join(repo, 'src', 'q'), { recursive: true });
    git('init', '-q');
    writeFileSync(join(repo, 'src', 'a.ts'), 'a');
    git('add', 'src/a.ts');
    git('commit', '-q', '-m', 'a');
    // Another job's progress beside this job's, as a plan's progress/N are.
    writeFileSync(join(repo, 'src', 'q', 'seed-learn-job-progress'), '');
    writeFileSync(join(repo, 'src', 'q', 'progress.json'), '{}');
    const job = { ...JOB, updates: 2, init: resolve(JOB.init) };
    const commit = { hash: git('rev-parse', '--short', 'HEAD'), dirty: false };
    const dir = join('src', 'p');
    const worker = async () => {
      const stderr = vi.spyOn(process.stderr, 'write').mockReturnValue(true);
      vi.spyOn(process.stdout, 'write').mockReturnValue(true);
      expect(await runWorker(JSON.stringify(job), undefined, dir)).toBe(0);
      const first = String(stderr.mock.calls[0]?.[0]);
      vi.restoreAllMocks();
      return first;
    };
    const home = process.cwd();
    process.chdir(repo);
    try {
      const key = progressKey(job, commit, await readFile(job.init));
      const cut = (updates: number) => {
        if (updates === 1) throw new Error('cut');
      };
      await expect(runJob(job, { dir, key, log: () => {}, onKept: cut })).rejects.toThrow('cut');
      const changes: [string, () => void, () => void][] = [
        ['a tracked file', () => writeFileSync('src/a.ts', 'edited'), () => writeFileSync('src/a.ts', 'a')],
        ['an untracked file', () => writeFileSync('src/b.ts', 'b'), () => rmSync('src/b.ts')],
        ['a file in a folder with a mark', () => writeFileSync('src/q/c.ts', 'c'), () => rmSync('src/q/c.ts')],
      ];
      for (const [what, change, undo] of changes) {
        change();
        expect(await worker(), what).toMatch(
          /^--progress src\/p: no progress is kept, for this tree has uncommitted changes and /,
        );
        expect(existsSync(join(dir, 'progress.json')), what).toBe(true);
        undo();
      }
      expect(await worker()).toBe(`a run goes on from update 1, kept in ${dir}\n`);
      expect(existsSync(dir)).toBe(false);
    } finally {
      process.chdir(home);
    }
  }, 240_000);
});

/** Every file under `dir` with its bytes, to show that nothing changed. */
function contents(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    try {
      out[name] = readFileSync(join(dir, name)).toString('base64');
    } catch {
      out[name] = '(a folder)';
    }
  }
  return out;
}

describe('bench learn --worker refuses, before the job runs, what would lose a file', () => {
  const P = join(root, 'P');
  const plan = () =>
    runCaptured(run, [
      ...['--preset', 'micro', '--algos', 'grpo', '--controls', 'none', '--seeds', '1', '--lambdas', '0.1'],
      ...['--updates', '1', '--eval-every', '1', '--eval-episodes', '1', '--eval-samples', '1', '--teacher-at', 'none'],
      ...['--set', 'groupSize=1', '--set', 'tasksPerUpdate=1', '--set', 'maxSteps=1', '--workers', '1'],
      ...['--plan', P],
    ]);
  const job = join(P, 'jobs', '1.json');
  const refused = async (args: string[], message: RegExp) => {
    vi.mocked(provenance.sourceCommit).mockReturnValue(CLEAN);
    const before = contents(P);
    await expect(runCaptured(run, args)).rejects.toThrow(message);
    expect(contents(P)).toEqual(before);
  };

  it("a progress folder that holds the job's files, this folder or what no progress holds", async () => {
    expect((await plan()).code).toBe(0);
    const result = join(P, 'results', '1.json');
    await refused(['--worker', job, '--result', result, '--progress', P], /^--progress .*\/P holds the result file /);
    await refused(['--worker', job, '--progress', P], /^--progress .*\/P holds the job file /);
    await refused(
      ['--worker', job, '--result', result, '--progress', join(P, 'results')],
      /^--progress .* holds the result file /,
    );
    await refused(['--worker', job, '--progress', '.'], /^--progress \. is this folder: a job's progress goes/);
    await refused(['--worker', job, '--progress', '..'], /^--progress \.\. is a folder above this one: /);
    // A folder beside the plan that holds a file of its own, or only weights without a progress's mark.
    const notes = join(root, 'notes');
    mkdirSync(notes);
    writeFileSync(join(notes, 'todo.txt'), 'keep');
    await refused(['--worker', job, '--progress', notes], /notes is no job's progress folder \(it holds "todo\.txt", /);
    const weights = join(root, 'weights');
    mkdirSync(weights);
    cpSync(JOB.init, join(weights, 'last.ckpt'));
    await refused(
      ['--worker', job, '--progress', weights],
      /weights is no job's progress folder \(it holds no job's progress\)/,
    );
    // Removing a progress folder never removes one that is none.
    await expect(dropProgress(notes)).rejects.toThrow(/notes is not a job's progress folder \(it holds "todo\.txt", /);
    expect(readFileSync(join(notes, 'todo.txt'), 'utf8')).toBe('keep');
  });

  it("a result written over a file of the plan's folder, another job's result or the job file", async () => {
    for (const name of ['plan.json', 'pending.txt', join('jobs', '0.json'), join('results', '0.json'), 'x.json'])
      await refused(
        ['--worker', job, '--result', join(P, name)],
        /^--result .* lies in the plan's folder .*P, where job 1's result goes to results\/1\.json and nothing else is written$/,
      );
    await refused(['--worker', job, '--result', join(P, 'init.ckpt')], /it is the file the job's init reads/);
    await refused(['--worker', job, '--result', job], /it is the file --worker reads/);
    await refused(['--worker', job, '--result', join(P, 'jobs')], /^--result .*jobs is not a regular file$/);
    const json = JSON.stringify({ ...JOB, init: join(P, 'init.ckpt') });
    await refused(['--worker', json, '--result', join(P, 'results', '1.json', 'x')], /lies in the plan's folder/);
  });

  it("an init of another preset than the job's, and an option of a benchmark beside --worker", async () => {
    const tiny = JSON.stringify({ ...JOB, init: 'public/warmstart-tiny.ckpt' });
    await refused(
      ['--worker', tiny],
      /^public\/warmstart-tiny\.ckpt is a checkpoint of the tiny preset, not of the job's preset micro$/,
    );
    const { preset: _, ...presetless } = JOB;
    await refused(
      ['--worker', JSON.stringify(presetless)],
      /^public\/warmstart-micro\.ckpt is a checkpoint of the micro preset, not of tiny, the preset of a job without one$/,
    );
    for (const [other, name] of [
      [['--plan', join(root, 'Q')], '--plan'],
      [['--collect', P], '--collect'],
      [['--seeds=2'], '--seeds'],
      [['--resume'], '--resume'],
    ] as const) {
      await refused(
        ['--worker', job, ...other],
        new RegExp(`^--worker runs one job .*: ${name} goes with a benchmark`),
      );
      expect(existsSync(join(root, 'Q'))).toBe(false);
    }
  });
});
