// The CLI's file I/O: every file a command writes (checkpoints, ONNX models, scenes, cards, reports, metrics)
// goes through writeAtomic or appendLine, so that a failure is one line (CliError) and never leaves a
// half-written file behind; checkpoints are read through readCheckpointFile; progress goes to stderr.
import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { CheckpointError, readCheckpoint, type Checkpoint } from '../model/checkpoint.ts';
import type { Tokenizer } from '../text/tokenizer.ts';
import { CliError } from './cli_error.ts';

function reason(err: unknown): string {
  return (err as NodeJS.ErrnoException).code ?? (err as Error).message;
}

/**
 * Writes `data` to a temporary file beside `path` (same directory, so the rename cannot cross file systems;
 * a unique name, so concurrent writers never share one), flushes it to disk and renames it over `path`:
 * a reader sees the old file or the new one, never a part. On failure the temporary file is removed.
 */
export async function writeAtomic(path: string, data: Uint8Array | string): Promise<void> {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
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

/**
 * Appends `text` to `path` (created if missing). A failed append (a full disk) is cut back to the file's
 * previous length, so the file never ends in a partial line, and becomes a CliError.
 */
export async function appendLine(path: string, text: string): Promise<void> {
  let file;
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

export async function readCheckpointFile(path: string, tok: Pick<Tokenizer, 'hash'>): Promise<Checkpoint> {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await readFile(path));
  } catch (err) {
    throw new CliError(`cannot read ${path}: ${reason(err)}`);
  }
  try {
    return readCheckpoint(bytes, { vocabHash: tok.hash });
  } catch (err) {
    if (err instanceof CheckpointError) throw new CliError(`${path}: ${err.message}`);
    throw err;
  }
}

export interface Bar {
  update(value: number, payload?: Record<string, string>): void;
  increment(): void;
  stop(): void;
}

/** A cli-progress bar on stderr; when stderr is not a terminal, a plain line every 10% instead. */
export function progressBar(label: string, total: number): Bar {
  if (!process.stderr.isTTY) {
    let value = 0;
    let shown = -1;
    const show = (info = '') => {
      const tenth = total > 0 ? Math.floor((10 * value) / total) : 10;
      if (tenth > shown) {
        shown = tenth;
        process.stderr.write(`${label}: ${value}/${total} ${info}\n`);
      }
    };
    return {
      update(v, payload) {
        value = v;
        show(payload?.info);
      },
      increment() {
        value++;
        show();
      },
      stop() {},
    };
  }
  const { SingleBar, Presets } = createRequire(import.meta.url)('cli-progress') as {
    SingleBar: new (options: object, preset: object) => Bar & { start(total: number, value: number, payload?: object): void };
    Presets: { shades_classic: object };
  };
  const bar = new SingleBar({ format: `${label} [{bar}] {value}/{total} {info}`, stream: process.stderr, hideCursor: true }, Presets.shades_classic);
  bar.start(total, 0, { info: '' });
  return bar;
}

/** Creates `dir` and its parents (nothing when it exists). */
export async function makeDir(dir: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true });
  } catch (err) {
    throw new CliError(`cannot create ${dir}: ${reason(err)}`);
  }
}
