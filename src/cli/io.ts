// The CLI's file I/O: every file a command writes (checkpoints, ONNX models, scenes, cards, reports, metrics)
// goes through writeAtomic or appendLine, so that a failure is one line (CliError) and never leaves a
// half-written file behind; every file a command reads goes through readInput, which reads no more than the
// command's maximum for that kind of file (limits.ts), so that /dev/zero or a huge file is refused, not
// loaded; progress goes to stderr (progress.ts).
import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { type FileHandle, lstat, mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { CheckpointError, readCheckpoint, type Checkpoint } from '../model/checkpoint.ts';
import { namedWorld, type EnvironmentName } from '../worlds/names.ts';
import { otherWorldCheckpoint, worldOfVocabulary, type Tokenizer } from '../text/tokenizer.ts';
import { CliError } from './cli_error.ts';
import { MAX_INPUT_BYTES } from './limits.ts';

export { progressBar } from './progress.ts';

function reason(err: unknown): string {
  return (err as NodeJS.ErrnoException).code ?? (err as Error).message;
}

/**
 * Writes `data` to a temporary file beside `path` (same directory, so the rename cannot cross file systems;
 * a unique name, so concurrent writers never share one), flushes it to disk and renames it over `path`:
 * a reader sees the old file or the new one, never a part. On failure the temporary file is removed.
 */
export async function writeAtomic(path: string, data: Uint8Array | string): Promise<void> {
  // A device or a directory is never replaced by a file (`--out /dev/full` run as root would otherwise
  // rename a regular file over the device).
  const existing = await stat(path).catch(() => null);
  if (existing && !existing.isFile()) throw new CliError(`cannot write ${path}: not a regular file`);
  const tmp = besidePath(path);
  let created = false;
  try {
    const file = await open(tmp, 'wx');
    created = true;
    try {
      await file.writeFile(data);
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(tmp, path);
  } catch (err) {
    if (created) await rm(tmp, { force: true }).catch(() => undefined);
    throw new CliError(`cannot write ${path}: ${reason(err)}`);
  }
}

/** A name for a temporary file beside `path`, unique to this call. */
const besidePath = (path: string) =>
  join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);

/**
 * Refuses an output that writeAtomic could not write (a folder that is missing or read-only, a path that is a
 * folder or a device), for a command to call before its work rather than lose it at the end: it creates and
 * removes a file where writeAtomic's temporary file will go.
 */
export async function checkWritable(path: string): Promise<void> {
  const existing = await stat(path).catch(() => null);
  if (existing && !existing.isFile()) throw new CliError(`cannot write ${path}: not a regular file`);
  const probe = besidePath(path);
  try {
    await (await open(probe, 'wx')).close();
  } catch (err) {
    throw new CliError(`cannot write ${path}: ${reason(err)}`);
  }
  await rm(probe, { force: true });
}

/**
 * Appends `text` to `path` (created if missing). A failed append (a full disk) is cut back to the file's
 * previous length, so the file never ends in a partial line, and becomes a CliError.
 */
export async function appendLine(path: string, text: string): Promise<void> {
  let file: FileHandle;
  try {
    file = await open(path, 'a');
  } catch (err) {
    throw new CliError(`cannot append to ${path}: ${reason(err)}`);
  }
  let size = -1;
  try {
    size = (await file.stat()).size;
    await file.appendFile(text);
  } catch (err) {
    if (size >= 0) await file.truncate(size).catch(() => undefined);
    throw new CliError(`cannot append to ${path}: ${reason(err)}`);
  } finally {
    await file.close().catch(() => undefined);
  }
}

/** A file a command names in an option: `--ckpt` and its path. */
export interface NamedPath {
  option: string;
  path: string;
}

function sameFile(a: string, b: string): boolean {
  if (resolve(a) === resolve(b)) return true;
  const x = statSync(a, { throwIfNoEntry: false });
  const y = statSync(b, { throwIfNoEntry: false });
  return x !== undefined && y !== undefined && x.dev === y.dev && x.ino === y.ino;
}

/**
 * Refuses an output that is one of the command's inputs (the same path, or the same file by another name: a
 * link, ./x): a command never writes over what it reads. Called before anything is written.
 */
export function checkOutputsApart(outputs: readonly NamedPath[], inputs: readonly NamedPath[]): void {
  for (const output of outputs) {
    const input = inputs.find((i) => sameFile(output.path, i.path));
    if (input)
      throw new CliError(
        `cannot write ${output.path} (${output.option}): it is the file ${input.option} reads, and a command never writes over its input`,
        2,
      );
  }
}

/**
 * The bytes of the file at `path`, at most `maxBytes` of them: a larger file (or an endless device) is refused
 * in one line once that many bytes have been read, or at once when the file's size says so.
 */
export async function readInput(path: string, maxBytes: number): Promise<Uint8Array> {
  let file: FileHandle;
  try {
    file = await open(path, 'r');
  } catch (err) {
    throw new CliError(`cannot read ${path}: ${reason(err)}`);
  }
  const tooLarge = () =>
    new CliError(`cannot read ${path}: larger than ${maxBytes} bytes, the most this command reads`);
  try {
    const info = await file.stat();
    if (info.isDirectory()) throw new CliError(`cannot read ${path}: EISDIR`);
    if (info.isFile() && info.size > maxBytes) throw tooLarge();
    const chunks: Uint8Array[] = [];
    let total = 0;
    for (;;) {
      const chunk = new Uint8Array(Math.min(1 << 20, maxBytes + 1 - total));
      const { bytesRead } = await file.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      chunks.push(chunk.subarray(0, bytesRead));
      total += bytesRead;
      if (total > maxBytes) throw tooLarge();
    }
    const out = new Uint8Array(total);
    let at = 0;
    for (const c of chunks) {
      out.set(c, at);
      at += c.length;
    }
    return out;
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw new CliError(`cannot read ${path}: ${reason(err)}`);
  } finally {
    await file.close().catch(() => undefined);
  }
}

/** A text file (UTF-8) of at most `maxBytes` bytes. */
export async function readTextInput(path: string, maxBytes: number): Promise<string> {
  return new TextDecoder().decode(await readInput(path, maxBytes));
}

/**
 * A checkpoint of the world whose tokenizer is `tok`; one of another world is refused naming the world it is of
 * and, by `remedy`, where the world is chosen: --env on the command line (envRemedy), or a file's env field
 * (envFieldRemedy).
 */
export async function readCheckpointFile(
  path: string,
  tok: Pick<Tokenizer, 'hash'>,
  remedy: (world: EnvironmentName) => string = envRemedy,
): Promise<Checkpoint> {
  try {
    return (await readCheckpointBytes(path, tok.hash)).checkpoint;
  } catch (err) {
    // A checkpoint of the other world fails on its vocabulary: say which world it is of.
    const other = err instanceof CliError ? await worldOfCheckpoint(path) : null;
    const here = worldOfVocabulary(tok.hash);
    if (other !== null && here !== null && other !== here)
      throw new CliError(
        `${err instanceof Error ? err.message : String(err)} (${otherWorldCheckpoint(other, here, remedy(other))})`,
      );
    throw err;
  }
}

/** How to name a world on the command line: its --env, which the default world may leave out. */
export function envRemedy(name: EnvironmentName): string {
  return namedWorld(name) === undefined ? `leave out --env (or pass --env ${name})` : `pass --env ${name}`;
}

/**
 * How to name a world where a file names it in its env field rather than --env (a job of `bench learn --worker`):
 * `whose` says whose field it is, "the job's".
 */
export function envFieldRemedy(whose: string): (world: EnvironmentName) => string {
  return (name) =>
    namedWorld(name) === undefined
      ? `leave out ${whose} env field (or set it to ${name})`
      : `set ${whose} env field to ${name}`;
}

/** The world whose vocabulary a readable checkpoint was written for, or null. */
async function worldOfCheckpoint(path: string): Promise<EnvironmentName | null> {
  try {
    const { checkpoint } = await readCheckpointBytes(path, null);
    return worldOfVocabulary(checkpoint.vocabHash);
  } catch {
    return null;
  }
}

/** Where a file or folder that cannot be used is moved aside: PATH.damaged, or .damaged.2 and on when taken. */
export async function asideName(path: string): Promise<string> {
  let aside = `${path}.damaged`;
  for (let n = 2; (await lstat(aside).catch(() => null)) !== null; n++) aside = `${path}.damaged.${n}`;
  return aside;
}

/** A checkpoint and its size in bytes; `vocabHash` null reads one written for any vocabulary. */
export async function readCheckpointBytes(
  path: string,
  vocabHash: string | null,
): Promise<{ checkpoint: Checkpoint; bytes: number }> {
  const bytes = await readInput(path, MAX_INPUT_BYTES.checkpoint);
  try {
    return { checkpoint: readCheckpoint(bytes, vocabHash === null ? {} : { vocabHash }), bytes: bytes.length };
  } catch (err) {
    if (err instanceof CheckpointError) throw new CliError(`${path}: ${err.message}`);
    throw err;
  }
}

/**
 * Creates `dir` and its parents (nothing when it exists), one level at a time: Node's recursive mkdir never
 * returns where a parent exists and creating the child in it still says ENOENT (/proc/x).
 */
export async function makeDir(dir: string): Promise<void> {
  try {
    await makeLevels(dir);
  } catch (err) {
    throw new CliError(`cannot create ${dir}: ${reason(err)}`);
  }
}

async function makeLevels(dir: string): Promise<void> {
  const info = await stat(dir).catch(() => null);
  if (info) {
    if (!info.isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
    return;
  }
  const parent = dirname(dir);
  if (parent !== dir) await makeLevels(parent);
  await mkdir(dir).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'EEXIST') throw err;
  });
}
