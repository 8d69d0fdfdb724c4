// `bench learn --out DIR` holds DIR through the run directory's lock (run_dir.ts) for the whole invocation: a
// second invocation on the same DIR is refused in one line naming the holder, a lock left by a process that has
// ended is taken over, and the lock goes when the invocation ends, however it ends.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { CliError } from '../../cli/cli_error.ts';
import { LOCK_FILE } from '../../cli/run_dir.ts';
import { run } from './main.ts';

const root = mkdtempSync(join(tmpdir(), 'learn-lock-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

/** Options that pass every check before the lock: the tiny warm start (of the benchmark's preset), one cheap arm. */
const args = (out: string, ...more: string[]) => [
  '--init',
  'public/warmstart-tiny.ckpt',
  '--algos',
  'grpo',
  '--controls',
  'none',
  '--lambdas',
  '0.1',
  '--out',
  out,
  ...more,
];

/** The CliError `run` ends with, and what it wrote to stderr before. */
async function refusal(argv: string[]): Promise<{ error: CliError; stderr: string }> {
  let stderr = '';
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  });
  try {
    await run(argv);
  } catch (err) {
    expect(err).toBeInstanceOf(CliError);
    return { error: err as CliError, stderr };
  } finally {
    vi.mocked(process.stderr.write).mockRestore();
  }
  throw new Error('expected a CliError');
}

describe('bench learn --out: one invocation at a time', () => {
  it('refuses a directory another running invocation holds, naming it and its process, and leaves its lock', async () => {
    const out = join(root, 'busy');
    mkdirSync(out);
    const holder = spawn('sleep', ['60'], { stdio: 'ignore' });
    try {
      writeFileSync(join(out, LOCK_FILE), `${holder.pid}\n`);
      const { error, stderr } = await refusal(args(out));
      expect(error.message).toBe(
        `${out} is in use by process ${holder.pid} (${join(out, LOCK_FILE)}); one bench learn at a time writes its report directory`,
      );
      expect(stderr).toBe('');
      expect(readFileSync(join(out, LOCK_FILE), 'utf8')).toBe(`${holder.pid}\n`);
    } finally {
      holder.kill();
    }
  });

  it('takes over the lock of an invocation that has ended, says so, and releases it when it stops', async () => {
    const out = join(root, 'stale');
    mkdirSync(out);
    const dead = Number(
      spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout,
    );
    writeFileSync(join(out, LOCK_FILE), `${dead}\n`);
    // The record's index beside --record is not one: the invocation stops there, after it took the lock.
    writeFileSync(join(out, 'index.json'), '{}');
    const { error, stderr } = await refusal(args(out, '--record', join(out, 'r.json')));
    expect(stderr).toBe(`taking over ${join(out, LOCK_FILE)}: its process ${dead} is no longer running\n`);
    expect(error.message).toMatch(/index\.json" is not an index of recorded runs/);
    expect(existsSync(join(out, LOCK_FILE))).toBe(false);
  });
});
