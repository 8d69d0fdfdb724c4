// `seed ckpt init --preset P --seed S --out FILE`: writes a freshly initialised checkpoint.
// `seed ckpt inspect FILE [--any-vocab]`: prints a checkpoint's config and metadata as JSON, or refuses the
// file in one line (truncated, corrupted, wrong version, or written for another vocabulary).
import { readFile } from 'node:fs/promises';
import { isPresetName, presetConfig, PRESETS } from '../../model/config.ts';
import { CheckpointError, readCheckpoint, writeCheckpoint, type Checkpoint } from '../../model/checkpoint.ts';
import { initParameters } from '../../model/init.ts';
import { defaultTokenizer } from '../../text/tokenizer.ts';
import { parseIntOption, parseOptions, requireOption } from '../args.ts';
import { CliError } from '../cli_error.ts';
import { writeAtomic } from '../io.ts';

export const summary = 'create (init) or inspect a model checkpoint';

const usage = 'npm run seed -- ckpt init --preset micro|tiny|small --seed S --out FILE | ckpt inspect FILE [--any-vocab]';

export async function run(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === 'init') return init(rest);
  if (sub === 'inspect') return inspect(rest);
  throw new CliError(`usage: ${usage}`, 2);
}

async function init(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, { preset: { type: 'string' }, seed: { type: 'string' }, out: { type: 'string' } }, usage);
  if (positionals.length > 0) throw new CliError(`unexpected argument "${positionals[0]}"\nusage: ${usage}`, 2);
  const preset = requireOption(values.preset, 'preset', usage);
  if (!isPresetName(preset)) throw new CliError(`unknown preset "${preset}" (known: ${Object.keys(PRESETS).join(', ')})`, 2);
  const seed = parseIntOption(values.seed, 'seed');
  if (seed < 0 || seed > 0xffffffff) throw new CliError(`--seed must be in [0, 2^32), got ${seed}`, 2);
  const out = requireOption(values.out, 'out', usage);
  const tokenizer = defaultTokenizer();
  const config = presetConfig(preset, tokenizer.vocabSize);
  const ck: Checkpoint = {
    config,
    vocabHash: tokenizer.hash,
    params: initParameters(config, seed),
    optimizer: null,
    metadata: { preset, seed, stage: 'init', updates: 0 },
  };
  const bytes = writeCheckpoint(ck);
  await writeAtomic(out, bytes);
  process.stderr.write(`wrote ${out} (${bytes.length} bytes, ${ck.params.length} parameters)\n`);
  process.stdout.write(JSON.stringify(describe(ck, bytes.length, true), null, 2) + '\n');
  return 0;
}

async function inspect(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, { 'any-vocab': { type: 'boolean', default: false } }, usage);
  if (positionals.length !== 1) throw new CliError(`ckpt inspect takes one FILE\nusage: ${usage}`, 2);
  const path = positionals[0];
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await readFile(path));
  } catch (err) {
    throw new CliError(`cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const hash = defaultTokenizer().hash;
  let ck: Checkpoint;
  try {
    ck = readCheckpoint(bytes, values['any-vocab'] ? {} : { vocabHash: hash });
  } catch (err) {
    if (err instanceof CheckpointError) throw new CliError(`${path}: ${err.message}`);
    throw err;
  }
  process.stdout.write(JSON.stringify(describe(ck, bytes.length, ck.vocabHash === hash), null, 2) + '\n');
  return 0;
}

function describe(ck: Checkpoint, bytes: number, vocabMatches: boolean) {
  let s = 0;
  for (let i = 0; i < ck.params.length; i++) s += ck.params[i] * ck.params[i];
  return {
    bytes,
    config: ck.config,
    vocabHash: ck.vocabHash,
    vocabMatches,
    parameters: ck.params.length,
    parameterNorm: Number(Math.sqrt(s).toPrecision(6)),
    optimizer: ck.optimizer ? { step: ck.optimizer.step } : null,
    metadata: ck.metadata,
  };
}
