// --env: scenes, expert and play speak the shop as they speak the household, and a scene of one world given
// to the other is refused with the file's name, the world it is of and the --env that reads it; an option that
// the world of --env has not is refused naming what each world has.
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CliError } from './cli_error.ts';
import * as expert from './commands/expert.ts';
import * as play from './commands/play.ts';
import * as scenes from './commands/scenes.ts';
import * as warmstart from './commands/warmstart.ts';
import { runCaptured } from './testing.ts';

describe('--env shop', () => {
  it('writes shop scenes, solves one with the expert and plays the plan to a purchase with reward 1', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'shop-scenes-'));
    const written = await runCaptured(scenes.run, [
      '--env',
      'shop',
      '--split',
      'unseen',
      '--count',
      '3',
      '--seed',
      '2',
      '--out',
      dir,
    ]);
    expect(written.code).toBe(0);
    expect((await readdir(dir)).sort()).toEqual(['unseen-2-0.json', 'unseen-2-1.json', 'unseen-2-2.json']);
    const scene = join(dir, 'unseen-2-1.json');
    const plan = await runCaptured(expert.run, ['--env', 'shop', '--scene', scene]);
    expect(plan.stdout.split('\n')[0]).toMatch(/^search\[/);
    const actions = join(dir, 'plan.txt');
    await writeFile(actions, plan.stdout);
    const played = await runCaptured(play.run, ['--env', 'shop', '--scene', scene, '--actions', actions]);
    const lines = played.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0].admissible).toEqual(['search[...]']);
    expect(lines.at(-1)).toMatchObject({ done: true, won: true, reward: 1 });
    expect(played.stderr).toMatch(/won in \d+ steps/);
  });

  it("plays the shop's 15-step budget by default", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'shop-budget-'));
    await runCaptured(scenes.run, ['--env', 'shop', '--split', 'train', '--count', '1', '--seed', '0', '--out', dir]);
    const actions = join(dir, 'idle.txt');
    await writeFile(actions, 'click[nothing]\n'.repeat(20));
    const played = await runCaptured(play.run, [
      '--env',
      'shop',
      '--scene',
      join(dir, 'train-0-0.json'),
      '--actions',
      actions,
    ]);
    expect(played.stdout.trim().split('\n').length).toBe(16);
    expect(played.stderr).toMatch(/ignored 5 commands/);
  });

  it('refuses a scene of the other world, naming the file (and the world, when --env chose one)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'two-worlds-'));
    await runCaptured(scenes.run, [
      '--env',
      'shop',
      '--split',
      'seen',
      '--count',
      '1',
      '--seed',
      '0',
      '--out',
      join(dir, 'shop'),
    ]);
    await runCaptured(scenes.run, ['--split', 'seen', '--count', '1', '--seed', '0', '--out', join(dir, 'home')]);
    const shopScene = join(dir, 'shop', 'seen-0-0.json');
    const homeScene = join(dir, 'home', 'seen-0-0.json');
    const cases = [
      [expert.run, []],
      [play.run, ['--actions', '/dev/null']],
    ] as const;
    for (const [command, extra] of cases) {
      await expect(runCaptured(command, ['--scene', shopScene, ...extra])).rejects.toThrow(
        `${shopScene} is a shop scene, not a household one: pass --env shop`,
      );
      await expect(runCaptured(command, ['--env', 'shop', '--scene', homeScene, ...extra])).rejects.toThrow(
        `${homeScene} is a household scene, not a shop one: leave out --env (or pass --env household)`,
      );
    }
    // A file of neither world says what the world --env chose expects of it.
    const neither = join(dir, 'neither.json');
    await writeFile(neither, '{"version": 1}');
    await expect(runCaptured(expert.run, ['--env', 'shop', '--scene', neither])).rejects.toThrow(
      /neither\.json: catalogue: .* \(read as a shop scene\)$/,
    );
    await expect(runCaptured(expert.run, ['--env', 'kitchen', '--scene', 'x.json'])).rejects.toThrow(CliError);
  });
});

describe('options a world does not have', () => {
  it('warmstart --focus names the focuses of each world when the world of --env has not the one asked for', async () => {
    const out = join(await mkdtemp(join(tmpdir(), 'focus-')), 'w.ckpt');
    const base = ['--preset', 'micro', '--seed', '1', '--out', out];
    await expect(runCaptured(warmstart.run, [...base, '--focus', 'option'])).rejects.toThrow(
      '--focus option: the warm-start corpus of --env household has no option focus (the focuses of each world: household none; shop option, read, analyze; searchqa read, analyze)',
    );
    // The shop takes it: the refusal that follows is of another option, after the focus was read.
    await expect(
      runCaptured(warmstart.run, [...base, '--env', 'shop', '--focus', 'option,read', '--steps', '0']),
    ).rejects.toThrow('--steps 0 needs --init');
    await expect(runCaptured(warmstart.run, [...base, '--steps', '0'])).rejects.toThrow('--steps 0 needs --init');
    expect(existsSync(out)).toBe(false);
  });

  it('warmstart --focus-steps and --focus-share are refused where the corpus has no focus, taken where it has one', async () => {
    const out = join(await mkdtemp(join(tmpdir(), 'focus-')), 'w.ckpt');
    const base = ['--preset', 'micro', '--seed', '1', '--out', out, '--steps', '0'];
    await expect(runCaptured(warmstart.run, [...base, '--focus-steps', '10'])).rejects.toThrow(
      '--focus-steps: the warm-start corpus of --env household has no focus, so it would change nothing',
    );
    await expect(runCaptured(warmstart.run, [...base, '--focus-steps', '10', '--focus-share', '0.5'])).rejects.toThrow(
      '--focus-steps and --focus-share: the warm-start corpus of --env household has no focus, so they',
    );
    await expect(
      runCaptured(warmstart.run, [...base, '--env', 'shop', '--focus-steps', '10', '--focus-share', '0.5']),
    ).rejects.toThrow('--steps 0 needs --init');
    expect(existsSync(out)).toBe(false);
  });
});
