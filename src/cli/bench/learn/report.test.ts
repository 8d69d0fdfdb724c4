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
    valid_skill_rate: null, skill_fidelity: null, mean_delta: null, mean_gate: null, skipped_updates: 0,
  };
}

function outcome(commit: LearnOutcome['commit']): LearnOutcome {
  return {
    command: 'npm run seed -- bench learn --init bench/runs/primed/warmstart.ckpt',
    commit,
    init: 'bench/runs/primed/warmstart.ckpt',
    base: defaultConfig('tiny'),
    algos: ['grpo', 'seed'],
    ablations: [],
    seeds: 1,
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
});
