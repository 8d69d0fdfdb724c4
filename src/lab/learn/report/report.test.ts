import { describe, expect, it } from 'vitest';
import type { Algo } from '../../../rl/arms.ts';
import type { JobResult } from '../jobs/job.ts';
import { fakeOutcome, fakeResult, givenSettings, metricMeans } from '../learn_testing.ts';
import { renderLearn, type LearnOutcome } from './report.ts';
import type { TeacherRow } from '../stats/diagnostics.ts';
import { isBaseline, ARMS } from '../../../rl/arms.ts';

function result(algo: Algo, seed: number, won: number[]): JobResult {
  return fakeResult(algo, seed, won, {
    corr_delta_advantage: isBaseline(algo) ? null : 0.125,
    crossgame: ARMS[algo].part === 'crossgame' ? { update: 3, pool: 1, none: 0 } : null,
  });
}

const GAMES = [
  { layout: 'kitchen/train/0', type: 'pick_and_place_simple' },
  { layout: 'kitchen/train/0', type: 'pick_and_place_simple' },
  { layout: 'bathroom/train/3', type: 'pick_and_place_simple' },
  { layout: 'kitchen/train/5', type: 'pick_and_place_simple' },
];

function outcome(commit: LearnOutcome['commit']): LearnOutcome {
  return fakeOutcome([result('grpo', 1, [1, 0, 0.5, 0.5]), result('seed', 1, [1, 0.5, 0.5, 0.5])], GAMES, {
    commit,
    warm: result('grpo', 0, [0.5, 0, 0, 0.5]),
  });
}

describe('bench learn report', () => {
  it('names the commit it was produced from, dirty or not, in the page and the JSON', () => {
    const dirty = renderLearn(outcome({ hash: 'abc1234', dirty: true }));
    expect(dirty.markdown).toContain('Commit: abc1234 (dirty: the tree had uncommitted changes); configuration hash');
    expect(dirty.json).toMatchObject({ commit: 'abc1234-dirty' });
    const clean = renderLearn(outcome({ hash: 'abc1234', dirty: false }));
    expect(clean.markdown).toContain('Commit: abc1234; configuration hash');
    expect(clean.json).toMatchObject({ commit: 'abc1234' });
  });

  it("says which controls led grpo and ran the main arms' seeds, in the page and the JSON; nothing when none did", () => {
    const promoted = [{ algo: 'seed-crossgame' as const, lead: 0.05, seeds: [1] }];
    const r = renderLearn({ ...outcome(null), promoted });
    expect(r.markdown).toContain('seed-crossgame led grpo on eval-unseen over seeds 1 (+5.0 points');
    expect(r.json).toMatchObject({ promoted });
    const none = renderLearn({ ...outcome(null), promoted: [] });
    expect(none.markdown).not.toContain(' led grpo ');
    expect(none.json).not.toHaveProperty('promoted');
  });

  it('keeps its figures: the main table, the won digits per game, the curve beside the page', () => {
    const r = renderLearn(outcome(null));
    expect(r.markdown).toContain('Every run starts from the same warm start (bench/runs/primed/warmstart.ckpt)');
    expect(r.table.split('\n')).toHaveLength(5);
    // Area under the curve: per game (0.25 + its final outcome) / 2, a trapezoid from the warm start to the end.
    expect(r.table).toMatch(/\| seed \| 1 \| 0\.0005 \| 0\.1 \| 0 \| 62\.5 \[[^\]]*\] \| 62\.5 \[[^\]]*\] \| 43\.8 \[/);
    expect(r.table).toContain('| grpo | 1 | 0.0005 | - | 0 |');
    expect(r.json).toMatchObject({
      warmstart: { won_seen: '1001' },
      runs: [{ won_unseen: '2011' }, { won_unseen: '2111' }],
    });
    expect(r.markdown).toContain('![learning curves](learn_curve.svg)');
    expect(r.svg.startsWith('<svg')).toBe(true);
  });

  it('states its wall time, commit and command, and lists failed runs and refused updates', () => {
    const o = outcome({ hash: 'abc1234', dirty: false });
    const refused = { ...result('seed', 2, [1, 0, 0, 0]), skipped_updates: 2 };
    const r = renderLearn({
      ...o,
      runs: [...o.runs, refused],
      failed: [
        {
          kind: 'run',
          algo: 'grpo',
          seed: 2,
          lr: 5e-4,
          lambda: 0.1,
          rehearsal: 0,
          trainGames: 0,
          error: 'a benchmark run (grpo seed 2) exited with code 1',
        },
      ],
    });
    expect(r.markdown).toContain('Command: `npm run seed -- bench learn --init bench/runs/primed/warmstart.ckpt`');
    expect(r.markdown).toContain('wall time 1.5 min');
    expect(r.markdown).toContain(
      '- grpo seed 2 (lr 0.0005): failed, no result: a benchmark run (grpo seed 2) exited with code 1',
    );
    expect(r.markdown).toContain('- seed seed 2: 2 of 2 updates refused for a non-finite loss or gradient');
    // A result file's error is the job's own text: a line break or a terminal escape in it stays escaped on its line.
    const spoofed = renderLearn({
      ...o,
      failed: [
        {
          kind: 'run',
          algo: 'grpo',
          seed: 3,
          lr: 5e-4,
          lambda: 0.1,
          rehearsal: 0,
          trainGames: 0,
          error: 'oom\n# Headline\u001b[2J',
        },
      ],
    }).markdown;
    expect(spoofed).toContain('- grpo seed 3 (lr 0.0005): failed, no result: oom\\n# Headline\\u001b[2J\n');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: it looks for the terminal escape
    expect(spoofed).not.toMatch(/\u001b|^# Headline/m);
    expect(r.json).toMatchObject({ failed: [{ algo: 'grpo', seed: 2 }], wall_s: 90, commit: 'abc1234' });
    expect(renderLearn(o).markdown).toContain('None: every run finished, and no update was refused.');
  });

  it('lists the eval games in the order of the won digits, and corr(Delta, advantage) per arm', () => {
    const r = renderLearn(outcome(null));
    const json = r.json as {
      eval_games: { seen: unknown[]; unseen: unknown[] };
      warmstart: { won_seen: string };
      corr_delta_advantage: object;
    };
    expect(json.eval_games).toEqual({ seen: GAMES, unseen: GAMES });
    expect(json.eval_games.seen).toHaveLength(json.warmstart.won_seen.length);
    expect(json.corr_delta_advantage).toEqual({ grpo: null, seed: 0.125 });
    expect(r.markdown).toContain('4 games) sets, 3 and 3 room layouts');
  });

  it('pairs every arm with grpo and the warm start, and seed with every control, by the seeds both ran', () => {
    const o = outcome(null);
    const r = renderLearn({
      ...o,
      controls: ['seed-crossgame'],
      controlSeeds: 1,
      settings: givenSettings(['grpo', 'seed', 'seed-crossgame']),
      runs: [
        ...o.runs,
        result('grpo', 2, [1, 0, 0, 0]),
        result('seed', 2, [1, 1, 0, 0]),
        result('seed-crossgame', 1, [1, 0, 0.5, 0]),
      ],
    });
    const diffs = (r.json as { differences: { a: string; b: string; seeds: number[]; unseen: { value: number } }[] })
      .differences;
    expect(diffs.map((d) => `${d.a} - ${d.b}: ${d.seeds.join(',')}`)).toEqual([
      'seed - grpo: 1,2',
      'seed-crossgame - grpo: 1',
      'grpo - warm start: 1,2',
      'seed - warm start: 1,2',
      'seed-crossgame - warm start: 1',
      'seed - seed-crossgame: 1',
    ]);
    // seed 1 - seed-crossgame 1 over the four games: (0 + 0.5 + 0 + 0.5) / 4.
    expect(diffs[5].unseen.value).toBe(0.25);
    expect(r.markdown).toContain('| seed - seed-crossgame | 1 | +25.0 [');
    expect(r.markdown).toContain(
      "The cross-game controls' skills came from another group of the same update for 75.0% of its trajectories, from the pool of earlier updates' skills for 25.0%",
    );
  });

  it('shows the means of the update metrics per arm, over the runs that have them, in the diagnostics and the JSON', () => {
    const o = outcome(null);
    const means = (ratio: number | null, grpo: number | null = 2) => ({
      metric_means: metricMeans({
        gradNormGrpo: grpo,
        gradNormOpd: ratio === null ? null : 2 * ratio,
        gradNormRatio: ratio,
        opdDeltaShare: ratio === null ? null : ratio / 2,
        meanDivergence: 0.05,
      }),
    });
    const r = renderLearn({
      ...o,
      seeds: 2,
      runs: [
        o.runs[0],
        fakeResult('seed', 1, [1, 0.5, 0.5, 0.5], means(0.2)),
        fakeResult('seed', 2, [1, 0, 0, 0], means(0.6, 4)),
        fakeResult('seed', 3, [1, 0, 0, 0], means(null)),
      ],
    });
    expect(r.markdown).toContain(
      '| algorithm | valid skills % | skill fidelity | mean Delta / gate | corr(Delta, A) | OPD share of the gradient % | GRPO gradient norm | OPD gradient norm | OPD / GRPO norm | Delta-dependent share of the OPD coefficient | divergence to the teacher | corr(Delta, expert token) | corr(Delta, A) won | corr(Delta, A) lost | mean abs Delta | forced share of OPD tokens | groups with equal rewards | KL to the teacher on validation |',
    );
    // The OPD share from the mean norms of the two seeds that measured both, 3 and 0.8: 0.8 / 3.8, neither the mean
    // of their shares (0.4 / 2.4 and 1.2 / 5.2: 19.9%) nor a share of the GRPO mean over all three seeds (23.1%).
    expect(r.markdown).toContain(
      '| seed | n/a | n/a | n/a | n/a | 21.1 | 2.67 | 0.8 | 0.4 | 0.2 | 0.05 | n/a | n/a | n/a | n/a | n/a | n/a | n/a |',
    );
    expect(r.markdown).toContain('| grpo | n/a | n/a | n/a | n/a | n/a | n/a | n/a | n/a | n/a | n/a |');
    const json = r.json as {
      diagnostics: Record<string, Record<string, number | null>>;
      runs: { metric_means: object }[];
    };
    expect(json.diagnostics.seed.gradNormRatio).toBeCloseTo(0.4, 12);
    expect(json.diagnostics.seed.opdShare).toBeCloseTo(0.8 / 3.8, 12);
    expect(json.diagnostics.seed.opdDeltaShare).toBeCloseTo(0.2, 12);
    expect(json.diagnostics.grpo.gradNormRatio).toBeNull();
    expect(json.diagnostics.grpo.opdShare).toBeNull();
    expect(json.runs[1].metric_means).toEqual(means(0.2).metric_means);
  });

  it('tables the teacher checks per arm and update: means over the seeds that checked there, the gain taken apart and the KL', () => {
    const o = outcome(null);
    const a = fakeResult('seed', 1, [1, 0, 1, 0], {
      teacher: [
        [0, 0.25, 0.5, 0.5, 0.25],
        [24, 0.5, 0.5, 0.25, 0.625],
      ],
      teacher_kl: [
        [0, 0.2],
        [24, null],
      ],
    });
    const b = fakeResult('seed', 2, [1, 0, 1, 0], { teacher: [[0, 0.75, 1, 0.5, 0.75]], teacher_kl: [[0, 0.4]] });
    const r = renderLearn({ ...o, runs: [fakeResult('grpo', 1, [1, 0, 1, 0]), a, b] });
    // Block effect (other - none) per seed +25 and -25, content effect (own - other) 0 and +50: their means with
    // intervals over the two seeds; one seed's interval is its value.
    expect(r.markdown).toContain(
      '| seed | 0 | 2 | 50.0 | 75.0 | 50.0 | 50.0 | +25.0 | +0.0 [-25.0, +25.0] | +25.0 [+0.0, +50.0] | 0.3 |',
    );
    expect(r.markdown).toContain(
      '| seed | 24 | 1 | 50.0 | 50.0 | 25.0 | 62.5 | +0.0 | -25.0 [-25.0, -25.0] | +25.0 [+25.0, +25.0] | n/a |',
    );
    expect(r.markdown).toContain('seed after update 24: block -25.0 [-25.0, -25.0], content +25.0 [+25.0, +25.0]');
    const json = (r.json as { teacher_checks: Record<string, TeacherRow[]> }).teacher_checks.seed;
    expect(json.map((c) => [c.update, c.blank_skill, c.block.value, c.content.value])).toEqual([
      [0, 0.5, 0, 0.25],
      [24, 0.625, -0.25, 0.25],
    ]);
  });

  it('pairs the area under the curve by seed like final success, from per-game outcomes at every point', () => {
    const o = outcome(null);
    // Both arms start at the warm start; seed ends 0.25 higher on every game than grpo: half of that over the run.
    const grpo = fakeResult('grpo', 1, [0.5, 0, 0.5, 0.25]);
    const seed = fakeResult('seed', 1, [0.75, 0.25, 0.75, 0.5]);
    const r = renderLearn({ ...o, runs: [grpo, seed] });
    const diff = r.differences.find((d) => d.label === 'seed - grpo')!;
    expect(diff.unseen).toMatchObject({ value: 0.25, ci: [0.25, 0.25] });
    expect(diff.auc).toMatchObject({ value: 0.125, ci: [0.125, 0.125] });
    expect(r.markdown).toContain(
      '| seed - grpo | 1 | +25.0 [+25.0, +25.0] | +25.0 [+25.0, +25.0] | +12.5 [+12.5, +12.5] |',
    );
    const json = r.json as {
      runs: { auc_unseen: number; curve_won_unseen: string[] }[];
      differences: { auc: { value: number } }[];
    };
    expect(json.runs[1].auc_unseen).toBeCloseTo((0.25 + 0.5625) / 2, 12);
    // Digits per point: the warm start's and the final point at 2 samples per game.
    expect(json.runs[1].curve_won_unseen).toEqual(['1111', '2121']);
    expect(json.differences[0].auc.value).toBe(0.125);
    // Over seeds alone: one seed, ahead on every measure.
    expect(diff.seedOnly.auc).toMatchObject({ value: 0.125, ci: [0.125, 0.125], ahead: 1 });
    expect(r.markdown).toContain(
      '| seed - grpo | +25.0 [+25.0, +25.0], 1 of 1 ahead | +25.0 [+25.0, +25.0], 1 of 1 ahead | +12.5 [+12.5, +12.5], 1 of 1 ahead |',
    );
    expect((json.differences[0] as unknown as { seed_only: unknown }).seed_only).toMatchObject({
      unseen: { ci: [0.25, 0.25], ahead: 1 },
    });
  });

  it('compares each distilling arm with its cross-game control and names the best on validation in the headline', () => {
    const arms = ['grpo', 'seed-exact', 'seed', 'seed-exact-crossgame', 'seed-crossgame'] as const;
    const runs = [1, 2].flatMap((s) => [
      fakeResult('grpo', s, [0.5, 0, 0.5, 0.5]),
      fakeResult('seed-exact', s, [1, 0.5, 1, 1]),
      fakeResult('seed', s, [0.5, 0, 0.5, 0.5]),
      fakeResult('seed-exact-crossgame', s, [0.5, 0.5, 0.5, 0.5]),
      fakeResult('seed-crossgame', s, [0.5, 0, 0.5, 0]),
    ]);
    const point = (value: number, success: number) => ({
      param: 'lambda' as const,
      algo: 'seed-exact' as const,
      value,
      seeds: [1000, 1001],
      per_seed: [success, success],
      success,
      grad_norm_ratio: 3 * value,
      opd_share: (3 * value) / (1 + 3 * value),
    });
    const r = renderLearn({
      ...outcome(null),
      algos: ['grpo', 'seed-exact'],
      controls: ['seed', 'seed-exact-crossgame', 'seed-crossgame'],
      seeds: 2,
      controlSeeds: 2,
      runs,
      settings: givenSettings([...arms]),
      points: [point(0.03, 0.2), point(0.1, 0.325), point(0.3, 0.25)],
    });
    expect(r.differences.map((d) => d.label).filter((l) => !l.endsWith('warm start'))).toEqual([
      'seed-exact - grpo',
      'seed - grpo',
      'seed-exact-crossgame - grpo',
      'seed-crossgame - grpo',
      'seed-exact - seed-exact-crossgame',
      'seed - seed-crossgame',
      'seed-exact - seed',
    ]);
    expect(r.headline).toBe(
      'Best distilling arm: seed-exact (lambda 0.1, lr 0.0005, rehearsal 0), 32.5% on the validation-unseen games at its chosen lambda. On eval-unseen, paired by seed: ' +
        'Against GRPO (seed-exact - grpo): final success +50.0 [+50.0, +50.0] points, ahead (95% interval above zero); area under the curve +25.0 [+25.0, +25.0], ahead (95% interval above zero). ' +
        'Against its cross-game control (seed-exact - seed-exact-crossgame): final success +37.5 [+25.0, +50.0] points, ahead (95% interval above zero); area under the curve +18.8 [+12.5, +25.0], ahead (95% interval above zero).',
    );
    expect(r.markdown).toContain(r.headline);
    expect(r.markdown).toContain('| seed-exact | lambda | 0.1 | 32.5 | 32.5, 32.5 | 0.30 | 23.1 |');
    expect(r.markdown).toContain('The lambda grid spans OPD shares of the gradient from 8.3% to 47.4%.');
    expect(r.efficiency).toMatch(/^seed-exact reaches GRPO's final eval-unseen success/);
  });

  it('says when the best arm is behind or not separable, and when a --full run went past the budget', () => {
    const o = outcome(null);
    const behind = renderLearn({
      ...o,
      runs: [fakeResult('grpo', 1, [1, 1, 1, 1]), fakeResult('seed', 1, [0, 0, 0, 0])],
    });
    expect(behind.headline).toContain(
      'Best distilling arm: seed (lambda 0.1, lr 0.0005, rehearsal 0), the only distilling main arm.',
    );
    expect(behind.headline).toContain('final success -100.0 [-100.0, -100.0] points, behind (95% interval below zero)');
    expect(behind.headline).toContain('No seed-crossgame runs: no difference to its cross-game control.');
    const mixed = renderLearn({
      ...o,
      seeds: 2,
      runs: [
        fakeResult('grpo', 1, [1, 0, 1, 0]),
        fakeResult('grpo', 2, [0, 0, 0, 0]),
        fakeResult('seed', 1, [0, 0, 1, 0]),
        fakeResult('seed', 2, [1, 0, 0, 0]),
      ],
    });
    expect(mixed.headline).toContain('final success +0.0 [');
    expect(mixed.headline).toContain('not separable (95% interval includes zero)');
    const full = renderLearn({ ...o, full: true, seeds: 10, controlSeeds: 3 });
    expect(full.markdown).toContain(
      "A --full run: 10 seeds per main arm and 3 per control, longer than the default's budget of 90 minutes on 2 cores.",
    );
    expect(renderLearn(o).markdown).not.toContain('--full');
  });
});
