import { describe, expect, it } from 'vitest';
import { defaultConfig, type Algo } from '../../../rl/config.ts';
import type { JobResult } from './job.ts';
import { renderLearn, type LearnOutcome } from './report.ts';

function result(algo: Algo, seed: number, won: number[]): JobResult {
  const success = won.reduce((a, b) => a + b, 0) / won.length;
  return {
    algo, seed, lr: 5e-4, success_seen: success, success_unseen: success, success_validation: null,
    per_type: { seen: { pick_and_place_simple: success }, unseen: { pick_and_place_simple: success } },
    curve: [[0, 0.25], [64, success]], wall_s: 12.3, won_seen: won, won_unseen: won,
    valid_skill_rate: null, skill_fidelity: null, mean_delta: null, mean_gate: null, corr_delta_advantage: algo === 'grpo' ? null : 0.125,
    crossgame: algo === 'seed-crossgame' ? { update: 3, pool: 1, none: 0 } : null, skipped_updates: 0,
    corr_delta_expert: algo === 'grpo' ? null : 0.25, corr_delta_advantage_won: null, corr_delta_advantage_lost: null, mean_abs_delta: null, forced_share: null,
    zero_variance_groups: 0.5, teacher: algo === 'grpo' ? [] : [[1, 0.25, 0.5, 0.375], [2, 0.25, 0.375, 0.25]],
  };
}

const GAMES = [
  { layout: 'kitchen/train/0', type: 'pick_and_place_simple' },
  { layout: 'kitchen/train/0', type: 'pick_and_place_simple' },
  { layout: 'bathroom/train/3', type: 'pick_and_place_simple' },
  { layout: 'kitchen/train/5', type: 'pick_and_place_simple' },
];

function outcome(commit: LearnOutcome['commit']): LearnOutcome {
  return {
    command: 'npm run seed -- bench learn --init bench/runs/primed/warmstart.ckpt',
    commit,
    init: 'bench/runs/primed/warmstart.ckpt',
    base: defaultConfig('tiny'),
    algos: ['grpo', 'seed'],
    controls: [],
    ablations: [],
    seeds: 1,
    controlSeeds: 1,
    updates: 2,
    sweepUpdates: 2,
    evalEvery: 1,
    evalEpisodes: 4,
    evalSamples: 2,
    lrs: [5e-4],
    chosen: new Map<Algo, number>([['grpo', 5e-4], ['seed', 5e-4]]),
    sweep: [],
    warm: result('grpo', 0, [0.5, 0, 0, 0.5]),
    runs: [result('grpo', 1, [1, 0, 0.5, 0.5]), result('seed', 1, [1, 0.5, 0.5, 0.5])],
    failed: [],
    evalGames: { seen: GAMES, unseen: GAMES },
    wallSeconds: 90,
    workers: 2,
  };
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

  it('keeps its figures: the main table, the won digits per game, the curve beside the page', () => {
    const r = renderLearn(outcome(null));
    expect(r.markdown).toContain('Every run starts from the same warm start (bench/runs/primed/warmstart.ckpt)');
    expect(r.table.split('\n')).toHaveLength(5);
    expect(r.table).toContain('| seed | 1 | 0.0005 | 62.5 [');
    expect(r.json).toMatchObject({ warmstart: { won_seen: '1001' }, runs: [{ won_unseen: '2011' }, { won_unseen: '2111' }] });
    expect(r.markdown).toContain('![learning curves](learn_curve.svg)');
    expect(r.svg.startsWith('<svg')).toBe(true);
  });

  it('states its wall time, commit and command, and lists failed runs and refused updates', () => {
    const o = outcome({ hash: 'abc1234', dirty: false });
    const refused = { ...result('seed', 2, [1, 0, 0, 0]), skipped_updates: 2 };
    const r = renderLearn({
      ...o,
      runs: [...o.runs, refused],
      failed: [{ kind: 'run', algo: 'grpo', seed: 2, lr: 5e-4, error: 'a benchmark run (grpo seed 2) exited with code 1' }],
    });
    expect(r.markdown).toContain('Command: `npm run seed -- bench learn --init bench/runs/primed/warmstart.ckpt`');
    expect(r.markdown).toContain('wall time 1.5 min');
    expect(r.markdown).toContain('- grpo seed 2 (lr 0.0005): failed, no result: a benchmark run (grpo seed 2) exited with code 1');
    expect(r.markdown).toContain('- seed seed 2: 2 of 2 updates refused for a non-finite loss or gradient');
    expect(r.json).toMatchObject({ failed: [{ algo: 'grpo', seed: 2 }], wall_s: 90, commit: 'abc1234' });
    expect(renderLearn(o).markdown).toContain('None: every run finished, and no update was refused.');
  });

  it('lists the eval games in the order of the won digits, corr(Delta, advantage) and corr(Delta, expert) per arm, and the teacher gap', () => {
    const r = renderLearn(outcome(null));
    const json = r.json as { eval_games: { seen: unknown[]; unseen: unknown[] }; warmstart: { won_seen: string }; corr_delta_advantage: object };
    expect(json.eval_games).toEqual({ seen: GAMES, unseen: GAMES });
    expect(json.eval_games.seen).toHaveLength(json.warmstart.won_seen.length);
    expect(json.corr_delta_advantage).toEqual({ grpo: null, seed: 0.125 });
    expect(r.markdown).toContain("corr(Delta, expert), the same with \"the token is on one of the expert's shortest plans from where the agent stood\"");
    expect(r.markdown).toContain('seed 0.250.');
    // Own minus no skill: 0.25 then 0.125 in every seed.
    expect(r.markdown).toContain('mean over seeds): seed +25.0 points after update 1, +12.5 points after update 2.');
    expect(r.markdown).toContain('4 games) sets, 3 and 3 room layouts');
  });

  it('pairs every arm with grpo and the warm start, and seed with every control, by the seeds both ran', () => {
    const o = outcome(null);
    const r = renderLearn({
      ...o,
      controls: ['seed-crossgame'],
      controlSeeds: 1,
      runs: [...o.runs, result('grpo', 2, [1, 0, 0, 0]), result('seed', 2, [1, 1, 0, 0]), result('seed-crossgame', 1, [1, 0, 0.5, 0])],
    });
    const diffs = (r.json as { differences: { a: string; b: string; seeds: number[]; unseen: { value: number } }[] }).differences;
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
    expect(r.markdown).toContain("seed-crossgame's skills came from another group of the same update for 75.0% of its trajectories, from the pool of earlier updates' skills for 25.0%");
  });
});
