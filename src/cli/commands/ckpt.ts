// `seed ckpt init` writes a freshly initialised checkpoint; `seed ckpt inspect` prints a checkpoint's config and
// metadata as JSON with the world whose vocabulary it has, or refuses the file in one line (truncated,
// corrupted, wrong version, or written for a vocabulary of no world). Their options are declared in `initCommand` and `inspectCommand` (the --help texts).
import { presetConfig } from '../../model/config.ts';
import { writeCheckpoint, type Checkpoint } from '../../model/checkpoint.ts';
import { initParameters } from '../../model/init.ts';
import { quote } from '../../common/json.ts';
import { ENVIRONMENT_NAMES, DEFAULT_WORLD, type EnvironmentName } from '../../worlds/names.ts';
import { environmentOf } from '../../worlds/environments.ts';
import { defaultTokenizer, tokenizerOf, worldOfVocabulary } from '../../text/tokenizer.ts';
import {
  noPositionals,
  numberOption,
  parseOptions,
  presetOf,
  presetOption,
  requireOption,
  usageError,
} from '../args.ts';
import { CliError } from '../cli_error.ts';
import { runGroup } from '../group.ts';
import { defineCommand, usageLine, type GroupSpec } from '../help.ts';
import { readCheckpointBytes, writeAtomic } from '../io.ts';
import { LIMITS } from '../limits.ts';

export const initCommand = defineCommand({
  name: 'ckpt init',
  summary: 'write a freshly initialised checkpoint of a preset',
  description:
    "Writes the preset's seeded initial weights (no optimizer state) as a checkpoint file and prints its description as JSON on stdout, as `ckpt inspect` does.",
  options: {
    preset: presetOption({ required: true, description: "the model's size" }),
    seed: {
      type: 'string',
      value: 'S',
      limit: LIMITS.ckptInit.seed,
      required: true,
      description: 'the seed of the initial weights',
    },
    out: { type: 'string', value: 'FILE', required: true, description: 'the checkpoint file to write' },
  },
});

export const inspectCommand = defineCommand({
  name: 'ckpt inspect',
  summary: "print a checkpoint's size, config, parameter norm and metadata as JSON",
  description:
    `Prints the checkpoint's size in bytes, model config, vocabulary hash, the world whose vocabulary it is (${ENVIRONMENT_NAMES.join(', ')}), parameter count and norm, optimizer step and metadata as JSON on stdout; ` +
    'a truncated, corrupted or foreign file is refused in one line.',
  positionals: 'FILE',
  options: {
    'any-vocab': {
      type: 'boolean',
      default: false,
      description: 'read a checkpoint written for a vocabulary of no world of this build (refused otherwise)',
    },
  },
});

export const group: GroupSpec = {
  name: 'ckpt',
  summary: 'create (init) or inspect a model checkpoint',
  description:
    'A checkpoint holds the model config, the flat parameter buffer, the AdamW state of a run and its metadata.',
  noun: 'ckpt command',
  members: {
    init: async () => ({ command: initCommand, run: init }),
    inspect: async () => ({ command: inspectCommand, run: inspect }),
  },
};

export function run(args: string[]): Promise<number> {
  return runGroup(group, args);
}

async function init(args: string[]): Promise<number> {
  const usage = usageLine(initCommand);
  const { values, positionals } = parseOptions(args, initCommand);
  noPositionals(positionals, usage);
  const preset = presetOf(values.preset, usage);
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
  process.stdout.write(`${JSON.stringify(describe(ck, bytes.length, DEFAULT_WORLD), null, 2)}\n`);
  return 0;
}

async function inspect(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, inspectCommand);
  if (positionals.length !== 1) throw usageError('ckpt inspect takes one FILE', usageLine(inspectCommand));
  const path = positionals[0];
  const { checkpoint: ck, bytes } = await readCheckpointBytes(path, null);
  const world = worldOfVocabulary(ck.vocabHash);
  if (world === null && !values['any-vocab']) {
    const known = ENVIRONMENT_NAMES.map((name) => `${name}: ${tokenizerOf(environmentOf(name)).hash}`);
    throw new CliError(
      `${path}: checkpoint was written for vocabulary ${quote(ck.vocabHash)}, which is no world's of this build (${known.join(', ')}); --any-vocab reads it anyway`,
    );
  }
  process.stdout.write(`${JSON.stringify(describe(ck, bytes, world), null, 2)}\n`);
  return 0;
}

/** What inspect and init print; `world` is the world whose vocabulary the checkpoint has (null: none of this build's). */
function describe(ck: Checkpoint, bytes: number, world: EnvironmentName | null) {
  let s = 0;
  for (let i = 0; i < ck.params.length; i++) s += ck.params[i] * ck.params[i];
  return {
    bytes,
    config: ck.config,
    vocabHash: ck.vocabHash,
    world,
    vocabMatches: world !== null,
    parameters: ck.params.length,
    parameterNorm: Number(Math.sqrt(s).toPrecision(6)),
    optimizer: ck.optimizer ? { step: ck.optimizer.step } : null,
    metadata: ck.metadata,
  };
}
