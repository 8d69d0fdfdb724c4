// The check of a kept run against real runs: a small benchmark on the micro preset, in-process, with every kind
// of job (the warm start's evaluation, sweep runs, recorded runs, a cross-game arm) kept by the store; a resumed
// invocation takes every kept run as it is, and after damage runs again only the damaged ones, to the same
// figures.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { factsOf } from '../../../worlds/facts.ts';
import { parseOptions } from '../../../cli/args.ts';
import { runPlan, type LearnPlan } from '../benchmark.ts';
import { runJob, type Job, type JobResult } from './job.ts';
import { fakeResult } from '../learn_testing.ts';
import { JOB_STORE_DIR, JobStore, type ReportingRunner } from './job_store.ts';
import { checkKeptRun } from './kept_run_check.ts';
import { command } from '../plan_options.ts';
import { readPlan } from '../plan_read.ts';
import type { JobOutcome } from './pool.ts';
import { ofAlgo } from '../../../rl/arms.ts';

const root = mkdtempSync(join(tmpdir(), 'kept-runs-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const CLEAN = { hash: 'abc1234', dirty: false };
const quiet = () => {};

const plan: LearnPlan = {
  ...readPlan(
    parseOptions(
      [
        ...['--algos', 'grpo,seed-exact', '--controls', 'seed-crossgame', '--seeds', '1', '--control-seeds', '1'],
        ...['--lambdas', '0.1,1', '--sweep-seeds', '2', '--sweep-updates', '1', '--updates', '3', '--eval-every', '2'],
        ...['--eval-episodes', '2', '--eval-samples', '1', '--set', 'groupSize=2', '--set', 'tasksPerUpdate=2'],
        ...['--set', 'maxSteps=3', '--set', 'history=3', '--teacher-at', '0,2', '--teacher-games', '4'],
      ],
      command,
    ).values,
  ),
  init: 'public/warmstart-micro.ckpt',
  preset: 'micro',
  workers: 1,
  record: true,
};

/** Runs jobs in this process; a result reaches the store as JSON, as from a child process. */
function inProcess() {
  const asked: Job[] = [];
  const run: ReportingRunner = async (jobs, onDone) => {
    const out: JobOutcome[] = [];
    for (const job of jobs) {
      asked.push(job);
      const outcome: JobOutcome = { job, result: JSON.parse(JSON.stringify(await runJob(job))) };
      await onDone(outcome);
      out.push(outcome);
    }
    return out;
  };
  return { asked, run };
}

/** The figures of a benchmark's runs, without their wall times. */
const figures = (o: Awaited<ReturnType<typeof runPlan>>) => [o.warm, ...o.runs].map(({ wall_s, ...rest }) => rest);

describe('bench learn --resume on real runs (micro preset)', () => {
  it('every kind of kept run passes the check; after damage only the damaged runs go again, to the same figures', async () => {
    const dir = join(root, 'micro');
    const first = inProcess();
    const before = await runPlan(plan, (await JobStore.open(dir, CLEAN, false))!.runner(first.run, quiet), quiet);
    const kinds = new Set(first.asked.map((j) => `${j.kind}${j.record ? ' recorded' : ''}`));
    expect([...kinds].sort()).toEqual(['run recorded', 'sweep', 'warmstart']);
    expect(before.runs.find(ofAlgo('seed-crossgame'))!.crossgame).not.toBeNull();
    expect(before.runs.every((r) => r.recorded!.episodes.length > 0)).toBe(true);
    expect(before.runs.every((r) => r.teacher.map(([u]) => u).join() === '0,2' && r.teacher_kl.length === 2)).toBe(
      true,
    );

    const store = join(dir, JOB_STORE_DIR);
    const files = readdirSync(store).map((f) => join(store, f));
    expect(files).toHaveLength(first.asked.length);
    const kept = files.map((f) => JSON.parse(readFileSync(f, 'utf8')) as { job: Job });
    for (const k of kept) expect(() => checkKeptRun(k, k.job)).not.toThrow();
    // A task type named like a member of every object is refused as any name that is no task type of the world.
    const run = kept.find((k) => k.job.kind === 'run')!;
    for (const name of ['constructor', '__proto__', 'toString', 'zz']) {
      const copy = structuredClone(run) as { job: Job; result: { per_type: { seen: object } } };
      // As JSON.parse gives it: an own entry, "__proto__" too.
      Object.defineProperty(copy.result.per_type.seen, name, { value: 0.5, enumerable: true, writable: true });
      expect(() => checkKeptRun(copy, run.job)).toThrow(
        `result.per_type.seen names "${name}", not a task type of the run's world`,
      );
    }

    const resumed = inProcess();
    const log: string[] = [];
    const runner = (await JobStore.open(dir, CLEAN, true))!.runner(resumed.run, (s) => log.push(s));
    expect(figures(await runPlan(plan, runner, quiet))).toEqual(figures(before));
    expect(resumed.asked).toEqual([]);

    // The warm start's file cut short, and a run's gradient ratio made negative.
    const warm = files[kept.findIndex((k) => k.job.kind === 'warmstart')];
    writeFileSync(warm, readFileSync(warm, 'utf8').slice(0, 200));
    const runAt = kept.findIndex((k) => k.job.kind === 'run' && ofAlgo('seed-exact')(k.job));
    const damaged = JSON.parse(readFileSync(files[runAt], 'utf8'));
    damaged.result.metric_means.gradNormRatio = -1;
    writeFileSync(files[runAt], JSON.stringify(damaged));
    const again = inProcess();
    const lines: string[] = [];
    const after = await runPlan(
      plan,
      (await JobStore.open(dir, CLEAN, true))!.runner(again.run, (s) => lines.push(s)),
      quiet,
    );
    expect(again.asked.map((j) => [j.kind, j.algo])).toEqual([
      ['warmstart', 'grpo'],
      ['run', 'seed-exact'],
    ]);
    expect(figures(after)).toEqual(figures(before));
    expect(lines.filter((l) => l.includes('cannot be used'))).toEqual([
      expect.stringMatching(/cannot be used \(not JSON: .*\): moved to .*\.json\.damaged beside it/),
      expect.stringMatching(
        /cannot be used \(result\.metric_means\.gradNormRatio is -1, not a number in \[0, Infinity\]\): moved to /,
      ),
    ]);
  }, 300_000);
});

describe('a kept run of a world with a score', () => {
  const job: Job = {
    kind: 'run',
    algo: 'grpo',
    seed: 1,
    updates: 4,
    config: { ...plan.base, lr: 5e-4, lambda: 0.1, opidWeight: 1e-3 },
    init: 'w.ckpt',
    evalEvery: 2,
    evalEpisodes: 2,
    evalSamples: 1,
    env: 'shop',
  };
  const result = (extra: Partial<JobResult>): JobResult =>
    fakeResult('grpo', 1, [1, 0], {
      lr: 5e-4,
      lambda: 0.1,
      opid_weight: 1e-3,
      per_type: { seen: { [factsOf('shop').taskTypes[0]]: 0.5 }, unseen: { [factsOf('shop').taskTypes[0]]: 0.5 } },
      curve: [
        [32, 0.5],
        [64, 0.5],
      ],
      curve_won: [
        [1, 0],
        [1, 0],
      ],
      score_seen: 0.75,
      score_unseen: 0.75,
      scores_seen: [1, 0.5],
      scores_unseen: [1, 0.5],
      curve_score: [0.75, 0.75],
      curve_scores: [
        [1, 0.5],
        [1, 0.5],
      ],
      ...extra,
    });
  it('keeps its score beside success, every figure in [0, 1] and of its length; a household run keeps none', () => {
    expect(() => checkKeptRun({ job, result: result({}) }, job)).not.toThrow();
    expect(() => checkKeptRun({ job, result: result({ score_unseen: 1.5 }) }, job)).toThrow(/^result.score_unseen/);
    expect(() => checkKeptRun({ job, result: result({ curve_scores: [[1, 0.5]] }) }, job)).toThrow(
      /^result.curve_scores/,
    );
    expect(() => checkKeptRun({ job, result: result({ scores_seen: undefined }) }, job)).toThrow(/^result.scores_seen/);
    const household = { ...job, env: undefined };
    delete household.env;
    const types = { pick_and_place_simple: 0.5 };
    expect(() =>
      checkKeptRun({ job: household, result: result({ per_type: { seen: types, unseen: types } }) }, household),
    ).toThrow(/^result.score_seen is 0.75, but this run job scores nothing/);
  });

  it('reads a run kept before the Delta-dependent share existed as one that did not measure it', () => {
    const kept = result({});
    kept.metric_means.opdDeltaShare = 0.125;
    expect(checkKeptRun({ job, result: structuredClone(kept) }, job).metric_means.opdDeltaShare).toBe(0.125);
    const { opdDeltaShare: _, ...older } = kept.metric_means;
    const read = checkKeptRun({ job, result: { ...kept, metric_means: older as typeof kept.metric_means } }, job);
    expect(read.metric_means.opdDeltaShare).toBeNull();
    kept.metric_means.opdDeltaShare = 1.5;
    expect(() => checkKeptRun({ job, result: kept }, job)).toThrow(
      /^result\.metric_means\.opdDeltaShare is 1\.5, not a number in \[0, 1\]/,
    );
    const { gradNormOpd: __, ...withoutNorm } = older;
    expect(() =>
      checkKeptRun({ job, result: { ...kept, metric_means: withoutNorm as typeof kept.metric_means } }, job),
    ).toThrow(/^result\.metric_means\.gradNormOpd is undefined/);
  });

  it("keeps each teacher check's blank block; one kept without it goes again", () => {
    const checked = (teacher: unknown) =>
      checkKeptRun({ job, result: { ...result({}), teacher, teacher_kl: [[2, null]] } }, job);
    expect(() => checked([[2, 0.25, 0.5, 0.25, 0.375]])).not.toThrow();
    expect(() => checked([[2, 0.25, 0.5, 0.25, null]])).toThrow(/^result\.teacher\[0\]\[4\] is null/);
    expect(() => checked([[2, 0.25, 0.5, 0.25]])).toThrow(
      /^result\.teacher\[0\] has 4 entries, but the job gives 5 \(the update, then success with no skill, its own, another game's and the blank block\)$/,
    );
    expect(() => checked([[2, 0.25, 0.5, 0.25, 1.5]])).toThrow(/^result\.teacher\[0\]\[4\] is 1\.5/);
  });
});
