// --env: scenes, expert and play speak the shop as they speak the household, and a scene of one world given
// to the other is refused with the file's name.
import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CliError } from './cli_error.ts';
import * as expert from './commands/expert.ts';
import * as play from './commands/play.ts';
import * as scenes from './commands/scenes.ts';
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
    await expect(runCaptured(expert.run, ['--scene', join(dir, 'shop', 'seen-0-0.json')])).rejects.toThrow(
      /seen-0-0\.json: .*catalogue/,
    );
    await expect(
      runCaptured(expert.run, ['--env', 'shop', '--scene', join(dir, 'home', 'seen-0-0.json')]),
    ).rejects.toThrow(/\(read as a shop scene\)/);
    await expect(runCaptured(expert.run, ['--env', 'kitchen', '--scene', 'x.json'])).rejects.toThrow(CliError);
  });
});
