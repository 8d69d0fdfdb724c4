// The choice of each arm's settings on validation, with a runner that makes its results up from the job:
// which sweep runs are asked for, which value wins, what the controls inherit, and what a failure does.
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../rl/config.ts';
import { type Algo, isExactAlgo, isBaseline, usesOpidWeight } from '../../../rl/arms.ts';
import { CliError } from '../../../cli/cli_error.ts';
import type { Job } from '../jobs/job.ts';
import { fakeResult, metricMeans } from '../learn_testing.ts';
import type { JobOutcome } from '../jobs/pool.ts';
import { chooseSettings, type MakeJob, type SweepPlan } from './sweep.ts';
import { sweepSection } from '../report/learn_prose.ts';

const base = defaultConfig('tiny');
const makeJob: MakeJob = (kind, algo, seed, updates, config) => ({
  kind,
  algo,
  seed,
  updates,
  config,
  init: 'w.ckpt',
  evalEvery: 1,
  evalEpisodes: 2,
  evalSamples: 1,
});

/** A runner whose validation success is `score(job)`, the OPD / GRPO ratio 3 x lambda, and that fails the jobs `fails` names. */
function runner(score: (j: Job) => number, fails: (j: Job) => boolean = () => false) {
  const asked: Job[] = [];
  const run = async (jobs: Job[]): Promise<JobOutcome[]> => {
    asked.push(...jobs);
    return jobs.map((job) =>
      fails(job)
        ? { job, error: 'exited with code 1' }
        : {
            job,
            result: fakeResult(job.algo, job.seed, [0], {
              lr: job.config.lr,
              lambda: job.config.lambda,
              opid_weight: job.config.opidWeight,
              success_validation: score(job),
              metric_means: metricMeans({
                gradNormGrpo: 1,
                gradNormOpd: 3 * job.config.lambda,
                gradNormRatio: isBaseline(job.algo) ? 0 : 3 * job.config.lambda,
                meanDivergence: null,
              }),
            }),
          },
    );
  };
  return { asked, run };
}

const plan = (over: Partial<SweepPlan> = {}): SweepPlan => ({
  algos: ['grpo', 'seed-exact'],
  controls: ['seed', 'seed-exact-crossgame', 'seed-crossgame'],
  ablations: [],
  base,
  lrs: [5e-4],
  lambdas: [0.03, 0.1, 0.3],
  opidWeights: [1e-3],
  rehearsals: [0],
  sweepSeeds: 2,
  sweepUpdates: 4,
  ...over,
});

describe('bench learn: settings chosen on validation', () => {
  it("sweeps lambda for each distilling main arm on 2 seeds per value and picks the best mean; controls take their arm's", async () => {
    // Seed 1000 prefers 0.3, seed 1001 prefers 0.1 by more: the mean picks 0.1.
    const { asked, run } = runner((j) =>
      j.config.lambda === 0.3
        ? j.seed === 1000
          ? 0.5
          : 0.1
        : j.config.lambda === 0.1
          ? j.seed === 1000
            ? 0.3
            : 0.5
          : 0.2,
    );
    const c = await chooseSettings(plan(), makeJob, run, () => {});
    expect(asked.map((j) => `${j.kind} ${j.algo} ${j.seed} ${j.updates} ${j.config.lambda} ${j.config.lr}`)).toEqual(
      [0.03, 0.1, 0.3].flatMap((l) => [1000, 1001].map((s) => `sweep seed-exact ${s} 4 ${l} 0.0005`)),
    );
    expect(c.points.map((p) => [p.value, p.success, p.per_seed, p.grad_norm_ratio])).toEqual([
      [0.03, 0.2, [0.2, 0.2], 0.09],
      [0.1, 0.4, [0.3, 0.5], 0.30000000000000004],
      [0.3, 0.3, [0.5, 0.1], 0.8999999999999999],
    ]);
    const of = (a: Algo) => {
      const s = c.settings.get(a)!;
      return [s.lr, s.lambda, s.how.lambda];
    };
    expect(of('seed-exact')).toEqual([5e-4, 0.1, 'best mean validation-unseen success of 2 seeds per value']);
    expect(of('grpo')).toEqual([5e-4, base.lambda, 'no distillation term']);
    expect(of('seed-exact-crossgame')).toEqual([5e-4, 0.1, "seed-exact's"]);
    expect(of('seed')).toEqual([5e-4, 0.1, "seed-exact's"]);
    expect(of('seed-crossgame')).toEqual([5e-4, 0.1, "seed-exact's"]);
    const text = sweepSection(c, plan(), 2, 1);
    // The OPD share from the mean norms 1 and 0.3: 0.3 / 1.3.
    expect(text).toContain('| seed-exact | lambda | 0.1 | 40.0 | 30.0, 50.0 | 0.30 | 23.1 |');
    expect(text).toContain('The lambda grid spans OPD shares of the gradient from 8.3% to 47.4%.');
    expect(text).toContain("| seed-crossgame | 0.0005 | seed-exact's | 0.1 | seed-exact's | 0 | seed-exact's |");
  });

  it("sweeps the learning rate of every main arm first, then lambda at each arm's chosen rate; controls of seed follow seed", async () => {
    const { asked, run } = runner(
      (j) => (j.config.lr === (isBaseline(j.algo) ? 1e-3 : 3e-4) ? 0.6 : 0.2) + (j.config.lambda === 0.3 ? 0.1 : 0),
    );
    const c = await chooseSettings(
      plan({
        algos: ['grpo', 'seed'],
        controls: ['seed-crossgame', 'seed-annotator'],
        ablations: ['opid'],
        lrs: [3e-4, 1e-3],
        lambdas: [0.1, 0.3],
      }),
      makeJob,
      run,
      () => {},
    );
    expect(
      asked
        .filter((j) => j.config.lambda !== base.lambda || j.config.lr === 3e-4)
        .map((j) => `${j.algo} ${j.config.lr} ${j.config.lambda}`),
    ).toContain('seed 0.0003 0.3');
    expect(asked.slice(0, 8).every((j) => j.config.lambda === base.lambda)).toBe(true);
    expect(asked.slice(8).map((j) => `${j.algo} ${j.config.lr} ${j.config.lambda}`)).toEqual([
      'seed 0.0003 0.1',
      'seed 0.0003 0.1',
      'seed 0.0003 0.3',
      'seed 0.0003 0.3',
    ]);
    expect(c.settings.get('grpo')!.lr).toBe(1e-3);
    expect([c.settings.get('seed')!.lr, c.settings.get('seed')!.lambda]).toEqual([3e-4, 0.3]);
    for (const a of ['seed-crossgame', 'seed-annotator', 'opid'] as const) expect(c.settings.get(a)!.lr).toBe(3e-4);
    expect(c.settings.get('seed-annotator')!.lambda).toBe(0.3);
    expect(c.settings.get('opid')!.how.lambda).toBe('no distillation term');
  });

  it('sweeps each distilling arm over its own grid by OPD share, and says so; one share is no sweep', async () => {
    const { asked, run } = runner((j) => (j.config.lambda === 0.2 || j.config.lambda === 0.03 ? 0.6 : 0.3));
    const byShare = plan({
      algos: ['grpo', 'seed', 'seed-exact'],
      controls: ['seed-crossgame'],
      lambdas: [],
      opdShares: [0.1, 0.3],
      lambdaGrids: { seed: [0.2, 0.5], 'seed-exact': [0.03, 0.1] },
    });
    const log: string[] = [];
    const c = await chooseSettings(byShare, makeJob, run, (s) => log.push(s));
    expect(asked.map((j) => `${j.algo} ${j.seed} ${j.config.lambda}`)).toEqual([
      ...[0.2, 0.5].flatMap((l) => [1000, 1001].map((s) => `seed ${s} ${l}`)),
      ...[0.03, 0.1].flatMap((l) => [1000, 1001].map((s) => `seed-exact ${s} ${l}`)),
    ]);
    expect(log[0]).toBe(
      'lambda sweep: seed 0.2, 0.5; seed-exact 0.03, 0.1, 2 seeds x 4 updates each, scored on the validation-unseen games',
    );
    expect([c.settings.get('seed')!.lambda, c.settings.get('seed-exact')!.lambda]).toEqual([0.2, 0.03]);
    expect(c.settings.get('seed-crossgame')!.lambda).toBe(0.2);
    expect(sweepSection(c, byShare, 0, 1)).toContain(
      "Each distilling arm's lambdas were set for OPD shares of the gradient of 10.0%, 30.0% by the household's measured OPD / GRPO norm ratio per lambda (bench/notes/opd_share.md): seed 0.2, 0.5; seed-exact 0.03, 0.1.",
    );
    const one = runner(() => 0.5);
    const single = await chooseSettings(
      plan({ lambdas: [], opdShares: [0.2], lambdaGrids: { 'seed-exact': [0.08] } }),
      makeJob,
      one.run,
      () => {},
    );
    expect(one.asked).toEqual([]);
    expect(single.settings.get('seed-exact')).toMatchObject({
      lambda: 0.08,
      how: { lambda: 'the one OPD share given' },
    });
  });

  it('runs no sweep for one value of each, and lists failed sweep runs, stopping only when an arm has none left', async () => {
    const none = runner(() => 0.5);
    const c = await chooseSettings(plan({ lambdas: [0.2] }), makeJob, none.run, () => {});
    expect(none.asked).toEqual([]);
    expect(c.settings.get('seed-exact')).toMatchObject({ lambda: 0.2, how: { lambda: 'the one value given' } });
    expect(sweepSection(c, plan({ lambdas: [0.2] }), 0, 1)).toContain(
      'No sweep: one learning rate, one lambda and one rehearsal weight were given.',
    );
    const some = runner(
      (j) => j.config.lambda,
      (j) => j.config.lambda === 0.3 && j.seed === 1000,
    );
    const partial = await chooseSettings(plan(), makeJob, some.run, () => {});
    expect(partial.failed).toMatchObject([
      { kind: 'sweep', algo: 'seed-exact', seed: 1000, lambda: 0.3, error: 'exited with code 1' },
    ]);
    expect(partial.settings.get('seed-exact')!.lambda).toBe(0.3);
    const all = runner(
      () => 0.5,
      () => true,
    );
    await expect(chooseSettings(plan(), makeJob, all.run, () => {})).rejects.toThrow(CliError);
  });

  it("sweeps opid's weight like a lambda, at the learning rate opid runs at, as an ablation or a main arm", async () => {
    const score = (j: Job) => (usesOpidWeight(j.algo) ? (j.config.opidWeight === 0.1 ? 0.6 : 0.3) : j.config.lambda);
    const asAblation = runner(score);
    const c = await chooseSettings(
      plan({
        algos: ['grpo', 'seed'],
        controls: [],
        ablations: ['opid'],
        lrs: [3e-4, 1e-3],
        lambdas: [0.1],
        opidWeights: [0.01, 0.1, 1],
      }),
      makeJob,
      asAblation.run,
      () => {},
    );
    const opidRuns = asAblation.asked.filter((j) => usesOpidWeight(j.algo));
    expect(opidRuns.map((j) => `${j.kind} ${j.seed} ${j.config.opidWeight} ${j.config.lr}`)).toEqual(
      [0.01, 0.1, 1].flatMap((w) => [1000, 1001].map((s) => `sweep ${s} ${w} ${c.settings.get('seed')!.lr}`)),
    );
    expect(c.settings.get('opid')).toMatchObject({
      opidWeight: 0.1,
      how: { opidWeight: 'best mean validation-unseen success of 2 seeds per value', lambda: 'no distillation term' },
    });
    expect(c.settings.get('seed')!.how.opidWeight).toBe('no OPID term');
    expect(c.points.filter((p) => p.param === 'opidWeight').map((p) => [p.value, p.success])).toEqual([
      [0.01, 0.3],
      [0.1, 0.6],
      [1, 0.3],
    ]);
    const text = sweepSection(c, plan({ ablations: ['opid'] }), 2, 1);
    expect(text).toContain('| opid | opidWeight | 0.1 | 60.0 | 60.0, 60.0 |');
    expect(text).toMatch(/\| opid \| [0-9.e-]+ \| seed's \| opid weight 0.1 \| best mean validation-unseen success/);

    const asMain = runner(score);
    const m = await chooseSettings(
      plan({ algos: ['grpo', 'opid'], controls: [], opidWeights: [0.01, 1] }),
      makeJob,
      asMain.run,
      () => {},
    );
    expect(asMain.asked.map((j) => `${j.algo} ${j.config.opidWeight}`)).toEqual([
      'opid 0.01',
      'opid 0.01',
      'opid 1',
      'opid 1',
    ]);
    expect(m.settings.get('opid')!.opidWeight).toBe(0.01);
    const one = runner(score);
    const given = await chooseSettings(
      plan({ algos: ['grpo', 'opid'], controls: [], opidWeights: [0.2] }),
      makeJob,
      one.run,
      () => {},
    );
    expect(one.asked).toEqual([]);
    expect(given.settings.get('opid')).toMatchObject({ opidWeight: 0.2, how: { opidWeight: 'the one value given' } });
  });

  it("sweeps each main arm's rehearsal weight last, at its chosen rate and lambda; controls and ablations take their arm's", async () => {
    // grpo does best without rehearsal, seed-exact with weight 1; the rate and lambda are chosen at no rehearsal.
    const { asked, run } = runner(
      (j) =>
        (isBaseline(j.algo) ? (j.config.rehearsal === 0 ? 0.5 : 0.2) : j.config.rehearsal === 1 ? 0.6 : 0.3) +
        (j.config.lr === 1e-3 ? 0.1 : 0) +
        (j.config.lambda === 0.3 ? 0.05 : 0),
    );
    const logged: string[] = [];
    const p = plan({
      algos: ['grpo', 'seed-exact'],
      controls: ['seed-exact-crossgame'],
      ablations: ['opid'],
      lrs: [5e-4, 1e-3],
      lambdas: [0.1, 0.3],
      opidWeights: [0.01, 0.1],
      rehearsals: [0, 0.3, 1],
    });
    const c = await chooseSettings(p, makeJob, run, (l) => logged.push(l));
    // The lr sweep (8 runs) and the lambda sweep (4) run at no rehearsal; then 3 weights x 2 seeds per main arm.
    expect(asked.slice(0, 12).every((j) => j.config.rehearsal === 0)).toBe(true);
    expect(
      asked.slice(12, 24).map((j) => `${j.algo} ${j.seed} ${j.config.rehearsal} ${j.config.lr} ${j.config.lambda}`),
    ).toEqual([
      ...[0, 0.3, 1].flatMap((w) => [1000, 1001].map((s) => `grpo ${s} ${w} 0.001 ${base.lambda}`)),
      ...[0, 0.3, 1].flatMap((w) => [1000, 1001].map((s) => `seed-exact ${s} ${w} 0.001 0.3`)),
    ]);
    expect(logged).toContain(
      'rehearsal sweep: 0, 0.3, 1 x grpo, seed-exact, 2 seeds x 4 updates each, scored on the validation-unseen games',
    );
    const sweepHow = 'best mean validation-unseen success of 2 seeds per value';
    expect(c.settings.get('grpo')).toMatchObject({ lr: 1e-3, rehearsal: 0, how: { rehearsal: sweepHow } });
    expect(c.settings.get('seed-exact')).toMatchObject({
      lr: 1e-3,
      lambda: 0.3,
      rehearsal: 1,
      how: { rehearsal: sweepHow },
    });
    expect(c.settings.get('seed-exact-crossgame')).toMatchObject({ rehearsal: 1, how: { rehearsal: "seed-exact's" } });
    // opid varies seed, no main arm here: it takes seed-exact's settings, and its weight is swept at them.
    expect(c.settings.get('opid')).toMatchObject({ rehearsal: 1, how: { rehearsal: "seed-exact's" } });
    expect(asked.slice(24).map((j) => `${j.algo} ${j.config.opidWeight} ${j.config.lr} ${j.config.rehearsal}`)).toEqual(
      [0.01, 0.1].flatMap((w) => [`opid ${w} 0.001 1`, `opid ${w} 0.001 1`]),
    );
    expect(c.points.filter((p) => p.param === 'rehearsal').map((p) => [p.algo, p.value, p.success.toFixed(2)])).toEqual(
      [
        ['grpo', 0, '0.60'],
        ['grpo', 0.3, '0.30'],
        ['grpo', 1, '0.30'],
        ['seed-exact', 0, '0.45'],
        ['seed-exact', 0.3, '0.45'],
        ['seed-exact', 1, '0.75'],
      ],
    );
    const text = sweepSection(c, p, 2, 1);
    expect(text).toContain('| seed-exact | rehearsal | 1 | 75.0 | 75.0, 75.0 |');
    expect(text).toContain(
      "The rehearsal weights were swept after the rates and lambdas, at each arm's chosen ones, which were chosen at rehearsal 0.",
    );
    expect(text).toContain(`| seed-exact-crossgame | 0.001 | seed-exact's | 0.3 | seed-exact's | 1 | seed-exact's |`);

    // One weight: every arm's, no sweep.
    const one = runner(() => 0.5);
    const given = await chooseSettings(
      plan({ lambdas: [0.1], rehearsals: [0.5], ablations: ['seed-nogate'] }),
      makeJob,
      one.run,
      () => {},
    );
    expect(one.asked).toEqual([]);
    for (const a of ['grpo', 'seed-exact', 'seed-exact-crossgame', 'seed-nogate'] as const)
      expect(given.settings.get(a)!.rehearsal).toBe(0.5);
    expect(given.settings.get('grpo')!.how.rehearsal).toBe('the one value given');
  });

  it("grows an arm's grid past the edge that holds its best value, each arm on its own, until the best is inside", async () => {
    // grpo's validation success rises with the rate up to 3.33e-3 and falls past it; seed-exact's peaks at 3e-4.
    const { asked, run } = runner((j) =>
      isBaseline(j.algo) ? (j.config.lr <= 3.4e-3 ? j.config.lr * 100 : 0.1) : j.config.lr === 3e-4 ? 0.5 : 0.2,
    );
    const logged: string[] = [];
    const c = await chooseSettings(plan({ lrs: [3e-4, 1e-3], lambdas: [0.1], extend: 3 }), makeJob, run, (line) =>
      logged.push(line),
    );
    // seed-exact's best, 3e-4, is the low edge: one step down (9e-5) loses, so 3e-4 is inside its grid.
    expect(asked.slice(8).map((j) => `${j.algo} ${j.config.lr}`)).toEqual([
      'grpo 0.00333',
      'grpo 0.00333',
      'seed-exact 0.00009',
      'seed-exact 0.00009',
      'grpo 0.0111',
      'grpo 0.0111',
    ]);
    expect(c.settings.get('grpo')!.lr).toBe(0.00333);
    expect(c.settings.get('seed-exact')!.lr).toBe(3e-4);
    expect(c.edges).toEqual([]);
    expect(c.points.filter((p) => isBaseline(p.algo)).map((p) => p.value)).toEqual([3e-4, 1e-3, 0.00333, 0.0111]);
    expect(logged.some((l) => l.includes('one step past it: grpo 0.00333, seed-exact 0.00009'))).toBe(true);
    const text = sweepSection(c, plan({ lrs: [3e-4, 1e-3], lambdas: [0.1], extend: 3 }), 2, 1);
    expect(text).toContain('| grpo | lr | 0.0111 | 10.0 | 10.0, 10.0 |');
    expect(text).toContain('at most 3 times');

    // Out of steps: the best still at the edge is named in the report.
    const rising = runner((j) => j.config.lr);
    const capped = await chooseSettings(
      plan({ algos: ['grpo'], lrs: [1e-4, 2e-4], lambdas: [0.1], extend: 1 }),
      makeJob,
      rising.run,
      () => {},
    );
    expect(capped.settings.get('grpo')!.lr).toBe(4e-4);
    expect(capped.edges).toEqual([{ param: 'lr', algo: 'grpo', value: 4e-4 }]);
    expect(sweepSection(capped, plan({ algos: ['grpo'], lrs: [1e-4, 2e-4], extend: 1 }), 2, 1)).toContain(
      "Still at an edge of its grid when it stopped growing (the best may lie beyond): grpo's lr 0.0004.",
    );
  });

  it("--pick-best: only the distilling arm best on validation runs, and the dropped arm's controls run as its", async () => {
    // seed-exact peaks at lambda 0.1 with 0.4, seed at 0.3 with 0.5: seed is the better arm at its chosen lambda.
    const { run } = runner((j) =>
      isExactAlgo(j.algo) ? (j.config.lambda === 0.1 ? 0.4 : 0.2) : j.config.lambda === 0.3 ? 0.5 : 0.1,
    );
    const logged: string[] = [];
    const p = plan({
      algos: ['grpo', 'seed', 'seed-exact'],
      controls: ['seed-exact-procedure', 'seed-crossgame', 'seed-exact-frozen'],
      lambdas: [0.1, 0.3, 1],
      pickBest: true,
    });
    const c = await chooseSettings(p, makeJob, run, (l) => logged.push(l));
    expect(c.algos).toEqual(['grpo', 'seed']);
    expect(c.controls).toEqual(['seed-procedure', 'seed-crossgame', 'seed-frozen']);
    expect(c.picked).toEqual({ best: 'seed', dropped: ['seed-exact'], success: { seed: 0.5, 'seed-exact': 0.4 } });
    expect([...c.settings.keys()].sort()).toEqual(['grpo', 'seed', 'seed-crossgame', 'seed-frozen', 'seed-procedure']);
    expect(c.settings.get('seed-procedure')).toMatchObject({ lambda: 0.3, how: { lambda: "seed's" } });
    expect(logged).toContain('best distilling arm on validation-unseen: seed; seed-exact runs no more');
    expect(sweepSection(c, p, 2, 1)).toContain(
      'The distilling arm that ran: seed, best on validation-unseen at its chosen settings (seed 50.0%, seed-exact 40.0%)',
    );
    await expect(chooseSettings(plan({ pickBest: true }), makeJob, run, () => {})).rejects.toThrow(
      /needs two distilling main arms/,
    );
  });
});
