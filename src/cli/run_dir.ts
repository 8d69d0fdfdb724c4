// A training run's directory (`train --out DIR`): one run at a time holds it through a lock file, and a
// directory that already holds files is only continued (--resume) or started over (--force), never
// overwritten unasked. --force removes the old run's files only once the new run's inputs have all been read
// and checked (train.ts calls clearRunFiles then), so a refused start leaves the old run as it was. `bench
// learn` holds its report directory through the same lock.
import {
  closeSync,
  linkSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { CliError } from './cli_error.ts';
import { makeDir } from './io.ts';

/** The lock file: the id of the process that holds the directory, created exclusively. */
export const LOCK_FILE = 'run.lock';
/** The files of a run, removed by --force. */
export const RUN_FILES = ['metrics.jsonl', 'last.ckpt', 'reference.ckpt', 'teacher.ckpt'] as const;

export interface RunDirLock {
  /** Removes the lock file (once; also done when the process exits or is interrupted). */
  release(): void;
}

function code(err: unknown): string {
  return (err as NodeJS.ErrnoException).code ?? (err as Error).message;
}

/**
 * Whether process `pid` still runs. A process killed but not yet reaped by its parent (a zombie) still
 * answers kill(pid, 0), so where /proc says what state a process is in, a zombie ('Z') or a dead one ('X')
 * counts as ended.
 */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return code(err) === 'EPERM';
  }
  return !['Z', 'X'].includes(processState(pid) ?? '');
}

/** The state letter of /proc/PID/stat (R, S, D, Z, ...), or null where there is no /proc. */
function processState(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "PID (command) STATE ...": the command may hold spaces and parentheses, so the state follows the last ')'.
    return (
      stat
        .slice(stat.lastIndexOf(')') + 1)
        .trim()
        .split(' ')[0] ?? null
    );
  } catch {
    return null;
  }
}

/** What the lock's path holds when it is not a regular file ("a directory"), or null when it is one (or gone). */
function notAFile(path: string): string | null {
  const info = lstatSync(path, { throwIfNoEntry: false });
  if (!info || info.isFile()) return null;
  return info.isDirectory() ? 'a directory' : info.isSymbolicLink() ? 'a symbolic link' : 'not a regular file';
}

/** The process id written in a lock file; null when the file is unreadable or holds something else. */
function holderOf(path: string): number | null {
  try {
    const text = readFileSync(path, 'utf8').trim();
    return /^[1-9]\d{0,9}$/.test(text) ? Number(text) : null;
  } catch {
    return null;
  }
}

function createLock(path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx');
  } catch (err) {
    if (code(err) === 'EEXIST') return false;
    throw new CliError(`cannot lock ${path}: ${code(err)}`);
  }
  try {
    writeSync(fd, `${process.pid}\n`);
  } catch (err) {
    // A lock without its process id (a full disk) would read as stale to the next run: none is left.
    closeSync(fd);
    unlinkSync(path);
    throw new CliError(`cannot lock ${path}: ${code(err)}`);
  }
  closeSync(fd);
  return true;
}

/**
 * Moves a stale lock (left by `holder`, a process that is no longer running) out of the way. It is renamed
 * first and checked after, so that of two processes taking over the same stale lock at once, the one that
 * would remove the other's fresh lock puts it back instead.
 */
function removeStaleLock(path: string, holder: number | null): void {
  const aside = `${path}.${process.pid}.stale`;
  try {
    renameSync(path, aside);
  } catch (err) {
    if (code(err) === 'ENOENT') return;
    throw new CliError(`cannot take over ${path}: ${code(err)}`);
  }
  const kind = notAFile(aside);
  if (kind) {
    // Replaced by something else since it was read: put back as it was.
    try {
      renameSync(aside, path);
    } catch {
      // The path was taken again meanwhile: what was moved aside stays beside it, under its .stale name.
    }
    throw new CliError(`cannot take over ${path}: it became ${kind}`);
  }
  if (holderOf(aside) !== holder) {
    try {
      linkSync(aside, path);
    } catch {
      // The path was taken again meanwhile; either way the lock is not ours to take.
    }
    unlinkSync(aside);
    return;
  }
  unlinkSync(aside);
  process.stderr.write(`taking over ${path}: its process ${holder ?? '(unreadable id)'} is no longer running\n`);
}

/**
 * Locks `dir` for this process; throws a CliError naming the holder when another running process has it, and
 * `why` one process at a time may write `dir`.
 */
export function lockRunDir(dir: string, why = 'one run at a time writes a run directory'): RunDirLock {
  const path = join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    if (createLock(path)) return holdLock(path);
    // A lock this code did not write is left alone: nothing tells whether a run holds it.
    const kind = notAFile(path);
    if (kind)
      throw new CliError(`cannot lock ${dir}: ${path} is ${kind}, not a lock file; remove it if no run uses ${dir}`);
    const holder = holderOf(path);
    if (holder !== null && isRunning(holder)) {
      throw new CliError(`${dir} is in use by process ${holder} (${path}); ${why}`);
    }
    removeStaleLock(path, holder);
  }
  throw new CliError(`cannot lock ${dir}: other processes keep taking ${path}`);
}

function holdLock(path: string): RunDirLock {
  let held = true;
  const release = () => {
    if (!held) return;
    held = false;
    process.off('exit', release);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    if (holderOf(path) === process.pid) {
      try {
        unlinkSync(path);
      } catch {
        // Already gone: nothing to release.
      }
    }
  };
  // An interrupted run releases the directory, then ends as the signal would have ended it.
  const onSignal = (signal: NodeJS.Signals) => {
    release();
    process.kill(process.pid, signal);
  };
  process.on('exit', release);
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return { release };
}

/**
 * Creates and locks a run directory for a new run (refused when it already holds files, unless `force`: the
 * caller then calls clearRunFiles once its inputs are checked) or for `resume`. The caller releases the lock
 * when the run ends.
 */
export async function openRunDir(dir: string, mode: { resume: boolean; force: boolean }): Promise<RunDirLock> {
  if (mode.resume && mode.force)
    throw new CliError('--resume continues the run in --out and --force starts it over: give one of them', 2);
  await makeDir(dir);
  const lock = lockRunDir(dir);
  try {
    if (!mode.resume) {
      const files = readdirSync(dir).filter((name) => name !== LOCK_FILE);
      if (files.length > 0 && !mode.force) {
        const shown = files.slice(0, 3).join(', ') + (files.length > 3 ? ', ...' : '');
        throw new CliError(`${dir} already holds files (${shown}): --resume continues its run, --force starts over`, 2);
      }
    }
  } catch (err) {
    lock.release();
    if (err instanceof CliError) throw err;
    throw new CliError(`cannot prepare ${dir}: ${code(err)}`);
  }
  return lock;
}

/** Removes the run files of a directory this process has locked (--force), leaving any other file. */
export async function clearRunFiles(dir: string): Promise<void> {
  try {
    for (const name of RUN_FILES) await rm(join(dir, name), { force: true });
  } catch (err) {
    throw new CliError(`cannot clear ${dir}: ${code(err)}`);
  }
}
