// `seed export-verl`: from a link's settings and from a run directory, the launch script and the two parquet
// files of the skill SFT's dataset in OUT, with a summary on stdout; a run with no counterpart, a bad link and
// a missing or doubled source are refused in one line.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetReadObjects } from 'hyparquet';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultSettings, formatHash } from '../../rl/page_settings.ts';
import { withRecordedDefaults } from '../../rl/recorded_defaults.ts';
import { checkRecordIndex, newestRecord, parseRecordedRun } from '../../rl/recorded_run_check.ts';
import { runCli } from '../cli.ts';
import { runCaptured } from '../testing.ts';
import { run as exportVerl } from './export_verl.ts';
import { run as train } from './train.ts';

const dir = mkdtempSync(join(tmpdir(), 'seed-export-verl-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function parquetRows(path: string) {
  const bytes = readFileSync(path);
  return parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) });
}

/** The page's tiny household settings: those of the household's shipped record. */
function recordedPage() {
  const index = checkRecordIndex(JSON.parse(readFileSync('public/runs/index.json', 'utf8')));
  const record = parseRecordedRun(readFileSync(`public/runs/${newestRecord(index, 'household')!.file}`, 'utf8'));
  return withRecordedDefaults(defaultSettings('tiny'), record);
}

describe('seed export-verl', () => {
  it("writes a link's script and dataset, one script per run of algo=both", async () => {
    const out = join(dir, 'link');
    const { code, stdout } = await runCaptured(exportVerl, [
      '--settings',
      '#env=shop&preset=micro&algo=both&seed=4&lambda=0.3',
      '--out',
      out,
      '--games',
      '10',
    ]);
    expect(code).toBe(0);
    expect(readdirSync(out).sort()).toEqual([
      'run_webshop_grpo.sh',
      'run_webshop_seed.sh',
      'sft_episode_skill_train.parquet',
      'sft_episode_skill_val.parquet',
    ]);
    const summary = JSON.parse(stdout);
    expect(summary.repository.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(summary.dataset).toEqual({ 'sft_episode_skill_train.parquet': 18, 'sft_episode_skill_val.parquet': 2 });
    expect(summary.noCounterpart).toContain('skillAfterPage = 1 (paper 0)');
    // The page's micro values are replaced by the paper's; the link's own lambda is carried.
    expect(summary.carried).toEqual(['lambda = 0.3 (paper 0.01)']);
    expect(summary.fromPaper).toEqual(
      expect.arrayContaining(["lr = 1e-6 (the run's 0.001)", "tasksPerUpdate = 16 (the run's 2)"]),
    );
    const seed = readFileSync(join(out, 'run_webshop_seed.sh'), 'utf8');
    expect(seed).toContain('actor_rollout_ref.actor.opd_loss_coef=0.3');
    expect(seed).toContain('env.seed=4');
    const rows = await parquetRows(join(out, 'sft_episode_skill_val.parquet'));
    expect(rows.map((r) => r.skill_id)).toEqual(['expert:train-0', 'explorer:train-0']);
    expect(JSON.parse(String(rows[0].response))).toHaveProperty('episode_skill');
  });

  it("reads a tiny link at the recorded run's settings, the page's defaults there, as left at the defaults", async () => {
    const page = recordedPage();
    expect(page.lr).not.toBe(defaultSettings('tiny').lr);
    const out = join(dir, 'recorded');
    const link = formatHash({ ...page, lambda: 0.3 });
    const { code, stdout } = await runCaptured(exportVerl, ['--settings', link, '--out', out, '--games', '2']);
    expect(code).toBe(0);
    const summary = JSON.parse(stdout);
    // The recorded run's learning rate is the page's default there: the paper's takes its place; the link's lambda is its own.
    expect(summary.carried).toEqual(['lambda = 0.3 (paper 0.01)']);
    expect(summary.fromPaper).toContain(`lr = 1e-6 (the run's ${page.lr})`);
    expect(readFileSync(join(out, 'run_alfworld_seed.sh'), 'utf8')).toContain(
      '    actor_rollout_ref.actor.optim.lr=0.000001 \\',
    );
  });

  it('reads a link that names few settings as the page opens it: the others at the recorded run, none carried', async () => {
    const out = join(dir, 'few');
    const { code, stdout } = await runCaptured(exportVerl, ['--settings', '#algo=seed', '--out', out, '--games', '2']);
    expect(code).toBe(0);
    const summary = JSON.parse(stdout);
    expect(summary.carried).toEqual([]);
    expect(summary.fromPaper).toContain(`lr = 1e-6 (the run's ${recordedPage().lr})`);
  });

  it('reads a whole link by its hash', async () => {
    const out = join(dir, 'whole-link');
    const link = 'https://host/seed/?x=1#env=household&preset=micro&algo=seed&lambda=0.3';
    expect((await runCaptured(exportVerl, ['--settings', link, '--out', out, '--games', '2'])).code).toBe(0);
    expect(readFileSync(join(out, 'run_alfworld_seed.sh'), 'utf8')).toContain(
      '    actor_rollout_ref.actor.opd_loss_coef=0.3 \\',
    );
  });

  it("carries a run directory's algorithm, seed and settings", async () => {
    const run = join(dir, 'run');
    const trained = await runCaptured(train, [
      ...['--algo', 'opid', '--preset', 'micro', '--updates', '0', '--seed', '5', '--backend', 'cpu'],
      ...['--eval-every', '0', '--set', 'groupSize=3', '--out', run],
    ]);
    expect(trained.code).toBe(0);
    const out = join(dir, 'from-run');
    const { code } = await runCaptured(exportVerl, ['--run', run, '--out', out, '--games', '2']);
    expect(code).toBe(0);
    const script = readFileSync(join(out, 'run_alfworld_opid.sh'), 'utf8');
    expect(script).toContain(`# From the run in ${run} (opid, 0 updates).`);
    expect(script).toMatch(/as it set them:\n# {3}groupSize = 3 \(paper 8\)\n/);
    for (const line of ['env.rollout.n=3', 'env.seed=5', 'actor_rollout_ref.actor.opd_loss_coef=0.0'])
      expect(script).toContain(`    ${line} \\`);
  });

  it("escapes a run folder's newline in the script's comments, so that bash runs none of the name", async () => {
    const run = join(dir, 'run\ntouch injected\n#');
    const trained = await runCaptured(train, [
      ...['--algo', 'grpo', '--preset', 'micro', '--updates', '0', '--seed', '1', '--backend', 'cpu'],
      ...['--eval-every', '0', '--out', run],
    ]);
    expect(trained.code).toBe(0);
    const out = join(dir, 'from-newline');
    expect((await runCaptured(exportVerl, ['--run', run, '--out', out, '--games', '2'])).code).toBe(0);
    const script = join(out, 'run_alfworld_grpo.sh');
    // python3 stands in for the trainer; the script runs in a folder of its own, where the injected touch would land.
    const bin = join(dir, 'bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'python3'), '#!/bin/bash\n');
    chmodSync(join(bin, 'python3'), 0o755);
    const cwd = mkdtempSync(join(dir, 'cwd-'));
    execFileSync('bash', [script], {
      cwd,
      env: { PATH: `${bin}:/usr/bin:/bin`, HOME: cwd, MODEL_PATH: '/models/base' },
      stdio: 'pipe',
    });
    expect(readdirSync(cwd)).toEqual([]);
    expect(readFileSync(script, 'utf8')).toContain('run\\ntouch injected\\n# (grpo, 0 updates).');
  });

  it('refuses a run with no counterpart, a bad link, and no or two sources, writing nothing', async () => {
    const out = join(dir, 'refused');
    const cases: [string[], RegExp][] = [
      [['--settings', '#algo=seed-exact'], /^error: seed-exact has no counterpart in the SEED trainer: /],
      [['--settings', '#algo=seed&lambda=abc'], /^error: --settings: lambda=abc is not a number/],
      [
        ['--settings', 'https://host/seed/'],
        /^error: --settings: the link "https:\/\/host\/seed\/" holds no settings: /,
      ],
      [[], /^error: give exactly one of --run DIR and --settings HASH; usage: /],
      [['--run', dir, '--settings', '#'], /^error: give exactly one of/],
      [['--run', join(dir, 'none')], /last\.ckpt/],
    ];
    for (const [args, message] of cases) {
      const { code, stderr } = await runCaptured((a) => runCli(['export-verl', ...a]), [...args, '--out', out]);
      expect(code, args.join(' ')).not.toBe(0);
      expect(stderr, args.join(' ')).toMatch(message);
    }
    expect(() => readdirSync(out)).toThrow();
  });
});
