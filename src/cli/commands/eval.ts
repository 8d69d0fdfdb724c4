// `seed eval`: plays the fixed eval-seen or eval-unseen games, the validation games of either kind (or scene
// files) with a checkpoint's policy and prints its success; the options and the output are declared in `command`
// below (the --help text).
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { type Environment, GAME_SETS, type GameSet, gameSetRefusal, gameSetScenes } from '../../env/environment.ts';
import type { Checkpoint } from '../../model/checkpoint.ts';
import { isPresetName, PRESET_NAMES, presetOfShape, type ModelConfig, type PresetName } from '../../model/config.ts';
import { quote } from '../../common/json.ts';
import { checkConfig, defaultConfig, type TrainConfig } from '../../rl/config.ts';
import { evaluate } from '../../rl/evaluate.ts';
import { rlWorldOf } from '../../worlds/rl_worlds.ts';
import { tokenizerOf } from '../../text/tokenizer.ts';
import { noPositionals, numberOption, parseOptions, requireOption } from '../args.ts';
import { CliError } from '../cli_error.ts';
import { backendOption, openBackend } from '../backend.ts';
import {
  ENV_OPTION,
  environmentFrom,
  evalSetsInWords,
  readWorldScene,
  SCALE_OPTION,
  scoresInWords,
  worldsInWords,
} from '../environment_option.ts';
import { progressBar, readCheckpointFile } from '../io.ts';
import { defineCommand, usageLine } from '../help.ts';
import { LIMITS, MAX_SCENE_FILES } from '../limits.ts';

export const command = defineCommand({
  name: 'eval',
  summary:
    'success of a checkpoint on eval-seen, eval-unseen, validation games or scene files, overall and per task type',
  description:
    "Plays the fixed eval-seen or eval-unseen games, the validation or validation-unseen games (or every scene JSON file of a directory) once each with the checkpoint's policy, " +
    "with the settings of its run (sampling at its evalTemperature, 0.4 by default, the paper's; 0 = greedy), " +
    `and prints {"success": fraction, "per_type": {type: fraction}, "episodes": N} on stdout; in a world with a score (${worldsInWords(true)}) ` +
    `"score" follows "success": the mean of the world's score of each episode, in [0, 1] (success is a score of 1). ${scoresInWords()}`,
  options: {
    ckpt: { type: 'string', value: 'FILE', required: true, description: 'the checkpoint whose policy plays' },
    split: {
      type: 'string',
      value: GAME_SETS.join('|'),
      defaultText: 'none (required unless --scenes)',
      description:
        `the fixed evaluation set: eval-seen (games of what training shows) or eval-unseen (of what it holds out), ${evalSetsInWords()} games; ` +
        'or the validation games that settings are chosen on, of either kind: validation (seen; the teacher check plays them) or validation-unseen (what training holds out, in clusters no eval set holds; bench learn chooses on them), as many as eval-seen and eval-unseen',
    },
    episodes: {
      type: 'string',
      value: 'N',
      limit: LIMITS.eval.episodes,
      defaultText: 'every game of the split or every file of DIR',
      description: 'plays only the first N games (of DIR, the first N files, the only ones read)',
    },
    scenes: {
      type: 'string',
      value: 'DIR',
      defaultText: 'the games of --split',
      description: 'plays every .json scene file of DIR (in name order) instead of a split',
    },
    temperature: {
      type: 'string',
      value: 'T',
      limit: LIMITS.eval.temperature,
      defaultText: "the checkpoint's run's evalTemperature",
      description: 'the sampling temperature (0 = greedy)',
    },
    backend: backendOption('the backend that runs the policy'),
    env: ENV_OPTION,
    scale: SCALE_OPTION,
  },
});

const usage = usageLine(command);

function code(err: unknown): string {
  return (err as NodeJS.ErrnoException).code ?? (err as Error).message;
}

/** The scene files of a --scenes directory, by name: listed first, so that a command reads only those it plays. */
export async function sceneFiles(dir: string): Promise<string[]> {
  let names: string[];
  try {
    // Files only: a directory that happens to be named x.json is not a scene.
    names = (await readdir(dir, { withFileTypes: true }))
      .filter((e) => e.name.endsWith('.json') && (e.isFile() || e.isSymbolicLink()))
      .map((e) => e.name)
      .sort();
  } catch (err) {
    throw new CliError(`cannot read ${dir}: ${code(err)}`);
  }
  if (names.length === 0) throw new CliError(`${dir} holds no .json scene files`);
  if (names.length > MAX_SCENE_FILES)
    throw new CliError(`${dir} holds ${names.length} .json files; --scenes reads at most ${MAX_SCENE_FILES}`);
  return names.map((name) => join(dir, name));
}

export async function readScenes<S>(env: Environment<S>, files: readonly string[]): Promise<S[]> {
  const scenes: S[] = [];
  for (const file of files) scenes.push(await readWorldScene(env, file));
  return scenes;
}

/**
 * The preset of the checkpoint at `path`: the one its metadata names, which its weights' shape must be, or for
 * a checkpoint that names none, the preset of that shape.
 */
export function checkpointPreset(ck: Checkpoint, path: string): PresetName {
  const named: unknown = ck.metadata.preset;
  const shaped = presetOfShape(ck.config);
  if (named === undefined) {
    if (shaped === null)
      throw new CliError(
        `${path}: names no preset, and its model (${describeModel(ck.config)}) has none of the presets' shapes`,
      );
    return shaped;
  }
  if (typeof named !== 'string' || !isPresetName(named))
    throw new CliError(`${path}: metadata.preset is ${quote(named)}, not one of ${PRESET_NAMES.join(', ')}`);
  if (shaped !== named)
    throw new CliError(
      `${path}: metadata.preset is ${named}, but its model (${describeModel(ck.config)}) is not the ${named} preset's`,
    );
  return named;
}

function describeModel(c: ModelConfig): string {
  return `d ${c.dModel}, ${c.nLayer} layers, ${c.nHead} heads, MLP ${c.dMlp}, context ${c.contextLength}, lnEps ${c.lnEps}`;
}

/**
 * The settings a checkpoint's policy is evaluated with: its run's config (metadata.config of the checkpoint at
 * `path`, checked like any other config) over its preset's defaults, and --temperature when given.
 */
export function evalConfigOf(
  ck: Checkpoint,
  path: string,
  temperature: string | undefined,
  env: Environment,
): TrainConfig {
  const preset = checkpointPreset(ck, path);
  const saved: unknown = ck.metadata.config;
  if (saved !== undefined && (typeof saved !== 'object' || saved === null || Array.isArray(saved))) {
    throw new CliError(`${path}: metadata.config must be a JSON object, got ${quote(saved)}`);
  }
  const config = { ...defaultConfig(preset), ...rlWorldOf(env).trainDefaults, ...(saved ?? {}) };
  try {
    checkConfig(config);
  } catch (err) {
    throw new CliError(`${path}: metadata.config: ${(err as Error).message}`);
  }
  if (temperature !== undefined)
    config.evalTemperature = numberOption(temperature, 'temperature', LIMITS.eval.temperature);
  return config;
}

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, command);
  noPositionals(positionals, usage);
  const path = requireOption(values.ckpt, 'ckpt', usage);
  const env = environmentFrom(values.env, values.scale);
  let scenes: unknown[];
  if (values.scenes !== undefined) {
    const files = await sceneFiles(values.scenes);
    const episodes = numberOption(values.episodes, 'episodes', LIMITS.eval.episodes, files.length);
    scenes = await readScenes(env, files.slice(0, episodes));
  } else {
    const split = requireOption(values.split, 'split', usage);
    if (!(GAME_SETS as readonly string[]).includes(split))
      throw new CliError(`--split must be one of ${GAME_SETS.join(', ')}, got ${quote(split)}`, 2);
    const refusal = gameSetRefusal(env, split as GameSet);
    if (refusal !== null) throw new CliError(`--split ${split}: ${refusal}`, 2);
    scenes = gameSetScenes(env, split as GameSet);
    const episodes = numberOption(values.episodes, 'episodes', LIMITS.eval.episodes, scenes.length);
    scenes = scenes.slice(0, episodes);
  }
  const tok = tokenizerOf(env);
  const ck = await readCheckpointFile(path, tok);
  const config = evalConfigOf(ck, path, values.temperature, env);
  const backend = await openBackend(values.backend, ck.config, ck.params);
  const bar = progressBar('eval', scenes.length);
  const result = await evaluate(env, backend, tok, scenes, config, () => bar.increment());
  bar.stop();
  process.stdout.write(`${JSON.stringify(result)}\n`);
  return 0;
}
