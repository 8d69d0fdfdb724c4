// `seed ckpt init --preset P --seed S --out FILE`: writes a freshly initialised checkpoint.
// `seed ckpt inspect FILE [--any-vocab]`: prints a checkpoint's config and metadata as JSON, or refuses the
// file in one line (truncated, corrupted, wrong version, or written for another vocabulary).
import { isPresetName, presetConfig, PRESETS } from '../../model/config.ts';
import { writeCheckpoint, type Checkpoint } from '../../model/checkpoint.ts';
import { initParameters } from '../../model/init.ts';
import { defaultTokenizer } from '../../text/tokenizer.ts';
import { quote } from '../../common/json.ts';
import { noPositionals, numberOption, parseOptions, requireOption, usageError } from '../args.ts';
import { CliError } from '../cli_error.ts';
import { readCheckpointBytes, writeAtomic } from '../io.ts';
import { LIMITS, withLimits } from '../limits.ts';

export const summary = 'create (init) or inspect a model checkpoint';

const usage = withLimits('npm run seed -- ckpt init --preset micro|tiny|small --seed S --out FILE | ckpt inspect FILE [--any-vocab]', LIMITS.ckptInit);

export async function run(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === 'init') return init(rest);
  if (sub === 'inspect') return inspect(rest);
  throw usageError(sub === undefined ? 'missing init or inspect' : `unknown ckpt command ${quote(sub)}`, usage);
}

async function init(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, { preset: { type: 'string' }, seed: { type: 'string' }, out: { type: 'string' } }, usage);
  noPositionals(positionals, usage);
  const preset = requireOption(values.preset, 'preset', usage);
  if (!isPresetName(preset)) throw new CliError(`unknown preset ${quote(preset)} (known: ${Object.keys(PRESETS).join(', ')})`, 2);
  const seed = numberOption(values.seed, 'seed', LIMITS.ckptInit.seed);
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
  if (positionals.length !== 1) throw usageError('ckpt inspect takes one FILE', usage);
  const path = positionals[0];
  const hash = defaultTokenizer().hash;
  const { checkpoint: ck, bytes } = await readCheckpointBytes(path, values['any-vocab'] ? null : hash);
  process.stdout.write(JSON.stringify(describe(ck, bytes, ck.vocabHash === hash), null, 2) + '\n');
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
