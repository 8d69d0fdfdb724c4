// The key check: every key a launch script sets, read from the script's text, is one of the SEED repository's
// config keys as vendored (seed_config_keys.json, which names its repository and commit), for every world that
// has a benchmark there, every algorithm that has a counterpart, every preset's settings and the settings' ranges'
// ends; and a key that is not one of them (a typo, a key of another verl) is caught.
import { describe, expect, it } from 'vitest';
import vendored from './seed_config_keys.json';
import { defaultConfig, PAPER_CONFIG, TRAIN_KEYS, TRAIN_SETTINGS, type TrainConfig } from '../config.ts';
import { ALGOS } from '../arms.ts';
import { PRESET_NAMES } from '../../model/config.ts';
import { ENVIRONMENT_NAMES } from '../../worlds/names.ts';
import { factsOf } from '../../worlds/facts.ts';
import { engineDefault, isEngineKey, unknownKeys, type EngineConfig } from './config_keys.ts';
import { launchScript, type RunToCarry } from './launch_script.ts';
import { engineAlgorithm, isCarried, SETTING_ROWS } from './mapping.ts';

const CARRIED_ALGOS = ALGOS.filter((a) => 'engine' in engineAlgorithm(a));
const WORLDS = ENVIRONMENT_NAMES.filter((env) => factsOf(env).engine !== undefined);

/** The keys of `key=value` arguments in the script's block of one entry point (the SFT trainer or main_ppo). */
function scriptKeys(text: string, config: EngineConfig): string[] {
  const entry = config === 'sft' ? '-m verl.trainer.fsdp_sft_trainer' : 'python3 -m verl.trainer.main_ppo';
  const at = text.indexOf(entry);
  if (at < 0) return [];
  const lines = text.slice(at).split('\n').slice(1);
  const block = lines.slice(0, lines.findIndex((l) => !l.endsWith('\\')) + 1);
  return block
    .map((l) => l.trim().replace(/^"/, ''))
    .filter((l) => /^[\w.]+=/.test(l))
    .map((l) => l.slice(0, l.indexOf('=')));
}

function run(algo: RunToCarry['algo'], env: RunToCarry['env'], config: TrainConfig): RunToCarry {
  // Read against the paper's values, every setting that differs from them is the run's own and reaches the script.
  return { algo, env, preset: 'tiny', seed: 1, config, defaults: PAPER_CONFIG, source: 'a test' };
}

/** Configs at every preset, the paper's, and every setting at the low and the high end of its range. */
function configs(): TrainConfig[] {
  const ends = (pick: 'min' | 'max') => {
    const c = { ...PAPER_CONFIG };
    for (const key of TRAIN_KEYS) {
      const s = TRAIN_SETTINGS[key];
      c[key] = pick === 'min' ? s.min : s.belowMax ? s.max / 2 : s.max;
    }
    return c;
  };
  return [...PRESET_NAMES.map(defaultConfig), { ...PAPER_CONFIG }, ends('min'), ends('max')];
}

describe('the vendored config keys of the SEED repository', () => {
  it('name their repository and commit, and hold the keys the paper sets', () => {
    expect(vendored.repository).toBe('zhangdw156/SEED');
    expect(vendored.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(vendored.configs.main_ppo.file).toBe('verl/trainer/config/ppo_trainer.yaml');
    // The paper's SEED settings and verl-agent's environment keys, with the defaults of that commit.
    expect(engineDefault('main_ppo', 'actor_rollout_ref.actor.opd_loss_coef')).toBe(0);
    expect(engineDefault('main_ppo', 'actor_rollout_ref.actor.opd_gate_beta')).toBe(5);
    expect(engineDefault('main_ppo', 'algorithm.seed.skill_mode')).toBe('episode_step');
    expect(engineDefault('main_ppo', 'env.rollout.n')).toBe(1);
    expect(engineDefault('main_ppo', 'env.env_name')).toBe('alfworld/AlfredTWEnv');
    expect(engineDefault('sft', 'data.prompt_key')).toBe('question');
  });

  it('catch a key that is not one of them', () => {
    expect(
      unknownKeys('main_ppo', ['env.rollout.n', 'actor_rollout_ref.actor.opd_loss_coeff', 'env.rollout.n']),
    ).toEqual(['actor_rollout_ref.actor.opd_loss_coeff']);
    // verl's own GRPO group size is actor_rollout_ref.rollout.n; verl-agent sets it with env.rollout.n.
    expect(isEngineKey('main_ppo', 'actor_rollout_ref.rollout.n')).toBe(true);
    expect(isEngineKey('sft', 'actor_rollout_ref.actor.opd_loss_coef')).toBe(false);
    // The check reads the script's text: a key added to it by hand is found.
    const text = launchScript(run('seed', WORLDS[0], defaultConfig('tiny'))).text.replace(
      'env.rollout.n=',
      'env.rollout.group_n=',
    );
    expect(unknownKeys('main_ppo', scriptKeys(text, 'main_ppo'))).toEqual(['env.rollout.group_n']);
  });

  it("every key the mapping and the worlds' benchmarks name is one of them", () => {
    const named = (Object.values(SETTING_ROWS) as (typeof SETTING_ROWS)[keyof typeof SETTING_ROWS][]).flatMap((row) =>
      isCarried(row) ? row.keys : [],
    );
    expect(unknownKeys('main_ppo', named)).toEqual([]);
    expect(WORLDS.length).toBeGreaterThan(1);
    for (const env of WORLDS)
      expect(unknownKeys('main_ppo', Object.keys(factsOf(env).engine!.launcherKeys))).toEqual([]);
  });

  it('every key every launch script sets is one of them, in the script it writes', () => {
    let checked = 0;
    for (const env of WORLDS)
      for (const algo of CARRIED_ALGOS)
        for (const config of configs()) {
          const script = launchScript(run(algo, env, config));
          for (const entry of ['main_ppo', 'sft'] as const) {
            const keys = scriptKeys(script.text, entry);
            expect(keys.sort(), `${algo} in the ${env}: ${entry}`).toEqual([...script.keys[entry]]);
            expect(unknownKeys(entry, keys), `${algo} in the ${env}: ${entry}`).toEqual([]);
            checked += keys.length;
          }
        }
    expect(checked).toBeGreaterThan(1000);
  });
});
