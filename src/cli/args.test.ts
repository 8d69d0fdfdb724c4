import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultConfig } from '../rl/config.ts';
import { applySetOptions, choiceList, choiceOption, limitedNumber, numberList, parseOptions } from './args.ts';
import { CliError } from './cli_error.ts';
import { defineCommand } from './help.ts';
import { run as exportOnnx } from './commands/export_onnx.ts';
import { run as scenes } from './commands/scenes.ts';
import { run as train } from './commands/train.ts';
import { run as warmstart } from './commands/warmstart.ts';
import { LIMITS, SEED } from './limits.ts';
import { runCaptured } from './testing.ts';

const dir = mkdtempSync(join(tmpdir(), 'seed-args-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function refusal(p: Promise<unknown>): Promise<string> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CliError);
  expect((err as CliError).message).not.toContain('\n');
  return (err as CliError).message;
}

describe('numbers on the command line', () => {
  const count = LIMITS.scenes.count;

  it('are decimal only: no hexadecimal, no blanks, no empty string', () => {
    expect(limitedNumber('16', '--count', count)).toBe(16);
    expect(limitedNumber('0.5e-3', '--lr', LIMITS.warmstart.lr)).toBe(0.0005);
    for (const text of ['0x10', '', ' 5', '5 ', '0b1', '1_000', 'Infinity', 'NaN', '+', '.', '1e', '١٢']) {
      expect(() => limitedNumber(text, '--count', count), JSON.stringify(text)).toThrow(
        `--count must be a decimal number, got ${JSON.stringify(text)}`,
      );
    }
  });

  it('are whole numbers for counts and stay in their documented range', () => {
    expect(() => limitedNumber('1.5', '--count', count)).toThrow('--count must be a whole number, got "1.5"');
    expect(() => limitedNumber('1e12', '--count', count)).toThrow('--count must be in 1..100000, got "1e12"');
    expect(() => limitedNumber('0', '--count', count)).toThrow('--count must be in 1..100000, got "0"');
    expect(() => limitedNumber('-1', '--checkpoint-every', LIMITS.train['checkpoint-every'])).toThrow(
      '--checkpoint-every must be in 0..1000000, got "-1"',
    );
    expect(() => limitedNumber('-5', '--eval-episodes', LIMITS.train['eval-episodes'])).toThrow(
      '--eval-episodes must be in 0..1000, got "-5"',
    );
    expect(limitedNumber('4294967295', '--seed', SEED)).toBe(4294967295);
    expect(() => limitedNumber('4294967296', '--seed', SEED)).toThrow(/--seed must be in 0\.\.4294967295/);
    expect(() => limitedNumber('1', '--lr', LIMITS.warmstart.lr)).toThrow('--lr must be in (0, 1), got "1"');
    expect(limitedNumber('0.5', '--lr', LIMITS.warmstart.lr)).toBe(0.5);
    expect(() => numberList('1,0x4', 'batches', LIMITS.benchOnnx.batches)).toThrow(
      '--batches must be a decimal number, got "0x4"',
    );
  });

  it('refuse a number that reads as 0 or Infinity though written as neither, for every option', () => {
    const share = LIMITS.warmstart['focus-share'];
    expect(() => limitedNumber('1e-400', '--focus-share', share)).toThrow(
      '--focus-share is too small to be told from 0, got "1e-400" (it reads as 0; write 0 for 0)',
    );
    expect(() => limitedNumber('0.00001e-330', '--focus-share', share)).toThrow(/too small to be told from 0/);
    expect(() => limitedNumber('1e400', '--temperature', LIMITS.eval.temperature)).toThrow(
      '--temperature is too large to be a number, got "1e400" (it reads as Infinity)',
    );
    expect(() => limitedNumber('1e400', '--count', count)).toThrow(/--count is too large to be a number/);
    for (const zero of ['0', '0.0', '0e-400']) expect(limitedNumber(zero, '--focus-share', share)).toBe(0);
    expect(limitedNumber('1e-320', '--focus-share', share)).toBe(1e-320);
  });

  it('take a count in plain digits only, and show that form for another spelling of it', () => {
    const games = LIMITS.teacher.games;
    expect(limitedNumber('2', '--games', games)).toBe(2);
    expect(() => limitedNumber('+2', '--games', games)).toThrow(
      '--games must be written in plain digits, as 2, got "+2"',
    );
    for (const [text, shown] of [
      ['02', '2'],
      ['2.0', '2'],
      ['2e0', '2'],
      ['1e3', '1000'],
      ['0.2e1', '2'],
    ])
      expect(() => limitedNumber(text, '--games', games), text).toThrow(
        `--games must be written in plain digits, as ${shown}, got "${text}"`,
      );
    expect(() => limitedNumber('-0', '--eval-episodes', LIMITS.train['eval-episodes'])).toThrow(
      '--eval-episodes must be written in plain digits, as 0, got "-0"',
    );
    // A real option takes any decimal spelling.
    expect(limitedNumber('+0.5', '--lr', LIMITS.warmstart.lr)).toBe(0.5);
    expect(limitedNumber('.50', '--lr', LIMITS.warmstart.lr)).toBe(0.5);
  });

  it('quote a bad seed as every other bad value', () => {
    expect(() => limitedNumber('abc', '--seed', SEED)).toThrow('--seed must be a decimal number, got "abc"');
    expect(() => limitedNumber('-1', '--seed', SEED)).toThrow('--seed must be in 0..4294967295, got "-1"');
    expect(() => limitedNumber('1.5', '--seed', SEED)).toThrow('--seed must be a whole number, got "1.5"');
    expect(() => limitedNumber('+7', '--seed', SEED)).toThrow('--seed must be written in plain digits, as 7, got "+7"');
  });

  it('settings are decimal too, each within its range from the settings table', () => {
    const base = defaultConfig('micro');
    expect(applySetOptions(base, ['groupSize=4', 'constrained=false']).groupSize).toBe(4);
    expect(() => applySetOptions(base, ['groupSize=0x10'])).toThrow(CliError);
    expect(() => applySetOptions(base, ['groupSize=100000000'])).toThrow(
      '--set: setting groupSize is outside [1, 64], got 100000000',
    );
    expect(() => applySetOptions(base, ['maxSkillTokens=1e9'])).toThrow(
      '--set: setting maxSkillTokens is outside [1, 128], got 1000000000',
    );
    expect(() => applySetOptions(base, ['nope=1'])).toThrow(/^--set: unknown setting "nope"/);
    expect(() => applySetOptions(base, ['groupSize=+4'])).toThrow(
      '--set: setting groupSize must be written in plain digits, as 4, got "+4"',
    );
    expect(applySetOptions(base, ['lr=+1e-3']).lr).toBe(0.001);
  });

  it('option errors are one line with the usage, and names are escaped', async () => {
    expect(() =>
      parseOptions(['--bogus\u001b[2J'], defineCommand({ name: 'x', summary: 'x', description: 'x', options: {} })),
    ).toThrow(CliError);
    const message = await refusal(
      runCaptured(scenes, ['--split', 'train', '--count', '1', '--seed', '1', '--out', dir, 'extra\n\u001b[31m']),
    );
    expect(message).toMatch(
      /^unexpected argument "extra\\n\\u001b\[31m"; usage: npm run seed -- scenes .*\(ranges: --count 1\.\.100000, --seed 0\.\.4294967295\)$/,
    );
  });

  it('a negative number after an option is one readable line that says how to write it', async () => {
    const message = await refusal(runCaptured(train, ['--seed', '-1']));
    expect(message).toMatch(
      /^Option '--seed' argument is ambiguous\. Did you forget .*? To specify .*'--seed=-XYZ'\.; usage: /,
    );
    expect(message).not.toContain('\\n');
  });
});

describe('options with choices', () => {
  const command = defineCommand({
    name: 'x',
    summary: 'x',
    description: 'x',
    options: {
      size: { type: 'string', choices: ['s', 'm'], default: 's', description: 'x' },
      sizes: { type: 'string', choices: ['s', 'm'], list: true, empty: 'none', default: 's,m', description: 'x' },
    },
  });

  it('take one of their choices, or a comma-separated list of them where empty stands for none', () => {
    expect(parseOptions(['--size', 'm', '--sizes', 'm,s'], command).values).toMatchObject({ size: 'm', sizes: 'm,s' });
    expect(choiceOption('m', 'size', ['s', 'm'] as const)).toBe('m');
    expect(choiceList('m, s', 'sizes', ['s', 'm'] as const)).toEqual(['m', 's']);
    expect(choiceList('none', 'sizes', ['s', 'm'] as const, 'none')).toEqual([]);
  });

  it('refuse anything else at parsing, in one line naming the choices', () => {
    expect(() => parseOptions(['--size', 'l'], command)).toThrow(
      new CliError('--size must be one of s, m, got "l"', 2),
    );
    expect(() => parseOptions(['--size', ''], command)).toThrow(new CliError('--size must be one of s, m, got ""', 2));
    expect(() => parseOptions(['--sizes', 's,,m'], command)).toThrow(
      new CliError('--sizes must be a comma-separated list of s, m, or none, got "s,,m"', 2),
    );
    expect(() => parseOptions(['--sizes', 'none,s'], command)).toThrow(
      new CliError('--sizes must be a comma-separated list of s, m, or none, got "none,s"', 2),
    );
    expect(() => choiceList('', 'sizes', ['s', 'm'])).toThrow(
      new CliError('--sizes must be a comma-separated list of s, m, got ""', 2),
    );
  });
});

describe('counts are refused before any work or any file', () => {
  it('scenes --count 0x10 and 1e12', async () => {
    const out = join(dir, 'scenes');
    expect(
      await refusal(runCaptured(scenes, ['--split', 'train', '--count', '0x10', '--seed', '1', '--out', out])),
    ).toBe('--count must be a decimal number, got "0x10"');
    expect(
      await refusal(runCaptured(scenes, ['--split', 'train', '--count', '1e12', '--seed', '1', '--out', out])),
    ).toBe('--count must be in 1..100000, got "1e12"');
    expect(existsSync(out)).toBe(false);
  });

  it('warmstart --episodes/--steps, export-onnx --episodes, train --updates and --set', async () => {
    const ckpt = join(dir, 'w.ckpt');
    expect(
      await refusal(runCaptured(warmstart, ['--preset', 'micro', '--seed', '1', '--out', ckpt, '--episodes', '1e12'])),
    ).toBe('--episodes must be in 1..100000, got "1e12"');
    expect(
      await refusal(runCaptured(warmstart, ['--preset', 'micro', '--seed', '1', '--out', ckpt, '--steps', '1e12'])),
    ).toBe('--steps must be in 0..1000000, got "1e12"');
    expect(
      await refusal(runCaptured(exportOnnx, ['--ckpt', ckpt, '--out', join(dir, 'p.onnx'), '--episodes', '1e12'])),
    ).toBe('--episodes must be in 0..100, got "1e12"');
    const base = ['--algo', 'seed', '--preset', 'micro', '--seed', '1', '--out', join(dir, 'run')];
    expect(await refusal(runCaptured(train, [...base, '--updates', '']))).toBe(
      '--updates must be a decimal number, got ""',
    );
    expect(await refusal(runCaptured(train, [...base, '--updates', '1e12']))).toBe(
      '--updates must be in 0..1000000, got "1e12"',
    );
    expect(await refusal(runCaptured(train, [...base, '--updates', '1', '--checkpoint-every=-1']))).toBe(
      '--checkpoint-every must be in 0..1000000, got "-1"',
    );
    expect(await refusal(runCaptured(train, [...base, '--updates', '1', '--eval-episodes=-5']))).toBe(
      '--eval-episodes must be in 0..1000, got "-5"',
    );
    expect(await refusal(runCaptured(train, [...base, '--updates', '1', '--set', 'groupSize=100000000']))).toMatch(
      /^--set: setting groupSize is outside/,
    );
    expect(await refusal(runCaptured(train, [...base, '--updates', '1', '--set', 'maxSkillTokens=1e9']))).toMatch(
      /^--set: setting maxSkillTokens is outside/,
    );
    expect(existsSync(ckpt) || existsSync(join(dir, 'run')) || existsSync(join(dir, 'p.onnx'))).toBe(false);
  });
});
