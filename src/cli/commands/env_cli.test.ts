// The environment's CLI commands (scenes, play, expert) run in-process, stdout captured.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { generateScene, evalScenes } from '../../worlds/household/env/splits.ts';
import { shopSceneToJson } from '../../worlds/shop/env/scene.ts';
import { MAX_QUERY_PIECES } from '../../worlds/shop/env/site.ts';
import { generateShopScene } from '../../worlds/shop/env/splits.ts';
import { sceneFromJson, sceneToJson } from '../../worlds/household/env/scene.ts';
import { CliError } from '../cli_error.ts';
import { factsOf, theWorld } from '../../worlds/facts.ts';
import { ENVIRONMENT_NAMES } from '../../worlds/names.ts';
import * as expert from './expert.ts';
import * as play from './play.ts';
import * as scenes from './scenes.ts';
import { runCaptured } from '../testing.ts';

const dir = mkdtempSync(join(tmpdir(), 'seed-env-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('seed scenes / expert / play', () => {
  it('scenes writes the generator scenes; seen with seed 2026 is the fixed eval set', async () => {
    const out = join(dir, 'seen');
    const r = await runCaptured(scenes.run, ['--split', 'seen', '--count', '12', '--seed', '2026', '--out', out]);
    expect(r.code).toBe(0);
    const files = readdirSync(out).sort();
    expect(files[0]).toBe('seen-2026-00.json');
    expect(r.stdout.trim().split('\n')).toEqual(files.map((f) => join(out, f)));
    const evalSet = evalScenes('seen');
    files.forEach((f, i) => {
      expect(readFileSync(join(out, f), 'utf8')).toBe(sceneToJson(evalSet[i]));
    });
  });

  it('expert prints a plan that play replays to a win, one JSON line per step', async () => {
    const sceneFile = join(dir, 'scene.json');
    const scene = generateScene('train', 4, undefined, 3);
    writeFileSync(sceneFile, sceneToJson(scene));
    const plan = await runCaptured(expert.run, ['--scene', sceneFile]);
    const commands = plan.stdout.trim().split('\n');
    const actions = join(dir, 'actions.txt');
    writeFileSync(actions, `${[...commands, 'look', 'inventory'].join('\n')}\n`);
    const played = await runCaptured(play.run, ['--scene', sceneFile, '--actions', actions]);
    expect(played.code).toBe(0);
    const lines = played.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.length).toBe(commands.length + 1);
    expect(Object.keys(lines[0])).toEqual(['step', 'action', 'observation', 'admissible', 'reward', 'done', 'won']);
    expect(lines[0]).toMatchObject({ step: 0, action: null, reward: 0, done: false, won: false });
    expect(lines[0].observation).toContain(`Your task is to: ${scene.task.goal}.`);
    expect(lines[1].action).toBe(commands[0]);
    expect(lines.at(-1)).toMatchObject({ step: commands.length, reward: 10, done: true, won: true, admissible: [] });
    expect(played.stderr).toContain('ignored 2 commands');
  });

  it("play's --max-steps default names every world's step budget, its facts'", () => {
    const help = play.command.options['max-steps'].defaultText;
    for (const name of ENVIRONMENT_NAMES) expect(help).toContain(`${factsOf(name).maxSteps} in ${theWorld(name)}`);
  });

  it('play answers an empty or unknown command with "Nothing happens." and stops at --max-steps', async () => {
    const sceneFile = join(dir, 'scene2.json');
    writeFileSync(sceneFile, sceneToJson(generateScene('unseen', 0)));
    const actions = join(dir, 'junk.txt');
    writeFileSync(actions, '\nfly away\r\nlook\nlook\n');
    const played = await runCaptured(play.run, ['--scene', sceneFile, '--actions', actions, '--max-steps', '3']);
    const lines = played.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.action, l.observation, l.done])).toEqual([
      [null, lines[0].observation, false],
      ['', 'Nothing happens.', false],
      ['fly away', 'Nothing happens.', false],
      ['look', 'You are in the middle of a room. Looking quickly around you, you see nothing.', true],
    ]);
  });

  it('turns bad input into one-line CliErrors that name the file and field', async () => {
    const bad = join(dir, 'bad.json');
    const doc = JSON.parse(sceneToJson(generateScene('train', 0)));
    doc.objects[0].in = 'nowhere 1';
    writeFileSync(bad, JSON.stringify(doc));
    await expect(runCaptured(expert.run, ['--scene', bad])).rejects.toThrow(
      new CliError(`${bad}: objects[0].in: "nowhere 1" is not a receptacle of this scene`),
    );
    await expect(runCaptured(expert.run, ['--scene', join(dir, 'missing.json')])).rejects.toThrow(
      /cannot read .*missing\.json: ENOENT/,
    );
    await expect(runCaptured(play.run, ['--scene', bad])).rejects.toBeInstanceOf(CliError);
    const good = join(dir, 'good.json');
    writeFileSync(good, sceneToJson(sceneFromJson(sceneToJson(generateScene('train', 0)))));
    await expect(runCaptured(play.run, ['--scene', good, '--actions', join(dir, 'none.txt')])).rejects.toThrow(
      /cannot read .*none\.txt: ENOENT/,
    );
    await expect(
      runCaptured(scenes.run, ['--split', 'valid', '--count', '1', '--seed', '0', '--out', dir]),
    ).rejects.toThrow(/--split must be one of/);
    await expect(
      runCaptured(scenes.run, ['--split', 'train', '--count', 'x', '--seed', '0', '--out', dir]),
    ).rejects.toThrow(/--count must be a decimal number, got "x"/);
    await expect(runCaptured(scenes.run, ['--split', 'train', '--count', '1', '--out', dir])).rejects.toThrow(
      /missing --seed/,
    );
    await expect(
      runCaptured(scenes.run, ['--split', 'train', '--count', '1', '--seed', '0', '--out', dir, '--scale', 'huge']),
    ).rejects.toThrow(/--scale must be one of/);
  });
});

describe('seed play in the shop', () => {
  const sceneFile = join(dir, 'shop.json');
  writeFileSync(sceneFile, shopSceneToJson(generateShopScene('train', 0)));
  const shop = ['--env', 'shop', '--scene', sceneFile];

  it('refuses a search longer than the policy writes in an --actions file, naming the line and the limit', async () => {
    const actions = join(dir, 'long-search.txt');
    const query = Array<string>(10_000).fill('shirt').join(' ');
    writeFileSync(actions, `search[cotton shirt]\nclick[back to search]\nsearch[${query}]\n`);
    const refused = await runCaptured(play.run, [...shop, '--actions', actions]).then(
      () => null,
      (err: unknown) => err,
    );
    expect(refused).toBeInstanceOf(CliError);
    expect((refused as CliError).message).toBe(
      `${actions} line 3: a search query holds at most ${MAX_QUERY_PIECES} word pieces (each word, number and mark such as "-" is one) and ${(refused as CliError).message.match(/and (\d+) characters/)?.[1]} characters, as the policy's search bar does; this one holds more (${query.length} characters)`,
    );
    writeFileSync(actions, `search[${query.split(' ').slice(0, MAX_QUERY_PIECES).join(' ')}]\n`);
    const { stdout } = await runCaptured(play.run, [...shop, '--actions', actions]);
    expect(stdout.trim().split('\n')).toHaveLength(2);
  });

  it('refuses such a search on stdin at its line and exits while the writer keeps stdin open', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--import', './scripts/register-raw.mjs', 'src/seed.ts', 'play', ...shop],
      { stdio: ['pipe', 'pipe', 'pipe'], timeout: 120_000, killSignal: 'SIGKILL' },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.stdin.write(`search[cotton shirt]\nsearch[${'a-'.repeat(2 << 20)}]\n`);
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(1);
    expect(stderr).toMatch(/^error: stdin line 2: a search query holds at most 12 word pieces [^\n]*\n$/);
    expect(stdout.trim().split('\n')).toHaveLength(2);
  }, 120_000);
});

describe('seed scenes, expert and play in the search-QA world', () => {
  const qa = ['--env', 'searchqa'];

  it('writes unseen questions whose expert plan play replays to a win, scored by its answer', async () => {
    const out = join(dir, 'searchqa');
    const written = await runCaptured(scenes.run, [
      ...qa,
      '--split',
      'unseen',
      '--count',
      '3',
      '--seed',
      '1',
      '--out',
      out,
    ]);
    expect(written.code).toBe(0);
    const files = written.stdout.trim().split('\n');
    expect(files).toHaveLength(3);
    for (const sceneFile of files) {
      const plan = await runCaptured(expert.run, [...qa, '--scene', sceneFile]);
      const commands = plan.stdout.trim().split('\n');
      expect(commands[0]).toMatch(/^search\[.+\]$/);
      expect(commands.at(-1)).toMatch(/^answer\[.+\]$/);
      const actions = join(dir, 'searchqa-actions.txt');
      writeFileSync(actions, `${commands.join('\n')}\n`);
      const played = await runCaptured(play.run, [...qa, '--scene', sceneFile, '--actions', actions]);
      const lines = played.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(lines[0].observation).toMatch(/^Question: /);
      expect(lines[0].admissible).toEqual(['search[...]']);
      expect(lines.at(-1)).toMatchObject({ observation: 'Your answer is correct.', done: true, won: true });
    }
  });
});
