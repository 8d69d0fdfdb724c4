import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CliError } from './cli_error.ts';
import { clearRunFiles, LOCK_FILE, lockRunDir, openRunDir } from './run_dir.ts';

// writeSync can be made to fail like a full disk.
vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  return { ...real, writeSync: vi.fn(real.writeSync) };
});

const dir = mkdtempSync(join(tmpdir(), 'seed-rundir-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

/** The id of a process that has ended. */
function deadPid(): number {
  return Number(
    spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout,
  );
}

function messageOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(CliError);
    return (err as Error).message;
  }
  throw new Error('expected a CliError');
}

describe('the run directory lock', () => {
  it('is created with this process id and removed on release', () => {
    const sub = join(dir, 'plain');
    mkdirSync(sub);
    const lock = lockRunDir(sub);
    expect(readFileSync(join(sub, LOCK_FILE), 'utf8')).toBe(`${process.pid}\n`);
    lock.release();
    lock.release();
    expect(readdirSync(sub)).toEqual([]);
  });

  it('on a full disk: one line, and no lock file without its process id', () => {
    const sub = join(dir, 'full');
    mkdirSync(sub);
    vi.mocked(fs.writeSync).mockImplementationOnce(() => {
      throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
    });
    expect(messageOf(() => lockRunDir(sub))).toBe(`cannot lock ${join(sub, LOCK_FILE)}: ENOSPC`);
    expect(readdirSync(sub)).toEqual([]);
  });

  it('refuses a directory held by a running process, naming it', () => {
    const sub = join(dir, 'held');
    mkdirSync(sub);
    writeFileSync(join(sub, LOCK_FILE), `${process.ppid}\n`);
    expect(messageOf(() => lockRunDir(sub))).toBe(
      `${sub} is in use by process ${process.ppid} (${join(sub, LOCK_FILE)}); one run at a time writes a run directory`,
    );
    const lock = lockRunDir(join(dir, 'plain'));
    expect(messageOf(() => lockRunDir(join(dir, 'plain')))).toMatch(new RegExp(`in use by process ${process.pid}`));
    lock.release();
  });

  it('takes over a stale lock (a process that has ended, or an unreadable file) and says so', () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    for (const content of [`${deadPid()}\n`, 'garbage']) {
      const sub = join(dir, `stale-${content.length}`);
      mkdirSync(sub);
      writeFileSync(join(sub, LOCK_FILE), content);
      const lock = lockRunDir(sub);
      expect(readFileSync(join(sub, LOCK_FILE), 'utf8')).toBe(`${process.pid}\n`);
      lock.release();
      expect(readdirSync(sub)).toEqual([]);
    }
    expect(String(stderr.mock.calls[0][0])).toMatch(
      /^taking over .*run\.lock: its process \d+ is no longer running\n$/,
    );
    expect(String(stderr.mock.calls[1][0])).toMatch(/its process \(unreadable id\) is no longer running/);
  });
});

describe('a lock that is no lock file, or held by a process that was killed', () => {
  it('refuses a run.lock that is a directory in one line, and removes nothing', () => {
    const sub = join(dir, 'lock-dir');
    mkdirSync(join(sub, LOCK_FILE, 'inside'), { recursive: true });
    expect(messageOf(() => lockRunDir(sub))).toBe(
      `cannot lock ${sub}: ${join(sub, LOCK_FILE)} is a directory, not a lock file; remove it if no run uses ${sub}`,
    );
    expect(readdirSync(sub)).toEqual([LOCK_FILE]);
    expect(readdirSync(join(sub, LOCK_FILE))).toEqual(['inside']);
  });

  it('takes over a lock whose process was killed but not yet reaped (a zombie, which kill(pid, 0) still finds)', async () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const sub = join(dir, 'zombie');
    mkdirSync(sub);
    // A child killed while this process, its parent, is not listening for its end stays a zombie until then.
    const child = spawn('sleep', ['30'], { stdio: 'ignore' });
    const pid = child.pid!;
    const ended = new Promise((resolve) => child.once('exit', resolve));
    try {
      child.kill('SIGKILL');
      for (let i = 0; i < 1000 && !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z '); i++)
        spawnSync('sleep', ['0.01']);
      expect(readFileSync(`/proc/${pid}/stat`, 'utf8')).toContain(') Z ');
      writeFileSync(join(sub, LOCK_FILE), `${pid}\n`);
      const lock = lockRunDir(sub);
      expect(readFileSync(join(sub, LOCK_FILE), 'utf8')).toBe(`${process.pid}\n`);
      lock.release();
      expect(String(stderr.mock.calls[0][0])).toBe(
        `taking over ${join(sub, LOCK_FILE)}: its process ${pid} is no longer running\n`,
      );
    } finally {
      await ended;
    }
  });
});

describe('openRunDir', () => {
  it('creates a new directory, refuses one that holds files without --resume or --force', async () => {
    const sub = join(dir, 'run');
    (await openRunDir(sub, { resume: false, force: false })).release();
    writeFileSync(join(sub, 'metrics.jsonl'), '{"update":0}\n');
    writeFileSync(join(sub, 'notes.txt'), 'mine');
    const err = await openRunDir(sub, { resume: false, force: false }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(CliError);
    expect((err as Error).message).toBe(
      `${sub} already holds files (metrics.jsonl, notes.txt): --resume continues its run, --force starts over`,
    );
    expect(readFileSync(join(sub, 'metrics.jsonl'), 'utf8')).toBe('{"update":0}\n');
    expect(existsSync(join(sub, LOCK_FILE))).toBe(false);
    (await openRunDir(sub, { resume: true, force: false })).release();
    await expect(openRunDir(sub, { resume: true, force: true })).rejects.toThrow(/give one of them/);
  });

  it('--force removes nothing when the directory is opened; clearRunFiles then removes the run files and nothing else', async () => {
    const sub = join(dir, 'forced');
    mkdirSync(sub);
    for (const name of ['metrics.jsonl', 'last.ckpt', 'reference.ckpt', 'notes.txt'])
      writeFileSync(join(sub, name), 'x');
    const lock = await openRunDir(sub, { resume: false, force: true });
    expect(readdirSync(sub).sort()).toEqual(
      ['last.ckpt', 'metrics.jsonl', 'notes.txt', 'reference.ckpt', LOCK_FILE].sort(),
    );
    await clearRunFiles(sub);
    expect(readdirSync(sub).sort()).toEqual(['notes.txt', LOCK_FILE].sort());
    lock.release();
  });
});
