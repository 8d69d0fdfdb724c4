import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readCheckpoint, writeCheckpoint } from '../../model/checkpoint.ts';
import { initParameters } from '../../model/init.ts';
import { shopEnvironment } from '../../worlds/shop/env/environment.ts';
import { presetConfig } from '../../model/config.ts';
import { defaultTokenizer, tokenizerOf } from '../../text/tokenizer.ts';
import { CliError } from '../cli_error.ts';
import { run } from './ckpt.ts';
import { environmentOf } from '../../worlds/environments.ts';
import { ENVIRONMENT_NAMES } from '../../worlds/names.ts';
import { runCaptured } from '../testing.ts';

const dir = mkdtempSync(join(tmpdir(), 'seed-ckpt-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('seed ckpt', () => {
  it('init that cannot write its file fails in one line and leaves no file or temporary file behind', async () => {
    const sub = join(dir, 'blocked');
    mkdirSync(join(sub, 'taken.ckpt', 'inside'), { recursive: true });
    // --out names a directory, which a file never replaces.
    const err = await runCaptured(run, [
      'init',
      '--preset',
      'micro',
      '--seed',
      '1',
      '--out',
      join(sub, 'taken.ckpt'),
    ]).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(CliError);
    expect((err as CliError).message).toMatch(/^cannot write .*taken\.ckpt: not a regular file$/);
    expect(readdirSync(sub)).toEqual(['taken.ckpt']);
    const missing = join(dir, 'no-such-dir', 'a.ckpt');
    await expect(runCaptured(run, ['init', '--preset', 'micro', '--seed', '1', '--out', missing])).rejects.toThrow(
      `cannot write ${missing}: ENOENT`,
    );
  });

  it('init writes the seeded micro model, and inspect prints its config and metadata', async () => {
    const file = join(dir, 'micro.ckpt');
    const init = await runCaptured(run, ['init', '--preset', 'micro', '--seed', '42', '--out', file]);
    expect(init.code).toBe(0);
    const ck = readCheckpoint(new Uint8Array(readFileSync(file)));
    const tok = defaultTokenizer();
    expect(ck.config.vocabSize).toBe(tok.vocabSize);
    expect(ck.config.dModel).toBe(16);
    expect(ck.vocabHash).toBe(tok.hash);
    expect(ck.params).toEqual(initParameters(ck.config, 42));
    const shown = await runCaptured(run, ['inspect', file]);
    expect(shown.code).toBe(0);
    const json = JSON.parse(shown.stdout);
    expect(json.metadata).toEqual({ preset: 'micro', seed: 42, stage: 'init', updates: 0 });
    expect(json.config).toEqual(ck.config);
    expect(json.vocabMatches).toBe(true);
  });

  it('refuses truncated, foreign and missing files and bad options with one-line CliErrors', async () => {
    const file = join(dir, 'a.ckpt');
    await runCaptured(run, ['init', '--preset', 'micro', '--seed', '1', '--out', file]);
    const bytes = readFileSync(file);
    const cut = join(dir, 'cut.ckpt');
    writeFileSync(cut, bytes.subarray(0, 100));
    await expect(run(['inspect', cut])).rejects.toThrow(
      new CliError(`${cut}: truncated checkpoint: 100 of ${bytes.length} bytes`),
    );
    const text = join(dir, 'text.ckpt');
    writeFileSync(text, 'hello');
    await expect(run(['inspect', text])).rejects.toThrow(/not a SEED checkpoint/);
    await expect(run(['inspect', join(dir, 'missing')])).rejects.toThrow(/cannot read .*ENOENT/);
    await expect(run(['init', '--preset', 'big', '--seed', '1', '--out', file])).rejects.toThrow(
      /^--preset must be one of micro, tiny, small, got "big"$/,
    );
    await expect(run(['init', '--preset', 'tiny', '--seed', 'x', '--out', file])).rejects.toThrow(
      /--seed must be a decimal number, got "x"/,
    );
    await expect(run(['frobnicate'])).rejects.toBeInstanceOf(CliError);
  });

  it('refuses a checkpoint of a vocabulary no world has unless --any-vocab', async () => {
    const file = join(dir, 'other.ckpt');
    const ck = readCheckpoint(new Uint8Array(readFileSync(join(dir, 'micro.ckpt'))));
    writeFileSync(file, writeCheckpoint({ ...ck, vocabHash: 'deadbeef' }));
    const hashes = ENVIRONMENT_NAMES.map((name) => `${name}: ${tokenizerOf(environmentOf(name)).hash}`).join(', ');
    expect(hashes).toContain(`household: ${defaultTokenizer().hash}, shop: ${tokenizerOf(shopEnvironment()).hash}`);
    await expect(run(['inspect', file])).rejects.toThrow(
      `${file}: checkpoint was written for vocabulary "deadbeef", which is no world's of this build (${hashes}); --any-vocab reads it anyway`,
    );
    const shown = JSON.parse((await runCaptured(run, ['inspect', file, '--any-vocab'])).stdout);
    expect(shown.vocabMatches).toBe(false);
    expect(shown.world).toBe(null);
  });

  it("names a checkpoint's world, the shop's as the household's", async () => {
    const tok = tokenizerOf(shopEnvironment());
    const config = presetConfig('micro', tok.vocabSize);
    const file = join(dir, 'shop.ckpt');
    writeFileSync(
      file,
      writeCheckpoint({
        config,
        vocabHash: tok.hash,
        params: initParameters(config, 1),
        optimizer: null,
        metadata: {},
      }),
    );
    const shop = JSON.parse((await runCaptured(run, ['inspect', file])).stdout);
    expect(shop).toMatchObject({ world: 'shop', vocabHash: tok.hash, vocabMatches: true });
    const home = JSON.parse((await runCaptured(run, ['inspect', join(dir, 'micro.ckpt')])).stdout);
    expect(home).toMatchObject({ world: 'household', vocabMatches: true });
  });
});
