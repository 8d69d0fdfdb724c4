// The mapping of every playground setting and algorithm to the SEED trainer: each setting a row, each algorithm
// in exactly one row, and the transforms as docs/verl.md states them.
import { describe, expect, it } from 'vitest';
import { defaultConfig, PAPER_CONFIG, TRAIN_KEYS, type TrainConfig } from '../config.ts';
import { ALGOS } from '../arms.ts';
import { ALGORITHM_ROWS, engineAlgorithm, engineValues, isCarried, SETTING_ROWS, uncarried } from './mapping.ts';

const value = (v: unknown) =>
  typeof v === 'object' && v !== null && 'float' in v ? (v as { float: number }).float : v;
const valuesOf = (algo: Parameters<typeof engineValues>[0], config: TrainConfig) => {
  const found = engineAlgorithm(algo);
  if (!('engine' in found)) throw new Error(found.none);
  return Object.fromEntries(Object.entries(engineValues(algo, found.engine, config)).map(([k, v]) => [k, value(v)]));
};

describe('the mapping to the SEED trainer', () => {
  it('has a row for every setting, and every carried row sets only its own keys', () => {
    expect(Object.keys(SETTING_ROWS).sort()).toEqual([...TRAIN_KEYS].sort());
    const owner = new Map<string, string>();
    for (const key of TRAIN_KEYS) {
      const row = SETTING_ROWS[key];
      if (!isCarried(row)) {
        expect(row.none.length, key).toBeGreaterThan(20);
        continue;
      }
      for (const k of row.keys) {
        expect(owner.get(k), `${k} of ${key}`).toBeUndefined();
        owner.set(k, key);
      }
      for (const engine of ['grpo', 'seed', 'seed-nogate', 'opid'] as const)
        for (const k of Object.keys(row.values(PAPER_CONFIG, engine))) expect(row.keys, key).toContain(k);
    }
  });

  it('covers every algorithm in exactly one row: grpo, seed, seed-annotator, seed-nogate and opid carried', () => {
    for (const algo of ALGOS) expect(ALGORITHM_ROWS.filter((r) => r.covers(algo)).length, algo).toBe(1);
    const carried = ALGOS.filter((a) => 'engine' in engineAlgorithm(a));
    expect(carried.sort()).toEqual(['grpo', 'opid', 'seed', 'seed-annotator', 'seed-nogate']);
    const refused = engineAlgorithm('seed-exact-crossgame');
    expect('none' in refused && refused.none).toMatch(/^seed-exact-crossgame has no counterpart in the SEED trainer: /);
  });

  it("carries lambda, beta, the group, the batch, the steps, the rate and the KL as the paper's launchers set them", () => {
    const c: TrainConfig = { ...defaultConfig('small'), lambda: 0.03, beta: 4, klCoef: 0.02, evalTemperature: 0 };
    const seed = valuesOf('seed', c);
    expect(seed).toMatchObject({
      'algorithm.adv_estimator': 'seed',
      'algorithm.seed.skill_mode': 'episode_only',
      'algorithm.seed.analysis_backend': 'policy_vllm',
      'actor_rollout_ref.actor.opd_loss_coef': 0.03,
      'actor_rollout_ref.actor.opd_gate_beta': 4,
      'actor_rollout_ref.actor.optim.lr': 1e-6,
      'actor_rollout_ref.actor.use_kl_loss': true,
      'actor_rollout_ref.actor.kl_loss_coef': 0.02,
      'actor_rollout_ref.actor.kl_loss_type': 'low_var_kl',
      'env.rollout.n': 8,
      'data.train_batch_size': 16,
      'env.max_steps': 30,
      'env.history_length': 5,
      'actor_rollout_ref.rollout.val_kwargs.do_sample': false,
      'algorithm.seed.episode_skill_teacher_advantage_w': 0,
    });
    expect(valuesOf('seed', { ...c, klCoef: 0 })['actor_rollout_ref.actor.use_kl_loss']).toBe(false);
    expect(valuesOf('seed-annotator', c)['algorithm.seed.analysis_backend']).toBe('openai');
    expect(valuesOf('seed-nogate', c)).toMatchObject({
      'actor_rollout_ref.actor.opd_loss_coef': 0.06,
      'actor_rollout_ref.actor.opd_gate_beta': 0,
    });
    expect(valuesOf('opid', c)).toMatchObject({
      'actor_rollout_ref.actor.opd_loss_coef': 0,
      'algorithm.seed.episode_skill_teacher_advantage_w': c.opidWeight,
    });
    const grpo = valuesOf('grpo', c);
    expect(grpo).toMatchObject({
      'algorithm.adv_estimator': 'gigpo',
      'algorithm.gigpo.step_advantage_w': 0,
      'actor_rollout_ref.actor.opd_loss_coef': 0,
    });
    expect(Object.keys(grpo).filter((k) => k.startsWith('algorithm.seed.'))).toEqual([]);
  });

  it('lists the settings with no counterpart with the run value and the paper value', () => {
    const listed = uncarried(defaultConfig('tiny'));
    expect(listed.map((u) => u.key)).toEqual(TRAIN_KEYS.filter((k) => !isCarried(SETTING_ROWS[k])));
    expect(listed.find((u) => u.key === 'constrained')).toMatchObject({ value: 1, paper: 0 });
  });
});
