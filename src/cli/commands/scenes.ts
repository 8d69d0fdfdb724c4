// `seed scenes`: writes generated scenes as scene JSON files and prints their paths; its options and
// what it writes are declared in `command` below (the --help text).
import { mkdtemp, open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { EVAL_SEED, SPLITS } from '../../env/environment.ts';
import { ENV_OPTION, environmentFrom, evalSetsInWords, SCALE_OPTION } from '../environment_option.ts';
import { quote } from '../../common/json.ts';
import { noPositionals, numberOption, parseOptions, requireOption } from '../args.ts';
import { CliError } from '../cli_error.ts';
import { defineCommand, usageLine } from '../help.ts';
import { makeDir, progressBar } from '../io.ts';
import { LIMITS } from '../limits.ts';

/** The count from which progress shows on stderr: a second or more of work (5 to 15 ms a scene); fewer end sooner. */
export const PROGRESS_FROM = 100;

export const command = defineCommand({
  name: 'scenes',
  summary: 'write generated scenes of a world (train, eval-seen or eval-unseen) as scene JSON files',
  description:
    'Writes N generated scenes of a split as scene JSON files, DIR/<split>-<seed>-<index>.json, and prints their paths on stdout, one per line ' +
    `(from ${PROGRESS_FROM} scenes, its progress on stderr); a write that fails (a full disk) keeps none of them. ` +
    `The fixed evaluation sets are --split seen and --split unseen with --seed ${EVAL_SEED}, and --count each world's: ${evalSetsInWords()}.`,
  options: {
    split: {
      type: 'string',
      value: SPLITS.join('|'),
      required: true,
      description: 'the split the scenes are drawn from: training rooms, or the eval-seen or eval-unseen games',
    },
    count: {
      type: 'string',
      value: 'N',
      limit: LIMITS.scenes.count,
      required: true,
      description: 'how many scenes to write',
    },
    seed: {
      type: 'string',
      value: 'S',
      limit: LIMITS.scenes.seed,
      required: true,
      description: 'the seed of the generator',
    },
    out: {
      type: 'string',
      value: 'DIR',
      required: true,
      description: 'the directory the files go to (created when missing)',
    },
    scale: SCALE_OPTION,
    env: ENV_OPTION,
  },
});

const usage = usageLine(command);

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, command);
  noPositionals(positionals, usage);
  const split = requireOption(values.split, 'split', usage);
  if (!(SPLITS as readonly string[]).includes(split))
    throw new CliError(`--split must be one of ${SPLITS.join(', ')}, got ${quote(split)}`, 2);
  const count = numberOption(values.count, 'count', LIMITS.scenes.count);
  const seed = numberOption(values.seed, 'seed', LIMITS.scenes.seed);
  const out = requireOption(values.out, 'out', usage);
  const env = environmentFrom(values.env, values.scale);
  await makeDir(out);
  const width = String(count - 1).length;
  const bar = count >= PROGRESS_FROM ? progressBar('scenes', count) : null;
  function* files() {
    for (let i = 0; i < count; i++) {
      const name = `${split}-${seed}-${String(i).padStart(width, '0')}.json`;
      yield { name, text: env.sceneToJson(env.sceneOf(split as 'train' | 'seen' | 'unseen', i, seed)) };
    }
  }
  let paths: string[];
  try {
    paths = await writeAllOrNone(out, files(), () => bar?.increment());
  } finally {
    bar?.stop();
  }
  for (const path of paths) process.stdout.write(`${path}\n`);
  process.stderr.write(`wrote ${count} ${env.variant} ${env.name} ${split} scenes (seed ${seed}) to ${out}\n`);
  return 0;
}

/** Writes a new file and flushes it to disk; throws the file system's error. */
async function writeNew(path: string, text: string): Promise<void> {
  const file = await open(path, 'wx');
  try {
    await file.writeFile(text);
    await file.sync();
  } finally {
    await file.close();
  }
}

/**
 * Writes the files into `out`, all of them or none: each into a folder of this call's inside `out` (the same file
 * system) first, then every one renamed into place once all are written, so that a write that fails midway (a
 * full disk) leaves nothing in `out`. Returns the paths written; `write` is the writer of one file.
 */
export async function writeAllOrNone(
  out: string,
  files: Iterable<{ name: string; text: string }>,
  onWritten: () => void = () => undefined,
  write: (path: string, text: string) => Promise<void> = writeNew,
): Promise<string[]> {
  let staging: string;
  try {
    staging = await mkdtemp(join(out, '.scenes-'));
  } catch (err) {
    throw new CliError(`cannot write into ${out}: ${code(err)}`);
  }
  const names: string[] = [];
  try {
    for (const { name, text } of files) {
      try {
        await write(join(staging, name), text);
      } catch (err) {
        throw new CliError(
          `cannot write ${join(out, name)}: ${code(err)} (none of the ${names.length} written before it is kept)`,
        );
      }
      names.push(name);
      onWritten();
    }
    for (const [i, name] of names.entries()) {
      try {
        await rename(join(staging, name), join(out, name));
      } catch (err) {
        throw new CliError(
          `cannot write ${join(out, name)}: ${code(err)} (${i} of the ${names.length} files are in ${out})`,
        );
      }
    }
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return names.map((name) => join(out, name));
}

function code(err: unknown): string {
  return (err as NodeJS.ErrnoException).code ?? (err as Error).message;
}
