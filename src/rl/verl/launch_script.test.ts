// The launch script: its text for a known run (testdata/run_alfworld_seed.sh), and the script run by bash with
// stand-ins for torchrun and python3 that record their arguments: stage 1 fine-tunes the given model on the
// dataset beside the script, stage 2 trains the SFT model it wrote with the run's settings; a GRPO run trains the
// given model alone. A run of no counterpart is refused with the reason.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../config.ts';
import { defaultSettings } from '../page_settings.ts';
import { launchScript, NoCounterpartError, runsOfSettings, SFT_FILES, type RunToCarry } from './launch_script.ts';

const dir = mkdtempSync(join(tmpdir(), 'seed-verl-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const KNOWN: RunToCarry = {
  algo: 'seed',
  env: 'household',
  preset: 'tiny',
  seed: 1,
  config: { ...defaultConfig('tiny'), lambda: 0.3 },
  defaults: defaultConfig('tiny'),
  source: 'the run in runs/tiny-seed (seed, 192 updates)',
};

const STUBS = {
  // The SFT trainer: records its arguments and leaves an HF checkpoint where trainer.default_local_dir says.
  torchrun: `#!/bin/bash
printf '%s\\n' "$@" > "$LOG/torchrun"
for a in "$@"; do case "$a" in trainer.default_local_dir=*) d="\${a#*=}";; esac; done
mkdir -p "$d/global_step_2" "$d/global_step_10" && touch "$d/global_step_10/config.json"
`,
  python3: `#!/bin/bash
printf '%s\\n' "$@" >> "$LOG/python3"
`,
};

/** Runs the script of `run` with the stand-ins; the arguments each was given, one per line. */
function runScript(run: RunToCarry, env: Record<string, string> = {}, args: string[] = []) {
  const script = launchScript(run);
  const at = mkdtempSync(join(dir, 'run-'));
  const bin = join(at, 'bin');
  mkdirSync(bin);
  for (const [name, text] of Object.entries(STUBS)) {
    writeFileSync(join(bin, name), text);
    chmodSync(join(bin, name), 0o755);
  }
  mkdirSync(join(at, 'export'));
  writeFileSync(join(at, 'export', script.file), script.text);
  execFileSync('bash', [join(at, 'export', script.file), ...args], {
    env: { PATH: `${bin}:/usr/bin:/bin`, HOME: '/home/u', LOG: at, MODEL_PATH: '/models/base', ...env },
    stdio: 'pipe',
  });
  const lines = (name: string) => {
    try {
      return readFileSync(join(at, name), 'utf8').trimEnd().split('\n');
    } catch {
      return null;
    }
  };
  return { at, torchrun: lines('torchrun'), python3: lines('python3') };
}

describe('the launch script', () => {
  it('is the known text for a known run', async () => {
    const script = launchScript(KNOWN);
    expect(script.file).toBe('run_alfworld_seed.sh');
    await expect(script.text).toMatchFileSnapshot('testdata/run_alfworld_seed.sh');
  });

  it('runs the skill SFT on the dataset beside it, then RL from the SFT model, with the run settings', () => {
    const { at, torchrun, python3 } = runScript(KNOWN, {}, ['trainer.total_epochs=2']);
    expect(torchrun).toEqual(
      expect.arrayContaining([
        '-m',
        'verl.trainer.fsdp_sft_trainer',
        `data.train_files=${join(at, 'export', SFT_FILES.train)}`,
        `data.val_files=${join(at, 'export', SFT_FILES.val)}`,
        'data.prompt_key=prompt',
        'data.response_key=response',
        'model.partial_pretrain=/models/base',
        "trainer.logger=['console']",
      ]),
    );
    // The data preparation, then main_ppo from the newest SFT checkpoint, the overrides given last.
    expect(python3?.slice(0, 7)).toEqual([
      '-m',
      'examples.data_preprocess.prepare',
      '--mode',
      'text',
      '--train_data_size',
      '16',
      '--val_data_size',
    ]);
    expect(python3).toEqual(
      expect.arrayContaining([
        'verl.trainer.main_ppo',
        `actor_rollout_ref.model.path=${join(at, 'export', 'outputs', 'sft', 'global_step_10')}`,
        'algorithm.adv_estimator=seed',
        'actor_rollout_ref.actor.opd_loss_coef=0.3',
        'actor_rollout_ref.actor.opd_gate_beta=5.0',
        'env.rollout.n=8',
        'env.env_name=alfworld/AlfredTWEnv',
        'data.train_files=/home/u/data/verl-agent/text/train.parquet',
        'trainer.experiment_name=seed-alfworld-tiny-seed1',
      ]),
    );
    expect(python3?.at(-1)).toBe('trainer.total_epochs=2');
  });

  it('runs stage 2 alone when asked, and a GRPO run without a skill stage', () => {
    const rl = runScript(KNOWN, { STAGE: 'rl' });
    expect(rl.torchrun).toBeNull();
    expect(rl.python3).toContain('actor_rollout_ref.model.path=/models/base');
    const grpo = runScript({ ...KNOWN, algo: 'grpo' });
    expect(grpo.torchrun).toBeNull();
    expect(grpo.python3).toEqual(expect.arrayContaining(['algorithm.adv_estimator=gigpo', 'env.rollout.n=8']));
    expect(launchScript({ ...KNOWN, algo: 'grpo' }).text).not.toContain(SFT_FILES.train);
  });

  it("starts from the paper's values where the run kept the playground's defaults, carries what it changed, and says which", () => {
    const page = defaultSettings('tiny', 'household');
    const atDefaults = launchScript(runsOfSettings(page)[0]).text;
    for (const line of [
      'actor_rollout_ref.actor.optim.lr=0.000001',
      'data.train_batch_size=16',
      'env.max_steps=30',
      'env.history_length=5',
      'actor_rollout_ref.actor.opd_loss_coef=0.01',
      'actor_rollout_ref.actor.optim.weight_decay=0.01',
    ])
      expect(atDefaults).toContain(`    ${line} \\`);
    expect(atDefaults).toContain('--train_data_size 16 ');
    expect(atDefaults).toMatch(/^# {3}lr = 1e-6 \(this run 5e-4\)$/m);
    expect(atDefaults).toMatch(/^# {3}tasksPerUpdate = 16 \(this run 4\)$/m);
    expect(atDefaults).toMatch(/as it set them:\n# {3}\(none\)\n/);

    const changed = launchScript(runsOfSettings({ ...page, lambda: 0.3, lr: 2e-6 })[0]).text;
    expect(changed).toContain('    actor_rollout_ref.actor.opd_loss_coef=0.3 \\');
    expect(changed).toContain('    actor_rollout_ref.actor.optim.lr=0.000002 \\');
    expect(changed).toMatch(/as it set them:\n# {3}lambda = 0\.3 \(paper 0\.01\)\n# {3}lr = 2e-6 \(paper 1e-6\)\n/);

    // The shop's benchmark has the paper's WebShop steps and history.
    const shop = launchScript(runsOfSettings(defaultSettings('tiny', 'shop'))[0]).text;
    expect(shop).toContain('    env.max_steps=15 \\');
    expect(shop).toContain('    env.history_length=2 \\');
  });

  it("writes one script per run of a page's settings, and refuses a run of no counterpart", () => {
    const both = runsOfSettings({ ...defaultSettings('micro', 'shop'), algo: 'both' }).map(launchScript);
    expect(both.map((s) => s.file)).toEqual(['run_webshop_seed.sh', 'run_webshop_grpo.sh']);
    expect(both[0].text).toContain('env.env_name=Webshop');
    expect(both[0].text).toContain('#env=shop&preset=micro&algo=both&');
    expect(() => launchScript({ ...KNOWN, algo: 'seed-exact' })).toThrow(NoCounterpartError);
    expect(() => launchScript({ ...KNOWN, algo: 'seed-crossgame' })).toThrow(
      /seed-crossgame has no counterpart in the SEED trainer/,
    );
  });
});
