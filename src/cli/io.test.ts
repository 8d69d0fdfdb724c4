import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EnvironmentName } from '../worlds/names.ts';
import { environmentOf } from '../worlds/environments.ts';
import { writeCheckpoint } from '../model/checkpoint.ts';
import { presetConfig } from '../model/config.ts';
import { initParameters } from '../model/init.ts';
import { tokenizerOf } from '../text/tokenizer.ts';
import { CliError } from './cli_error.ts';
import { appendLine, envFieldRemedy, makeDir, readCheckpointFile, readInput, writeAtomic } from './io.ts';

const dir = mkdtempSync(join(tmpdir(), 'seed-io-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

const probe = await open(import.meta.filename, 'r');
/** FileHandle's prototype, whose methods a test replaces to fail part-way like a full disk. */
const fileHandleProto = Object.getPrototypeOf(probe) as {
  writeFile(this: FileHandle, data: string | Uint8Array): Promise<void>;
  appendFile(this: FileHandle, data: string): Promise<void>;
};
await probe.close();

async function failure(p: Promise<unknown>): Promise<CliError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CliError);
  expect((err as CliError).message).not.toContain('\n');
  return err as CliError;
}

describe('writeAtomic', () => {
  it('writes and replaces a file, leaving nothing else in the directory', async () => {
    const sub = join(dir, 'ok');
    mkdirSync(sub);
    const path = join(sub, 'a.json');
    await writeAtomic(path, 'first');
    await writeAtomic(path, new TextEncoder().encode('second'));
    expect(readFileSync(path, 'utf8')).toBe('second');
    expect(readdirSync(sub)).toEqual(['a.json']);
  });

  it('concurrent writers to one path never share a temporary file', async () => {
    const sub = join(dir, 'concurrent');
    mkdirSync(sub);
    const path = join(sub, 'x.txt');
    const texts = Array.from({ length: 8 }, (_, i) => String(i).repeat(50_000));
    await Promise.all(texts.map((t) => writeAtomic(path, t)));
    expect(texts).toContain(readFileSync(path, 'utf8'));
    expect(readdirSync(sub)).toEqual(['x.txt']);
  });

  it('into a directory that does not exist: one line, and no file', async () => {
    const path = join(dir, 'missing', 'a.ckpt');
    const err = await failure(writeAtomic(path, 'x'));
    expect(err.message).toBe(`cannot write ${path}: ENOENT`);
    expect(readdirSync(dir)).not.toContain('missing');
  });

  it('a write that fails part-way (a full disk) removes the temporary file and keeps the old target', async () => {
    const sub = join(dir, 'full');
    mkdirSync(sub);
    const path = join(sub, 'policy.onnx');
    writeFileSync(path, 'old');
    const real = fileHandleProto.writeFile;
    vi.spyOn(fileHandleProto, 'writeFile').mockImplementation(async function (
      this: FileHandle,
      data: string | Uint8Array,
    ) {
      await real.call(this, data.slice(0, 3));
      throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
    });
    expect((await failure(writeAtomic(path, 'new contents'))).message).toBe(`cannot write ${path}: ENOSPC`);
    expect(readdirSync(sub)).toEqual(['policy.onnx']);
    expect(readFileSync(path, 'utf8')).toBe('old');
  });

  it('never replaces a directory, a pipe or a device with a file', async () => {
    const sub = join(dir, 'blocked');
    mkdirSync(join(sub, 'target'), { recursive: true });
    expect((await failure(writeAtomic(join(sub, 'target'), 'x'))).message).toBe(
      `cannot write ${join(sub, 'target')}: not a regular file`,
    );
    // A pipe stands for a device here: a test that replaced /dev/null (run as root) would break the machine.
    const pipe = join(sub, 'pipe');
    expect(spawnSync('mkfifo', [pipe]).status).toBe(0);
    expect((await failure(writeAtomic(pipe, 'x'))).message).toBe(`cannot write ${pipe}: not a regular file`);
    expect(statSync(pipe).isFIFO()).toBe(true);
    expect(readdirSync(sub).sort()).toEqual(['pipe', 'target']);
  });
});

describe('readInput', () => {
  it('reads a file within its maximum', async () => {
    const path = join(dir, 'small.txt');
    writeFileSync(path, 'hello');
    expect(new TextDecoder().decode(await readInput(path, 5))).toBe('hello');
    expect((await failure(readInput(path, 4))).message).toBe(
      `cannot read ${path}: larger than 4 bytes, the most this command reads`,
    );
  });

  it('refuses an endless device after reading its maximum, and a directory, in one line', async () => {
    expect((await failure(readInput('/dev/zero', 1000))).message).toMatch(/larger than 1000 bytes/);
    expect((await failure(readInput(dir, 1000))).message).toBe(`cannot read ${dir}: EISDIR`);
    expect((await failure(readInput(join(dir, 'absent'), 1000))).message).toBe(
      `cannot read ${join(dir, 'absent')}: ENOENT`,
    );
  });
});

describe('appendLine', () => {
  it('appends, creating the file', async () => {
    const path = join(dir, 'metrics.jsonl');
    await appendLine(path, '{"update":0}\n');
    await appendLine(path, '{"update":1}\n');
    expect(readFileSync(path, 'utf8')).toBe('{"update":0}\n{"update":1}\n');
  });

  it('a full device is one line, not an uncaught ENOSPC', async () => {
    const err = await failure(appendLine('/dev/full', 'line\n'));
    expect(err.message).toBe('cannot append to /dev/full: ENOSPC');
  });

  it('an append that fails part-way is cut back to the previous end of the file', async () => {
    const path = join(dir, 'partial.jsonl');
    writeFileSync(path, '{"update":0}\n');
    const real = fileHandleProto.appendFile;
    vi.spyOn(fileHandleProto, 'appendFile').mockImplementation(async function (this: FileHandle, data: string) {
      await real.call(this, data.slice(0, 5));
      throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
    });
    const err = await failure(appendLine(path, '{"update":1}\n'));
    expect(err.message).toBe(`cannot append to ${path}: ENOSPC`);
    expect(readFileSync(path, 'utf8')).toBe('{"update":0}\n');
  });

  it('into a directory that does not exist: one line', async () => {
    const path = join(dir, 'nowhere', 'metrics.jsonl');
    expect((await failure(appendLine(path, 'x\n'))).message).toBe(`cannot append to ${path}: ENOENT`);
  });
});

describe('makeDir', () => {
  it('refuses a path under a file in one line', async () => {
    const file = join(dir, 'plain');
    writeFileSync(file, '');
    expect((await failure(makeDir(join(file, 'sub')))).message).toMatch(
      /^cannot create .*plain\/sub: (ENOTDIR|EEXIST)$/,
    );
  });
});

describe('readCheckpointFile', () => {
  /** A micro checkpoint of a world's vocabulary. */
  function checkpointOf(name: EnvironmentName): string {
    const tok = tokenizerOf(environmentOf(name));
    const config = presetConfig('micro', tok.vocabSize);
    const path = join(dir, `${name}.ckpt`);
    const ck = { config, vocabHash: tok.hash, params: initParameters(config, 1), optimizer: null, metadata: {} };
    writeFileSync(path, writeCheckpoint(ck));
    return path;
  }

  it('says a checkpoint of the other world is one, names both worlds and the --env that reads it', async () => {
    const shop = checkpointOf('shop');
    const home = checkpointOf('household');
    const shopTok = tokenizerOf(environmentOf('shop'));
    const homeTok = tokenizerOf(environmentOf('household'));
    expect((await failure(readCheckpointFile(shop, homeTok))).message).toMatch(
      /\(it is a shop checkpoint, not a household one: pass --env shop\)$/,
    );
    expect((await failure(readCheckpointFile(home, shopTok))).message).toMatch(
      /\(it is a household checkpoint, not a shop one: leave out --env \(or pass --env household\)\)$/,
    );
    expect((await readCheckpointFile(shop, shopTok)).vocabHash).toBe(shopTok.hash);
  });

  it("names a file's env field, not --env, where the file chooses the world (a job of --worker)", async () => {
    const shop = checkpointOf('shop');
    const home = checkpointOf('household');
    const job = envFieldRemedy("the job's");
    const shopTok = tokenizerOf(environmentOf('shop'));
    const homeTok = tokenizerOf(environmentOf('household'));
    expect((await failure(readCheckpointFile(shop, homeTok, job))).message).toMatch(
      /\(it is a shop checkpoint, not a household one: set the job's env field to shop\)$/,
    );
    expect((await failure(readCheckpointFile(home, shopTok, job))).message).toMatch(
      /\(it is a household checkpoint, not a shop one: leave out the job's env field \(or set it to household\)\)$/,
    );
  });
});
