// What `bench learn` runs from its options: the plan read from the command line, the jobs of the main
// benchmark and of the data fractions (with a runner that makes results up, and once in-process on the micro
// preset, in benchmark_micro.test.ts), and the estimate that keeps the defaults inside their budget.
import { describe, expect, it } from 'vitest';
import { parseOptions } from '../../cli/args.ts';
import { CliError } from '../../cli/cli_error.ts';
import { estimatePlan, fractionGames, runPlan } from './benchmark.ts';
import type { Job } from './jobs/job.ts';
import { fakeResult } from './learn_testing.ts';
import { command } from './plan_options.ts';
import { readPlan } from './plan_read.ts';
import { DEFAULT_BUDGET_MINUTES, type JobOutcome } from './jobs/pool.ts';
import { factsOf } from '../../worlds/facts.ts';
import { isBaseline, usesOpidWeight, ofAlgo } from '../../rl/arms.ts';

const plan = (...args: string[]) => readPlan(parseOptions(args, command).values);
const quiet = () => {};

/** Made-up results: every game won at the run's lambda (grpo: 0.5), the job failing when `fails` says so. */
function fakeRunner(fails: (j: Job) => boolean = () => false) {
  const asked: Job[][] = [];
  const run = async (jobs: Job[]): Promise<JobOutcome[]> => {
    asked.push(jobs);
    return jobs.map((job) => {
      if (fails(job)) return { job, error: 'exited with code 1' };
      const won = [isBaseline(job.algo) ? 0.5 : job.config.lambda, 0];
      return {
        job,
        result: fakeResult(job.algo, job.seed, won, {
          lr: job.config.lr,
          lambda: job.config.lambda,
          opid_weight: job.config.opidWeight,
          success_validation: job.kind === 'sweep' ? job.config.lambda : null,
          curve: [[32, won[0] / 2]],
          curve_won: [won],
        }),
      };
    });
  };
  return { asked, run };
}

describe('bench learn: the plan', () => {
  it('defaults to grpo and seed-exact with three controls, a lambda sweep by OPD share on 4 seeds, one learning rate, within the budget', () => {
    const p = plan('--workers', '2');
    const exact = factsOf('household').opdRatioPerLambda.exact;
    expect([
      p.algos,
      p.controls,
      p.ablations,
      p.seeds,
      p.controlSeeds,
      p.lrs,
      p.lambdas,
      p.opdShares,
      p.lambdaGrids,
      p.sweepSeeds,
      p.sweepUpdates,
      p.fractions,
    ]).toEqual([
      ['grpo', 'seed-exact'],
      ['seed', 'seed-exact-crossgame', 'seed-crossgame'],
      [],
      8,
      3,
      [5e-4],
      [],
      [0.05, 0.2, 0.5],
      { 'seed-exact': [0.05 / 0.95, 0.25, 1].map((r) => Number((r / exact).toPrecision(2))) },
      4,
      192,
      [],
    ]);
    expect(estimatePlan(p)).toBeLessThanOrEqual(DEFAULT_BUDGET_MINUTES * 60);
    const full = plan('--workers', '2', '--full');
    expect([full.seeds, full.controlSeeds]).toEqual([10, 3]);
    expect(estimatePlan(full)).toBeGreaterThan(estimatePlan(p));
    // The data fractions of the paper's claim, 100 % included, fit their own budget of 2 1/4 hours (their lambda
    // sweep on 4 seeds per value included).
    expect(estimatePlan(plan('--workers', '2', '--fractions', '0.25,0.5,1'))).toBeLessThanOrEqual(135 * 60);
  });

  it("estimates the shop's benchmark from what its runs measured: an update about 11 times the household's", () => {
    // The shop's recorded benchmark (bench/learn_shop.md) ran 71.6 min on 2 workers.
    const args = [
      '--algos',
      'grpo,seed',
      '--controls',
      'seed-crossgame',
      '--seeds',
      '8',
      '--control-seeds',
      '8',
      '--updates',
      '32',
      '--eval-every',
      '16',
      '--lambdas',
      '0.03,0.1,0.3',
      '--sweep-updates',
      '16',
      '--workers',
      '2',
      // That benchmark ran before the shop had teacher checks.
      '--teacher-at',
      'none',
    ];
    const shop = estimatePlan(plan(...args, '--env', 'shop'));
    expect(shop / 60).toBeGreaterThan(50);
    expect(shop / 60).toBeLessThan(90);
    expect(shop).toBeGreaterThan(5 * estimatePlan(plan(...args)));
  });

  it("counts the teacher checks at what a game of one costs in the run's world", () => {
    const args = ['--algos', 'grpo,seed', '--controls', '', '--seeds', '3', '--lambdas', '0.1', '--workers', '1'];
    const without = estimatePlan(plan(...args, '--teacher-at', 'none'));
    const checked = estimatePlan(plan(...args, '--teacher-at', '0,24,48', '--teacher-games', '256'));
    // 6 runs of 3 checks each, on one worker: 256 games of 5 household evaluation episodes (0.01 s each) a check.
    expect(checked - without).toBeCloseTo(6 * 3 * 256 * 5 * 0.01, 6);
    const shop = (extra: string[]) => estimatePlan(plan(...args, '--env', 'shop', ...extra));
    expect(shop(['--teacher-at', '0', '--teacher-games', '256']) - shop(['--teacher-at', 'none'])).toBeCloseTo(
      6 * 256 * 20 * 0.01,
      6,
    );
  });

  it('takes lr and lambda given with --set as fixed, and refuses them given twice or a sweep on one seed', () => {
    const fixed = plan('--set', 'lambda=0.2', '--set', 'lr=1e-3');
    expect([fixed.lambdas, fixed.lrs, fixed.base.lambda, fixed.base.lr]).toEqual([[0.2], [1e-3], 0.2, 1e-3]);
    expect(plan('--lambdas', '0.05').base.lambda).toBe(0.05);
    expect(() => plan('--set', 'lambda=0.2', '--lambdas', '0.1,0.3')).toThrow(
      /--set lambda=\.\.\. and --lambdas both give lambda/,
    );
    expect(() => plan('--sweep-seeds', '1')).toThrow(/--sweep-seeds must be at least 2 when sweeping/);
    expect(plan('--sweep-seeds', '1', '--lambdas', '0.1').sweepSeeds).toBe(1);
    expect(() => plan('--lambdas', '0.1,-1')).toThrow(CliError);
  });

  it('takes one rehearsal weight for every arm or a sweep of each main arm, counts its runs, and refuses it given twice', () => {
    expect([plan().rehearsals, plan().base.rehearsal]).toEqual([[0], 0]);
    const one = plan('--rehearsals', '0.5');
    expect([one.rehearsals, one.base.rehearsal]).toEqual([[0.5], 0.5]);
    const set = plan('--set', 'rehearsal=2');
    expect([set.rehearsals, set.base.rehearsal]).toEqual([[2], 2]);
    // Swept, the other sweeps run at the preset's weight.
    const swept = plan('--rehearsals', '1,0,1,0.3');
    expect([swept.rehearsals, swept.base.rehearsal]).toEqual([[1, 0, 0.3], 0]);
    expect(() => plan('--set', 'rehearsal=1', '--rehearsals', '0,1')).toThrow(
      /--set rehearsal=\.\.\. and --rehearsals both give rehearsal/,
    );
    expect(() => plan('--rehearsals', '0,11')).toThrow(CliError);
    expect(() => plan('--rehearsals', '-1')).toThrow(CliError);
    expect(() => plan('--rehearsals', '0,x')).toThrow(CliError);
    expect(() => plan('--lambdas', '0.1', '--sweep-seeds', '1', '--rehearsals', '0,1')).toThrow(
      /--sweep-seeds must be at least 2 when sweeping/,
    );
    // Two weights for each main arm cost what two learning rates do: the same runs at another setting.
    const args = ['--lambdas', '0.1', '--workers', '2'];
    const none = estimatePlan(plan(...args));
    const rehearsals = estimatePlan(plan(...args, '--rehearsals', '0,1')) - none;
    expect(rehearsals).toBeGreaterThan(0);
    expect(rehearsals).toBeCloseTo(estimatePlan(plan(...args, '--lrs', '5e-4,1e-3')) - none, 6);
  });

  it("states each distilling arm's lambda grid by OPD share in its world's measure, or takes the lambdas given", () => {
    const shares = plan('--algos', 'grpo,seed,seed-exact', '--opd-shares', '0.5,0.2', '--env', 'searchqa');
    const { sampled, exact } = factsOf('searchqa').opdRatioPerLambda;
    // A share s is an OPD / GRPO ratio s / (1 - s): 0.25 and 1.
    expect(shares.opdShares).toEqual([0.2, 0.5]);
    expect(shares.lambdaGrids).toEqual({
      seed: [Number((0.25 / sampled).toPrecision(2)), Number((1 / sampled).toPrecision(2))],
      'seed-exact': [Number((0.25 / exact).toPrecision(2)), Number((1 / exact).toPrecision(2))],
    });
    // The estimate counts each arm's own grid: 2 values x 4 seeds for each of the two distilling arms.
    const one = plan('--algos', 'grpo,seed,seed-exact', '--opd-shares', '0.2', '--env', 'searchqa');
    expect(estimatePlan(shares)).toBeGreaterThan(estimatePlan(one));
    const given = plan('--lambdas', '0.1,0.3');
    expect([given.lambdas, given.opdShares, given.lambdaGrids]).toEqual([[0.1, 0.3], undefined, undefined]);
    expect(() => plan('--lambdas', '0.1,0.3', '--opd-shares', '0.1,0.2')).toThrow(
      /--opd-shares and --lambdas both give the lambdas: give one/,
    );
    expect(() => plan('--set', 'lambda=0.1', '--opd-shares', '0.1,0.2')).toThrow(
      /--opd-shares and --set lambda=\.\.\. both give the lambdas: give one/,
    );
    expect(() => plan('--opd-shares', '0.1,1')).toThrow(CliError);
    expect(() => plan('--opd-shares', '0,0.5')).toThrow(CliError);
    expect(() => plan('--opd-shares', '0.1,0.5', '--sweep-seeds', '1')).toThrow(
      /--sweep-seeds must be at least 2 when sweeping/,
    );
  });

  it('refuses an algorithm named twice in one list, whose runs would be the same jobs', () => {
    expect(() => plan('--algos', 'grpo,seed,grpo')).toThrow('--algos names grpo twice: name each algorithm once');
    expect(() => plan('--controls', 'seed-crossgame, seed-crossgame')).toThrow('--controls names seed-crossgame twice');
    expect(plan('--algos', 'grpo,seed', '--controls', 'seed,seed-crossgame').controls).toEqual(['seed-crossgame']);
  });

  it("runs the fractions without controls, and refuses the main benchmark's options with them", () => {
    const p = plan('--fractions', '0.5,0.25,0.5');
    expect([p.fractions, p.controls]).toEqual([[0.25, 0.5], []]);
    for (const extra of [
      ['--controls', 'seed'],
      ['--control-seeds', '2'],
      ['--ablations', 'opid'],
      ['--record', 'r.json'],
      ['--full'],
    ]) {
      expect(() => plan('--fractions', '0.5', ...extra)).toThrow(/is for the main benchmark, not for --fractions/);
    }
    expect(() => plan('--fractions', '0')).toThrow(CliError);
    expect(() => plan('--fractions', '1.5')).toThrow(CliError);
  });
});

describe('bench learn: the runs', () => {
  it('runs the sweep, then every main run, control and ablation at its chosen settings, each curve from the warm start', async () => {
    const p = {
      ...plan(
        ...['--seeds', '2', '--control-seeds', '1', '--ablations', 'opid', '--updates', '4', '--lambdas', '0.1,0.3'],
        ...['--extend-grid', '0'],
      ),
      workers: 1,
    };
    const { asked, run } = fakeRunner((j) => isBaseline(j.algo) && j.seed === 2);
    const o = await runPlan(p, run, quiet);
    expect(asked).toHaveLength(3);
    // opid's weight is swept like a lambda (every value scores alike here: the first is kept).
    expect(asked[1].map((j) => `${j.kind} ${j.algo} ${j.seed} ${j.config.opidWeight}`)).toEqual(
      [0.01, 0.1, 1].flatMap((w) => [1000, 1001, 1002, 1003].map((s) => `sweep opid ${s} ${w}`)),
    );
    expect(asked[2].find((j) => usesOpidWeight(j.algo))!.config.opidWeight).toBe(0.01);
    const main = asked[2].map((j) => `${j.kind} ${j.algo} ${j.seed} ${j.config.lambda}`);
    expect(main).toEqual([
      'warmstart grpo 0 0.1',
      'run grpo 1 0.1',
      'run seed-exact 1 0.3',
      'run grpo 2 0.1',
      'run seed-exact 2 0.3',
      'run seed 1 0.3',
      'run seed-exact-crossgame 1 0.3',
      'run seed-crossgame 1 0.3',
      'run opid 1 0.3',
    ]);
    expect(o.failed).toMatchObject([{ kind: 'run', algo: 'grpo', seed: 2 }]);
    expect(o.runs).toHaveLength(7);
    expect(o.runs[0].curve).toEqual([
      [0, o.warm.success_unseen],
      [32, 0.25],
    ]);
    expect(o.runs[0].curve_won).toEqual([o.warm.won_unseen, [0.5, 0]]);
    expect(o.fractions).toEqual([]);
  });

  it("sweeps each main arm's rehearsal weight after its lambda, and runs every arm at its chosen one", async () => {
    const p = {
      ...plan(
        ...['--seeds', '1', '--control-seeds', '1', '--controls', 'seed-exact-crossgame', '--ablations', 'opid'],
        ...['--lambdas', '0.1,0.3', '--rehearsals', '0,1', '--opid-weights', '0.1', '--extend-grid', '0'],
      ),
      workers: 1,
    };
    // grpo does best without rehearsal, seed-exact with it.
    const asked: Job[][] = [];
    const run = async (jobs: Job[]): Promise<JobOutcome[]> => {
      asked.push(jobs);
      return jobs.map((job) => {
        const best = isBaseline(job.algo) ? 0 : 1;
        const success = (job.config.rehearsal === best ? 0.5 : 0.2) + (job.config.lambda === 0.3 ? 0.1 : 0);
        return {
          job,
          result: fakeResult(job.algo, job.seed, [success, 0], {
            lr: job.config.lr,
            lambda: job.config.lambda,
            success_validation: job.kind === 'sweep' ? success : null,
          }),
        };
      });
    };
    const o = await runPlan(p, run, quiet);
    expect(asked).toHaveLength(3);
    expect(asked[0].every((j) => j.config.rehearsal === 0)).toBe(true);
    expect(asked[1].map((j) => `${j.algo} ${j.seed} ${j.config.lambda} ${j.config.rehearsal}`)).toEqual([
      ...[0, 1].flatMap((w) => [1000, 1001, 1002, 1003].map((s) => `grpo ${s} ${p.base.lambda} ${w}`)),
      ...[0, 1].flatMap((w) => [1000, 1001, 1002, 1003].map((s) => `seed-exact ${s} 0.3 ${w}`)),
    ]);
    expect(asked[2].map((j) => `${j.kind} ${j.algo} ${j.config.rehearsal}`)).toEqual([
      'warmstart grpo 0',
      'run grpo 0',
      'run seed-exact 1',
      'run seed-exact-crossgame 1',
      'run opid 1',
    ]);
    expect([...o.settings].map(([a, x]) => `${a} ${x.rehearsal} ${x.how.rehearsal}`)).toEqual([
      'grpo 0 best mean validation-unseen success of 4 seeds per value',
      'seed-exact 1 best mean validation-unseen success of 4 seeds per value',
      "seed-exact-crossgame 1 seed-exact's",
      "opid 1 seed-exact's",
    ]);
  });

  it('starts every arm at --first-seed, grows the lambda grid past its best edge, and checks the teacher as told', async () => {
    const p = {
      ...plan(
        ...['--seeds', '2', '--first-seed', '6', '--control-seeds', '1', '--controls', 'seed-exact-crossgame'],
        ...['--updates', '4', '--lambdas', '0.1,0.3', '--extend-grid', '1', '--teacher-at', '4,0,24'],
      ),
      workers: 1,
    };
    expect([p.firstSeed, p.teacherAt, p.extend, p.base.teacherGames]).toEqual([6, [0, 4, 24], 1, 256]);
    const { asked, run } = fakeRunner();
    const o = await runPlan(p, run, quiet);
    // The lambda sweep, its step past 0.3 (the fake's best is the largest lambda), the runs, then the control's
    // other seed: at lambda 0.9 it wins 45% of the fake's games against grpo's 25%, so it runs the main arms' seeds.
    expect(asked.map((jobs) => [...new Set(jobs.map((j) => `${j.kind} ${j.config.lambda}`))])).toEqual([
      ['sweep 0.1', 'sweep 0.3'],
      ['sweep 0.9'],
      ['warmstart 0.1', 'run 0.1', 'run 0.9'],
      ['run 0.9'],
    ]);
    expect(asked[3].map((j) => `${j.algo} ${j.seed}`)).toEqual(['seed-exact-crossgame 7']);
    expect(o.promoted).toEqual([{ algo: 'seed-exact-crossgame', lead: 0.2, seeds: [6] }]);
    expect(o.runs.filter(ofAlgo('seed-exact-crossgame')).map((r) => [r.seed, r.curve[0][0]])).toEqual([
      [6, 0],
      [7, 0],
    ]);
    expect(o.edges).toEqual([{ param: 'lambda', algo: 'seed-exact', value: 0.9 }]);
    const runs = asked[2].filter((j) => j.kind === 'run');
    expect(runs.map((j) => `${j.algo} ${j.seed}`)).toEqual([
      'grpo 6',
      'seed-exact 6',
      'grpo 7',
      'seed-exact 7',
      'seed-exact-crossgame 6',
    ]);
    expect(runs.every((j) => JSON.stringify(j.teacherAt) === '[0,4]')).toBe(true);
    expect(
      asked
        .flat()
        .filter((j) => j.kind !== 'run')
        .every((j) => j.teacherAt === undefined),
    ).toBe(true);
    expect(plan('--teacher-at', 'none').teacherAt).toEqual([]);
    expect(plan('--set', 'teacherGames=8').base.teacherGames).toBe(8);
    expect(() => plan('--set', 'teacherGames=8', '--teacher-games', '9')).toThrow(CliError);
    expect(() => plan('--first-seed', '900')).toThrow(CliError);
  });

  it('runs grpo and each distilling main arm at every fraction, on that share of the training games', async () => {
    const p = {
      ...plan(
        '--fractions',
        '0.25,0.5',
        '--algos',
        'grpo,seed-exact,opid',
        '--seeds',
        '2',
        '--updates',
        '10',
        '--lambdas',
        '0.2',
      ),
      workers: 1,
    };
    const { asked, run } = fakeRunner();
    const o = await runPlan(p, run, quiet);
    expect(asked).toHaveLength(1);
    expect(asked[0].slice(1).map((j) => `${j.algo} ${j.seed} ${j.config.trainGames}`)).toEqual([
      'grpo 1 10',
      'seed-exact 1 10',
      'grpo 2 10',
      'seed-exact 2 10',
      'grpo 1 20',
      'seed-exact 1 20',
      'grpo 2 20',
      'seed-exact 2 20',
    ]);
    expect(fractionGames(p, 0.25)).toBe(10);
    expect(o.fractions.map((f) => [f.fraction, f.trainGames, f.runs.length])).toEqual([
      [0.25, 10, 4],
      [0.5, 20, 4],
    ]);
    expect(o.runs).toEqual([]);
  });
});
