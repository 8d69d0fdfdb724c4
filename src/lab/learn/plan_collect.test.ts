// `bench learn` as jobs for any runner, end to end on the micro preset: a benchmark with a lambda sweep (two
// phases) planned with --plan, each job run by the per-job command the plan prints, in a child process of its
// own (two at a time), and collected with --collect until the reports are written, gives the report of a local
// run of the same invocation: the same numbers in learn.json (all but the wall times, the commit and the plan's
// folder) and the same curves. On the way: an option changed at --collect is refused, a result file that fails
// its check is named and its job planned again, and a plan's folder is not planned over; a plan.json whose jobs
// are not those of its job files is refused, not planned again.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseOptions } from '../../cli/args.ts';
import { CliError } from '../../cli/cli_error.ts';
import { runCaptured } from '../../cli/testing.ts';
import { runJob, type Job } from './jobs/job.ts';
import { run } from './main.ts';
import { jobCommand } from './jobs/plan_dir.ts';
import { command } from './plan_options.ts';
import { readPlan } from './plan_read.ts';
import type { JobOutcome } from './jobs/pool.ts';
import { runAndReport } from './write_reports.ts';

const root = mkdtempSync(join(tmpdir(), 'learn-plan-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A small benchmark: grpo and seed-exact, one seed each, seed-exact's lambda swept over two values on 2 seeds. */
const ARGS = [
  ...['--preset', 'micro', '--algos', 'grpo,seed-exact', '--controls', 'none', '--seeds', '1'],
  ...['--lambdas', '0.1,1', '--sweep-seeds', '2', '--extend-grid', '0'],
  ...['--updates', '2', '--sweep-updates', '1', '--eval-every', '1', '--eval-episodes', '2', '--eval-samples', '1'],
  ...['--set', 'groupSize=2', '--set', 'tasksPerUpdate=2', '--set', 'maxSteps=3', '--set', 'history=3'],
  ...['--teacher-at', '0', '--teacher-games', '4', '--workers', '1'],
];

/** The command line as a shell would split it (the plan's folder lies in a temporary folder without spaces). */
function runCommand(line: string): Promise<{ code: number | null; stderr: string }> {
  const [npm, ...rest] = line.split(' ');
  expect(npm).toBe('npm');
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['--silent', ...rest], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

/** Runs the jobs the plan's printed command names, by that command, two child processes at a time. */
async function runJobs(printed: string, numbers: number[]): Promise<void> {
  const template = printed
    .split('\n')
    .find((l) => l.includes('--worker'))!
    .trim();
  const queue = [...numbers];
  const worker = async () => {
    for (let n = queue.shift(); n !== undefined; n = queue.shift()) {
      const { code, stderr } = await runCommand(template.replaceAll('/N.json', `/${n}.json`));
      expect(code, stderr).toBe(0);
    }
  };
  await Promise.all([worker(), worker()]);
}

const pending = (dir: string) =>
  readFileSync(join(dir, 'pending.txt'), 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map(Number);

/** learn.json without what differs between two runs of the same benchmark: wall times, commit, plan's folder. */
function numbers(path: string): unknown {
  const json = JSON.parse(readFileSync(path, 'utf8'));
  for (const key of ['wall_s', 'commit', 'planned']) delete json[key];
  for (const r of json.runs) delete r.wall_s;
  return json;
}

describe('bench learn --plan, --worker FILE --result FILE, --collect', () => {
  it('gives the report of a local run of the same invocation, number for number', async () => {
    const dir = join(root, 'plan');
    const planned = await runCaptured(run, [...ARGS, '--plan', dir]);
    expect(planned.code).toBe(0);
    expect(planned.stdout).toContain(`phase 1 of the plan in ${dir}: 4 jobs to run`);
    expect(planned.stdout).toContain(jobCommand(dir, 'N'));
    expect(pending(dir)).toEqual([0, 1, 2, 3]);
    expect(existsSync(join(dir, 'init.ckpt'))).toBe(true);

    // Refused: planning over a plan, and collecting with an option that changes what was planned.
    await expect(run([...ARGS, '--plan', dir])).rejects.toThrow(/holds a plan already/);
    const changed = run([...ARGS.map((a) => (a === '0.1,1' ? '0.1,0.3' : a)), '--collect', dir]);
    await expect(changed).rejects.toThrow(CliError);
    await expect(changed).rejects.toThrow(/change what was planned \(lambdas\)/);

    await runJobs(planned.stdout, pending(dir));
    // A result that fails its check counts as missing: named, and its job planned again.
    const bad = join(dir, 'results', '2.json');
    const good = readFileSync(bad, 'utf8');
    writeFileSync(bad, good.replace('"algo":"seed-exact"', '"algo":"grpo"'));
    const again = await runCaptured(run, ['--collect', dir]);
    expect(again.stderr).toMatch(/results\/2\.json cannot be used \(.*\): job 2 counts as missing/);
    expect(again.stdout).toContain('phase 1 of the plan');
    expect(pending(dir)).toEqual([2]);
    await runJobs(again.stdout, [2]);
    expect(readFileSync(bad, 'utf8').replace(/"wall_s":[\d.e-]+/, '')).toBe(good.replace(/"wall_s":[\d.e-]+/, ''));

    // The sweep's choice makes the second phase: the warm start and the two runs.
    const second = await runCaptured(run, [...ARGS, '--collect', dir]);
    expect(second.stdout).toContain('phase 2 of the plan');
    expect(pending(dir)).toEqual([4, 5, 6]);
    await runJobs(second.stdout, pending(dir));
    const out = join(root, 'collected');
    const done = await runCaptured(run, ['--collect', dir, '--out', out]);
    expect(done.code).toBe(0);
    expect(done.stdout).toContain('| seed-exact | 1 |');
    expect(pending(dir)).toEqual([]);

    // The same invocation run here, each job in this process, written by the same report functions.
    const values = parseOptions([...ARGS], command).values;
    const local = join(root, 'local');
    const inProcess = async (jobs: Job[]): Promise<JobOutcome[]> => {
      const outcomes: JobOutcome[] = [];
      for (const job of jobs) outcomes.push({ job, result: await runJob(job) });
      return outcomes;
    };
    await runCaptured(
      () =>
        runAndReport(
          { args: ARGS, values, plan: readPlan(values), commit: null, out: local },
          inProcess,
          () => {},
        ).then(() => 0),
      [],
    );
    const collected = JSON.parse(readFileSync(join(out, 'learn.json'), 'utf8'));
    expect(collected.planned).toMatch(/plan$/);
    expect(collected.runs.map((r: { algo: string }) => r.algo)).toEqual(['grpo', 'seed-exact']);
    expect(collected.sweep.runs).toHaveLength(4);
    expect(numbers(join(out, 'learn.json'))).toEqual(numbers(join(local, 'learn.json')));
    expect(readFileSync(join(out, 'learn_curve.svg'), 'utf8')).toBe(
      readFileSync(join(local, 'learn_curve.svg'), 'utf8'),
    );
  }, 600_000);
});

describe('bench learn --collect on a plan.json changed by hand', () => {
  it("refuses a job's SHA-256 that is not its job file's, or one given twice, and writes nothing", async () => {
    const dir = join(root, 'edited');
    expect((await runCaptured(run, [...ARGS, '--plan', dir])).code).toBe(0);
    const manifest = join(dir, 'plan.json');
    const planned = readFileSync(manifest, 'utf8');
    const { jobs } = JSON.parse(planned) as { jobs: { sha256: string }[] };
    const edited = planned.replace(jobs[1].sha256, 'f'.repeat(64));
    writeFileSync(manifest, edited);
    await expect(run(['--collect', dir])).rejects.toThrow(
      /plan\.json cannot be used: its job 1 \(SHA-256 ffffffffffff\.\.\.\) is not the job of .*jobs\/1\.json \(\w{12}\.\.\.\), so one of them was changed after it was planned$/,
    );
    expect(readFileSync(manifest, 'utf8')).toBe(edited);
    expect(existsSync(join(dir, 'jobs', '4.json'))).toBe(false);
    writeFileSync(manifest, planned.replace(jobs[1].sha256, jobs[0].sha256));
    await expect(run(['--collect', dir])).rejects.toThrow(
      /plan\.json cannot be used: jobs\[1\]\.sha256 is that of jobs\[0\]: one job has one number$/,
    );
    expect(existsSync(join(dir, 'jobs', '4.json'))).toBe(false);
  }, 120_000);
});
