import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { writeCheckpoint } from '../../model/checkpoint.ts';
import { presetConfig } from '../../model/config.ts';
import { readPolicyOnnx } from '../../onnx/load.ts';
import { checkOnnxModel } from '../../onnx/onnx_checker.ts';
import { trainedLikeParameters } from '../../onnx/testing/fixtures.ts';
import { environmentOf } from '../../worlds/environments.ts';
import { defaultTokenizer, tokenizerOf } from '../../text/tokenizer.ts';
import { CliError } from '../cli_error.ts';
import { run } from './export_onnx.ts';
import { runCaptured } from '../testing.ts';

const dir = mkdtempSync(join(tmpdir(), 'export-onnx-'));
const tokenizer = defaultTokenizer();
const config = presetConfig('micro', tokenizer.vocabSize);
const params = trainedLikeParameters(config, 8);
const metadata = {
  preset: 'micro',
  seed: 8,
  algorithm: 'grpo',
  updates: 40,
  success: { 'eval-seen': 0.25, 'eval-unseen': 0.1 },
};

function checkpointFile(name: string, vocabHash = tokenizer.hash): string {
  const path = join(dir, name);
  writeFileSync(path, writeCheckpoint({ config, vocabHash, params, optimizer: null, metadata }));
  return path;
}

afterEach(() => vi.restoreAllMocks());
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('export-onnx', () => {
  it('writes a verified, self-describing file and prints a JSON summary', async () => {
    const out = join(dir, 'policy.onnx');
    const { code, stdout } = await runCaptured(run, [
      '--ckpt',
      checkpointFile('ok.ckpt'),
      '--out',
      out,
      '--episodes',
      '3',
    ]);
    expect(code).toBe(0);
    const summary = JSON.parse(stdout);
    expect(summary.verification.ok).toBe(true);
    // 6 random cases; 3 episodes + 1 with a skill block, alone and 3 of them as one batch.
    expect(summary.verification.cases).toBe(6 + 5);
    expect(summary.verification.maxAbsDiff).toBeLessThan(1e-4);
    const file = readFileSync(out);
    expect(checkOnnxModel(file).outputs.logits).toEqual(['batch', 'sequence', tokenizer.vocabSize]);
    const loaded = readPolicyOnnx(file);
    expect(loaded.card).toEqual({
      algorithm: 'grpo',
      updates: 40,
      seed: 8,
      success: metadata.success,
      extra: { preset: 'micro' },
    });
    expect(loaded.vocabulary).toEqual(tokenizer.tokens);
    expect(loaded.vocabularyHash).toBe(tokenizer.hash);
    expect(Buffer.from(loaded.params.buffer).equals(Buffer.from(params.buffer))).toBe(true);
  });

  it('--env shop exports a shop checkpoint in its vocabulary; without it the refusal names the world', async () => {
    const shopTok = tokenizerOf(environmentOf('shop'));
    const shopConfig = presetConfig('micro', shopTok.vocabSize);
    const path = join(dir, 'shop.ckpt');
    writeFileSync(
      path,
      writeCheckpoint({
        config: shopConfig,
        vocabHash: shopTok.hash,
        params: trainedLikeParameters(shopConfig, 2),
        optimizer: null,
        metadata: { stage: 'warmstart', env: 'shop', scale: 'tiny', seed: 2 },
      }),
    );
    const out = join(dir, 'shop.onnx');
    const refused = await runCaptured(run, ['--ckpt', path, '--out', out]).catch((e: unknown) => e);
    expect((refused as Error).message).toMatch(/it is a shop checkpoint, not a household one: pass --env shop/);
    expect(existsSync(out)).toBe(false);
    const { code, stdout } = await runCaptured(run, ['--ckpt', path, '--out', out, '--env', 'shop', '--episodes', '2']);
    expect(code).toBe(0);
    const summary = JSON.parse(stdout);
    expect(summary.env).toBe('shop');
    // 6 random cases; 2 shop expert episodes + 1 with a skill block, alone and 3 of them as one batch.
    expect(summary.verification.cases).toBe(6 + 4);
    const loaded = readPolicyOnnx(readFileSync(out));
    expect(loaded.vocabularyHash).toBe(shopTok.hash);
    expect(loaded.card.extra).toMatchObject({ env: 'shop', scale: 'tiny' });
  });

  it('refuses a checkpoint of another vocabulary and writes nothing', async () => {
    const out = join(dir, 'other.onnx');
    const err = await runCaptured(run, ['--ckpt', checkpointFile('other.ckpt', '0badc0de'), '--out', out]).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(CliError);
    expect((err as Error).message).toMatch(/other\.ckpt: checkpoint was written for vocabulary 0badc0de/);
    expect(existsSync(out)).toBe(false);
  });

  it('refuses a file that is not a checkpoint, and missing options, with usage', async () => {
    const notCkpt = join(dir, 'not.ckpt');
    writeFileSync(notCkpt, 'hello');
    await expect(runCaptured(run, ['--ckpt', notCkpt, '--out', join(dir, 'n.onnx')])).rejects.toThrow(
      /not\.ckpt: not a SEED checkpoint/,
    );
    const missing = await runCaptured(run, ['--ckpt', notCkpt]).catch((e: unknown) => e);
    expect((missing as CliError).exitCode).toBe(2);
    expect((missing as CliError).message).toMatch(/^missing --out; usage: npm run seed -- export-onnx/);
  });

  it('on a full disk writes nothing: neither the model nor a temporary file', async () => {
    const sub = mkdtempSync(join(dir, 'full-'));
    const probe = await open(join(sub, '.probe'), 'w');
    const proto = Object.getPrototypeOf(probe) as { writeFile(this: FileHandle, data: Uint8Array): Promise<void> };
    await probe.close();
    rmSync(join(sub, '.probe'));
    const real = proto.writeFile;
    vi.spyOn(proto, 'writeFile').mockImplementation(async function (this: FileHandle, data: Uint8Array) {
      await real.call(this, data.subarray(0, 1000));
      throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
    });
    const out = join(sub, 'policy.onnx');
    await expect(
      runCaptured(run, ['--ckpt', checkpointFile('full.ckpt'), '--out', out, '--episodes', '0']),
    ).rejects.toThrow(new CliError(`cannot write ${out}: ENOSPC`));
    expect(readdirSync(sub)).toEqual([]);
  });

  it('from the command line: one line on stderr and a non-zero exit, no stack trace', () => {
    const res = spawnSync(
      'npx',
      [
        'tsx',
        '--import',
        './scripts/register-raw.mjs',
        'src/seed.ts',
        'export-onnx',
        '--ckpt',
        join(dir, 'absent.ckpt'),
        '--out',
        join(dir, 'a.onnx'),
      ],
      {
        encoding: 'utf8',
      },
    );
    expect(res.status).toBe(1);
    expect(res.stderr.trim()).toBe(`error: cannot read ${join(dir, 'absent.ckpt')}: ENOENT`);
  });
});
