import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CliError } from './cli_error.ts';
import { appendLine, makeDir, writeAtomic } from './io.ts';

const dir = mkdtempSync(join(tmpdir(), 'seed-io-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

async function failure(p: Promise<unknown>): Promise<CliError> {
  const err = await p.then(() => null, (e: unknown) => e);
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

  it('a failure after the temporary file was written removes it and keeps the old target', async () => {
    const sub = join(dir, 'blocked');
    mkdirSync(join(sub, 'target'), { recursive: true });
    writeFileSync(join(sub, 'target', 'inside'), 'kept');
    // Renaming a file over a non-empty directory fails once the temporary file is complete.
    await failure(writeAtomic(join(sub, 'target'), 'x'));
    expect(readdirSync(sub)).toEqual(['target']);
    expect(readFileSync(join(sub, 'target', 'inside'), 'utf8')).toBe('kept');
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
    const probe = await open(path, 'r');
    const proto = Object.getPrototypeOf(probe) as { appendFile(this: typeof probe, data: string): Promise<void> };
    await probe.close();
    const real = proto.appendFile;
    vi.spyOn(proto, 'appendFile').mockImplementation(async function (this: typeof probe, data: string) {
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
    expect((await failure(makeDir(join(file, 'sub')))).message).toMatch(/^cannot create .*plain\/sub: (ENOTDIR|EEXIST)$/);
  });
});
