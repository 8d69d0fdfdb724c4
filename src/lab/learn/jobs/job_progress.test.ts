// A `bench learn` job keeps its progress after each point of its curve: cut after a kept point, it goes on from
// there and ends bit for bit as the same job never cut (its recorded episodes, teacher checks, held teacher
// and update means included); a folder that is not this job's progress is moved aside, said in one line, and the
// job starts over; a folder that holds anything a progress never holds is left as it is and the job refused; a
// folder that cannot be written costs nothing but the line. A check of the tree for changes leaves out only
// folders of jobs' progress, each known by its mark.
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../rl/config.ts';
import { CliError } from '../../../cli/cli_error.ts';
import { runJob, type Job, type JobResult } from './job.ts';
import { progressFoldersBeside, type JobProgress } from './job_progress.ts';

const config = { ...defaultConfig('micro'), groupSize: 2, tasksPerUpdate: 2, maxSteps: 3, history: 3 };
// A recorded seed run whose teacher is refreshed every third update (held apart from the policy between), with
// teacher checks before the first update and after the second: every part of a job that a cut could lose.
const JOB: Job = {
  kind: 'run',
  algo: 'seed',
  seed: 1,
  updates: 4,
  config: { ...config, teacherRefresh: 3, teacherGames: 2 },
  init: 'public/warmstart-micro.ckpt',
  evalEvery: 1,
  evalEpisodes: 2,
  evalSamples: 1,
  preset: 'micro',
  record: { episodeUpdates: [1, 4] },
  teacherAt: [0, 2],
};

const sansWall = (r: JobResult) => ({ ...r, wall_s: 0 });

let dir = '';
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = '';
});

/** A progress folder in a fresh temporary folder, kept for `job` (by its JSON), with the lines it says. */
async function progressIn(job: Job, onKept?: JobProgress['onKept']): Promise<JobProgress & { lines: string[] }> {
  dir = await mkdtemp(join(tmpdir(), 'seed-progress-'));
  const lines: string[] = [];
  return { dir: join(dir, 'job.progress'), key: JSON.stringify(job), log: (l) => lines.push(l), onKept, lines };
}

describe('bench learn: a job cut short', () => {
  it('goes on from its last kept point and ends as the same job never cut, bit for bit', async () => {
    const uncut = await runJob(JOB);
    const progress = await progressIn(JOB, (updates) => {
      if (updates === 2) throw new Error('cut after update 2');
    });
    await expect(runJob(JOB, progress)).rejects.toThrow('cut after update 2');
    // The run's weights and AdamW state, its frozen reference, the teacher it holds, and what it gathered.
    expect((await readdir(progress.dir)).sort()).toEqual([
      'last.ckpt',
      'progress.json',
      'reference.ckpt',
      'seed-learn-job-progress',
      'teacher.ckpt',
    ]);
    const resumed = await runJob(JOB, { ...progress, onKept: undefined });
    expect(progress.lines).toEqual([`a run goes on from update 2, kept in ${progress.dir}`]);
    expect(sansWall(resumed)).toEqual(sansWall(uncut));
    expect(resumed.teacher.map(([u]) => u)).toEqual([0, 2]);
    expect(resumed.recorded!.episodes.map((e) => e.update)).toEqual(uncut.recorded!.episodes.map((e) => e.update));
    expect(resumed.wall_s).toBeGreaterThan(0);
  }, 120_000);

  it("moves aside a folder that is not this job's progress, says why, and starts the job over", async () => {
    const uncut = await runJob({ ...JOB, record: undefined, teacherAt: undefined });
    const job = { ...JOB, record: undefined, teacherAt: undefined };
    const seed2 = { ...job, seed: 2 };
    const other = await progressIn(seed2, (updates) => {
      if (updates === 1) throw new Error('cut');
    });
    await expect(runJob(seed2, other)).rejects.toThrow('cut');
    const mine = { ...other, key: JSON.stringify(job), onKept: undefined };
    const again = await runJob(job, mine);
    expect(sansWall(again)).toEqual(sansWall(uncut));
    expect(other.lines).toEqual([
      `${other.dir} cannot be used (it is another job's progress, or one kept by other code or weights): moved to ${other.dir}.damaged, and its run starts over`,
    ]);
    // A state cut off mid-file.
    await rm(other.dir, { recursive: true });
    const state = join(other.dir, 'progress.json');
    await expect(runJob(job, { ...mine, onKept: () => Promise.reject(new Error('cut')) })).rejects.toThrow('cut');
    await writeFile(state, (await readFile(state, 'utf8')).slice(0, 100));
    other.lines.length = 0;
    expect(sansWall(await runJob(job, mine))).toEqual(sansWall(uncut));
    expect(other.lines[0]).toMatch(/cannot be used \(.*JSON.*\): moved to .*\.damaged\.2, and its run starts over$/);
    // A state whose curve is gone.
    await rm(other.dir, { recursive: true });
    await expect(runJob(job, { ...mine, onKept: () => Promise.reject(new Error('cut')) })).rejects.toThrow('cut');
    const kept = JSON.parse(await readFile(state, 'utf8'));
    await writeFile(state, JSON.stringify({ ...kept, gathered: { ...kept.gathered, curve: null } }));
    other.lines.length = 0;
    expect(sansWall(await runJob(job, mine))).toEqual(sansWall(uncut));
    expect(other.lines[0]).toBe(
      `${other.dir} cannot be used (progress.json lacks what the job gathered): moved to ${other.dir}.damaged.3, and its run starts over`,
    );
    // A teacher check kept without the blank block's figure.
    await rm(other.dir, { recursive: true });
    await expect(runJob(job, { ...mine, onKept: () => Promise.reject(new Error('cut')) })).rejects.toThrow('cut');
    const whole = JSON.parse(await readFile(state, 'utf8'));
    await writeFile(
      state,
      JSON.stringify({ ...whole, gathered: { ...whole.gathered, teacherChecks: [[0, 0, 0, 0]] } }),
    );
    other.lines.length = 0;
    expect(sansWall(await runJob(job, mine))).toEqual(sansWall(uncut));
    expect(other.lines[0]).toBe(
      `${other.dir} cannot be used (progress.json holds teacher checks without the blank block's figure): moved to ${other.dir}.damaged.4, and its run starts over`,
    );
    // Means kept without a metric's sums (one added to MEAN_METRICS since).
    await rm(other.dir, { recursive: true });
    await expect(runJob(job, { ...mine, onKept: () => Promise.reject(new Error('cut')) })).rejects.toThrow('cut');
    const older = JSON.parse(await readFile(state, 'utf8'));
    delete older.gathered.means.metrics.opdDeltaShare;
    await writeFile(state, JSON.stringify(older));
    other.lines.length = 0;
    expect(sansWall(await runJob(job, mine))).toEqual(sansWall(uncut));
    expect(other.lines[0]).toBe(
      `${other.dir} cannot be used (progress.json lacks what the job gathered): moved to ${other.dir}.damaged.5, and its run starts over`,
    );
  }, 120_000);

  it('leaves a folder that holds what no progress holds as it is, refusing to run; an empty one is none', async () => {
    const job = { ...JOB, updates: 2, record: undefined, teacherAt: undefined };
    const progress = await progressIn(job);
    await mkdir(progress.dir);
    expect(sansWall(await runJob(job, progress))).toEqual(sansWall(await runJob(job)));
    expect(progress.lines).toEqual([]);
    await rm(progress.dir, { recursive: true });
    await mkdir(progress.dir);
    await writeFile(join(progress.dir, 'notes.txt'), 'mine');
    await expect(runJob(job, progress)).rejects.toThrow(
      new CliError(
        `${progress.dir} is not a job's progress folder (it holds "notes.txt", which a job's progress never holds): it is left as it is`,
      ),
    );
    expect(await readdir(progress.dir)).toEqual(['notes.txt']);
  }, 120_000);

  it('runs on when its progress cannot be written, saying so once per point', async () => {
    const job = { ...JOB, updates: 2, record: undefined, teacherAt: undefined };
    const progress = await progressIn(job);
    await writeFile(join(dir, 'file'), '');
    const blocked = { ...progress, dir: join(dir, 'file', 'job.progress') };
    const r = await runJob(job, blocked);
    expect(sansWall(r)).toEqual(sansWall(await runJob(job)));
    expect(progress.lines).toHaveLength(1);
    expect(progress.lines[0]).toMatch(/^could not keep the progress of a run in .*: a cut would start it over$/);
  }, 120_000);
});

describe("bench learn: the folders of jobs' progress, which a check for changes leaves out", () => {
  it('are its own and its .new, and those beside them that hold a mark and nothing a progress never holds', async () => {
    dir = await mkdtemp(join(tmpdir(), 'seed-progress-'));
    const folder = async (name: string, files: string[]) => {
      await mkdir(join(dir, name));
      for (const file of files) await writeFile(join(dir, name, file), '');
    };
    await folder('2', ['seed-learn-job-progress', 'progress.json', 'last.ckpt']);
    await folder('3.damaged', ['seed-learn-job-progress']);
    await folder('4', ['seed-learn-job-progress', 'notes.ts']);
    await folder('5', ['progress.json']);
    await folder('src', ['a.ts']);
    await writeFile(join(dir, 'b.ts'), '');
    await symlink(join(dir, '2'), join(dir, 'link'));
    const own = join(dir, '1');
    expect((await progressFoldersBeside(own)).sort()).toEqual(
      [own, `${own}.new`, join(dir, '2'), join(dir, '3.damaged')].sort(),
    );
    expect(await progressFoldersBeside(join(dir, 'absent', '1'))).toEqual([
      join(dir, 'absent', '1'),
      join(dir, 'absent', '1.new'),
    ]);
  });
});
