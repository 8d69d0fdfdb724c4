// The CLI's thread options: `--threads N` before the command, SEED_THREADS=N, and one-line errors.
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_THREADS, cpuThreads, installThreadHost } from '../backend/cpu/threads.ts';
import { CliError } from './cli_error.ts';
import { setUpThreads } from './threads.ts';

afterAll(() => installThreadHost(null));

describe('setUpThreads', () => {
  it('takes a leading --threads N (or --threads=N) off the arguments and sets the count', () => {
    expect(setUpThreads(['--threads', '3', 'train', '--seed', '1'], {})).toEqual(['train', '--seed', '1']);
    expect(cpuThreads()).toBe(3);
    expect(setUpThreads(['--threads=2', 'bench', 'cpu'], {})).toEqual(['bench', 'cpu']);
    expect(cpuThreads()).toBe(2);
  });

  it("reads SEED_THREADS, which a --threads option overrides, and leaves a command's own options alone", () => {
    expect(setUpThreads(['eval', '--threads', '9'], { SEED_THREADS: '1' })).toEqual(['eval', '--threads', '9']);
    expect(cpuThreads()).toBe(1);
    setUpThreads(['--threads', '4', 'eval'], { SEED_THREADS: '1' });
    expect(cpuThreads()).toBe(4);
  });

  it('refuses a count that is not an integer from 1 to the cap, in one line', () => {
    for (const [argv, env] of [
      [['--threads', '0', 'train'], {}],
      [['--threads', 'x', 'train'], {}],
      [['--threads', String(MAX_THREADS + 1), 'train'], {}],
      [['--threads'], {}],
      [['train'], { SEED_THREADS: '2.5' }],
    ] as [string[], Record<string, string>][]) {
      let err: unknown;
      try {
        setUpThreads(argv, env);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(CliError);
      expect((err as CliError).message).not.toContain('\n');
      expect((err as CliError).exitCode).toBe(2);
    }
  });
});
