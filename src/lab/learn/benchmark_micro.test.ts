// `bench learn` in-process on the micro preset: a real sweep, runs and report from the micro warm start, a
// benchmark run again from --first-seed bit for bit, and the data fractions.
import { describe, expect, it } from 'vitest';
import { parseOptions } from '../../cli/args.ts';
import { runPlan, type LearnPlan } from './benchmark.ts';
import { renderFractions } from './report/fractions_report.ts';
import { evalGames } from './design/games.ts';
import { runJob, type Job } from './jobs/job.ts';
import { command } from './plan_options.ts';
import { readPlan } from './plan_read.ts';
import type { JobOutcome } from './jobs/pool.ts';
import { renderLearn } from './report/report.ts';
import { environmentOf } from '../../worlds/environments.ts';

const plan = (...args: string[]) => readPlan(parseOptions(args, command).values);
const quiet = () => {};

describe('bench learn: in-process on the micro preset', () => {
  const micro = (args: string[]): LearnPlan => ({
    ...plan(
      '--updates',
      '2',
      '--sweep-updates',
      '1',
      '--eval-every',
      '1',
      '--eval-episodes',
      '2',
      '--eval-samples',
      '1',
      '--set',
      'groupSize=2',
      '--set',
      'tasksPerUpdate=2',
      '--set',
      'maxSteps=3',
      '--set',
      'history=3',
      // Both updates measure the gradient's parts: the first one's GRPO part is 0 (no group differs in reward yet).
      '--set',
      'gradShareEvery=1',
      // The teacher check at the warm start on 4 games: every run plays one.
      '--teacher-at',
      '0',
      '--teacher-games',
      '4',
      '--extend-grid',
      '0',
      ...args,
    ),
    init: 'public/warmstart-micro.ckpt',
    preset: 'micro',
    workers: 1,
  });
  const inProcess = async (jobs: Job[]): Promise<JobOutcome[]> => {
    const out: JobOutcome[] = [];
    for (const job of jobs) out.push({ job, result: await runJob(job) });
    return out;
  };
  const outcome = (p: LearnPlan, o: Awaited<ReturnType<typeof runPlan>>) => ({
    ...p,
    ...o,
    command: 'bench learn',
    commit: null,
    evalGames: evalGames(p.evalEpisodes, environmentOf(p.env ?? 'household')),
    wallSeconds: 1,
    estimatedSeconds: 1,
    full: false,
  });

  it('sweeps lambda, runs every arm and writes a report with the areas, diagnostics and headline', async () => {
    const p = micro([
      '--seeds',
      '1',
      '--control-seeds',
      '1',
      '--controls',
      'seed-exact-crossgame',
      '--lambdas',
      '0.1,1',
      '--sweep-seeds',
      '2',
    ]);
    const o = await runPlan(p, inProcess, quiet);
    expect(o.points.map((x) => [x.algo, x.value, x.seeds])).toEqual([
      ['seed-exact', 0.1, [1000, 1001]],
      ['seed-exact', 1, [1000, 1001]],
    ]);
    expect(o.runs.map((r) => [r.algo, r.lambda])).toEqual([
      ['grpo', p.base.lambda],
      ['seed-exact', o.settings.get('seed-exact')!.lambda],
      ['seed-exact-crossgame', o.settings.get('seed-exact')!.lambda],
    ]);
    const report = renderLearn(outcome(p, o));
    expect(report.headline).toMatch(/^Best distilling arm: seed-exact \(lambda (0\.1|1), lr 0\.0005, rehearsal 0\)/);
    expect(report.differences.map((d) => d.label)).toContain('seed-exact - seed-exact-crossgame');
    const diagnostics = (report.json as { diagnostics: Record<string, { gradNormRatio: number | null }> }).diagnostics;
    expect(diagnostics['seed-exact'].gradNormRatio).toBeGreaterThan(0);
    for (const r of o.runs) expect(r.curve_won).toHaveLength(r.curve.length);
    for (const r of o.runs) expect(r.teacher.map(([u]) => u)).toEqual([0]);
    expect(report.markdown).toMatch(
      /\| seed-exact \| 0 \| 1 \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \| [-+][0-9.]+ \| [-+][0-9.]+ \[[-+][0-9.]+, [-+][0-9.]+\] \| [-+][0-9.]+ \[[-+][0-9.]+, [-+][0-9.]+\] \|/,
    );
  }, 120_000);

  it('runs a benchmark again from --first-seed bit for bit: the same sweep, runs, curves and figures', async () => {
    const p = micro([
      '--first-seed',
      '3',
      '--seeds',
      '1',
      '--controls',
      'none',
      '--lambdas',
      '0.1,1',
      '--sweep-seeds',
      '2',
    ]);
    const sansWall = (o: Awaited<ReturnType<typeof runPlan>>) => ({
      ...o,
      warm: { ...o.warm, wall_s: 0 },
      runs: o.runs.map((r) => ({ ...r, wall_s: 0 })),
    });
    const first = await runPlan(p, inProcess, quiet);
    const again = await runPlan(p, inProcess, quiet);
    expect(first.runs.map((r) => [r.algo, r.seed])).toEqual([
      ['grpo', 3],
      ['seed-exact', 3],
    ]);
    expect(first.sweep.map((r) => r.seed)).toEqual([1000, 1001, 1000, 1001]);
    expect(sansWall(again)).toEqual(sansWall(first));
    // Another first seed draws other tasks: the runs differ in more than their seed.
    const other = await runPlan({ ...p, firstSeed: 4 }, inProcess, quiet);
    const sansSeed = (o: Awaited<ReturnType<typeof runPlan>>) => sansWall(o).runs.map((r) => ({ ...r, seed: 0 }));
    expect(other.runs.map((r) => r.seed)).toEqual([4, 4]);
    expect(sansSeed(other)).not.toEqual(sansSeed(first));
  }, 240_000);

  it('runs the data fractions and reports each with its differences', async () => {
    const p = micro(['--fractions', '0.5', '--seeds', '1', '--lambdas', '0.1']);
    const o = await runPlan(p, inProcess, quiet);
    expect(o.fractions.map((f) => [f.fraction, f.trainGames, f.runs.map((r) => r.algo)])).toEqual([
      [0.5, 2, ['grpo', 'seed-exact']],
    ]);
    const report = renderFractions({ ...outcome(p, o), fractions: o.fractions });
    expect(report.markdown).toContain('| seed-exact at 0.5 - grpo at 0.5 | 1 |');
    expect(report.table).toContain('| 0.5 | 2 | seed-exact | 1 | 0.1 |');
  }, 120_000);
});
