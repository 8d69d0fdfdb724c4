import { afterAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultConfig } from '../../rl/config.ts';
import { applySetOptions } from '../args.ts';
import { CliError } from '../cli_error.ts';
import { run } from './loss.ts';
import { runCaptured } from '../testing.ts';

const dir = mkdtempSync(join(tmpdir(), 'seed-loss-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

const LN2 = Math.log(2);

// Two tokens, lambda 0.5, beta 2, clip 0.2, kl_coef 0.1, both in mask and opd_mask (N = N_opd = 2).
// token 0: l_student = l_old = l_ref = l_skill = -1 -> r = 1, A = 1: GRPO term -1, coefGrpo -1/2;
//          Delta 0, g 1/2, coefOpd = -0.5 * 0.5 / 2 = -1/8; KL 0, coefKl 0. coef = -5/8.
// token 1: l_student -2 = l_old (r = 1), A = -1: GRPO term +1, coefGrpo +1/2; l_skill = -2 (g = 1/2),
//          coefOpd -1/8; l_ref = -2 + ln 2: KL term 1 - ln 2, coefKl = 0.1 (1 - 2) / 2 = -1/20. coef = 0.325.
// L_GRPO = 0, L_OPD = 0, KL = (1 - ln 2) / 2, total = 0.1 (1 - ln 2) / 2.
const input = {
  lambda: 0.5,
  beta: 2,
  clip: 0.2,
  kl_coef: 0.1,
  tokens: [
    { l_student: -1, l_skill: -1, l_old: -1, l_ref: -1, advantage: 1, mask: 1, opd_mask: 1 },
    { l_student: -2, l_skill: -2, l_old: -2, l_ref: -2 + LN2, advantage: -1, mask: 1, opd_mask: 1 },
  ],
};

async function cliErrorOf(args: string[]): Promise<string> {
  const err = await runCaptured(run, args).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CliError);
  return (err as Error).message;
}

describe('seed loss', () => {
  it('prints the loss terms and per-token delta, gate, coef', async () => {
    const { code, stdout } = await runCaptured(run, ['--in', file('ok.json', JSON.stringify(input))]);
    expect(code).toBe(0);
    const out = JSON.parse(stdout);
    expect(Object.keys(out)).toEqual(['L_GRPO', 'L_OPD', 'KL', 'total', 'tokens']);
    expect(out.L_GRPO).toBeCloseTo(0, 7);
    expect(out.L_OPD).toBeCloseTo(0, 7);
    expect(out.KL).toBeCloseTo((1 - LN2) / 2, 6);
    expect(out.total).toBeCloseTo((0.1 * (1 - LN2)) / 2, 6);
    expect(out.tokens).toHaveLength(2);
    expect(out.tokens[0]).toEqual({ delta: 0, gate: 0.5, coef: -0.625 });
    expect(out.tokens[1].delta).toBe(0);
    expect(out.tokens[1].gate).toBe(0.5);
    expect(out.tokens[1].coef).toBeCloseTo(0.325, 6);
  });

  it('refuses the loss settings that --set refuses, with the same words', async () => {
    for (const [field, key, value] of [
      ['lambda', 'lambda', -50],
      ['beta', 'beta', -3],
      ['clip', 'clip', 7],
      ['kl_coef', 'klCoef', -1],
      ['clip', 'clip', 1],
    ] as const) {
      const path = file(`${field}-${value}.json`, JSON.stringify({ ...input, [field]: value }));
      const setMessage = (() => {
        try {
          applySetOptions(defaultConfig('tiny'), [`${key}=${value}`]);
        } catch (err) {
          return (err as Error).message;
        }
        throw new Error(`--set ${key}=${value} was accepted`);
      })();
      expect(setMessage.startsWith('--set: setting ')).toBe(true);
      expect(await cliErrorOf(['--in', path])).toBe(`${path}: ${setMessage.slice('--set: '.length)}`);
    }
    const edge = file('edge.json', JSON.stringify({ ...input, lambda: 100, beta: 0, clip: 0.999, kl_coef: 10 }));
    expect((await runCaptured(run, ['--in', edge])).code).toBe(0);
  });

  it('accepts --backend cpu and refuses unknown backends clearly', async () => {
    const path = file('ok2.json', JSON.stringify(input));
    expect((await runCaptured(run, ['--in', path, '--backend', 'cpu'])).code).toBe(0);
    expect(await cliErrorOf(['--in', path, '--backend', 'tpu'])).toMatch(/--backend must be cpu or webgpu, got "tpu"/);
  });

  it('names the problem of a malformed or missing file', async () => {
    const bad = (name: string, content: string) => ['--in', file(name, content)];
    const noSkill = { ...input, tokens: [input.tokens[0], { ...input.tokens[1], l_skill: undefined }] };
    expect(await cliErrorOf(bad('a.json', JSON.stringify(noSkill)))).toMatch(
      /a\.json: tokens\[1\]\.l_skill is missing/,
    );
    expect(await cliErrorOf(bad('b.json', '{"lambda": 0.01,'))).toMatch(/b\.json: not valid JSON/);
    expect(await cliErrorOf(bad('c.json', JSON.stringify({ ...input, tokens: [] })))).toMatch(/tokens must hold/);
    const wrongType = { ...input, tokens: [{ ...input.tokens[0], mask: '1' }] };
    expect(await cliErrorOf(bad('d.json', JSON.stringify(wrongType)))).toMatch(/tokens\[0\]\.mask must be a finite/);
    expect(await cliErrorOf(['--in', join(dir, 'absent.json')])).toMatch(/cannot read .*absent\.json: ENOENT/);
    expect(await cliErrorOf(['--in', dir])).toMatch(/cannot read .*: EISDIR/);
    expect(await cliErrorOf([])).toMatch(/missing --in/);
  });

  it('refuses log-probabilities whose ratio overflows', async () => {
    const huge = { ...input, tokens: [{ ...input.tokens[0], l_student: 0, l_old: -900, advantage: -1 }] };
    expect(await cliErrorOf(['--in', file('huge.json', JSON.stringify(huge))])).toMatch(/^L_GRPO is not finite/);
  });

  it('exits non-zero with one line on stderr when run as a command', () => {
    const path = file('nan.json', JSON.stringify(input).replace('"l_ref":-1,', '"l_ref":NaN,'));
    const res = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--import', './scripts/register-raw.mjs', 'src/seed.ts', 'loss', '--in', path],
      { encoding: 'utf8' },
    );
    expect(res.status).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    expect(res.stderr).toMatch(/^error: .*nan\.json: not valid JSON/);
  });
});
