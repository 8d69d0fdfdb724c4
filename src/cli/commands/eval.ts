// `seed eval --ckpt FILE --split seen|unseen [--episodes N] [--scenes DIR] [--temperature T] [--backend cpu|webgpu]`
// Plays the fixed eval-seen or eval-unseen games (or every scene JSON file of DIR) once each with the
// checkpoint's policy at temperature 0.4 (the paper's; 0 = greedy) and prints
// {"success": fraction, "per_type": {type: fraction}, "episodes": N} on stdout.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { evalScenes } from '../../env/generate.ts';
import { TINY } from '../../env/scale.ts';
import { SceneError, sceneFromJson, type Scene } from '../../env/scene.ts';
import type { Checkpoint } from '../../model/checkpoint.ts';
import { defaultConfig, type TrainConfig } from '../../rl/config.ts';
import { evaluate } from '../../rl/evaluate.ts';
import { defaultTokenizer } from '../../text/tokenizer.ts';
import { parseIntOption, parseOptions, requireOption } from '../args.ts';
import { CliError } from '../cli_error.ts';
import { openBackend } from '../backend.ts';
import { progressBar, readCheckpointFile } from '../io.ts';

export const summary = 'success of a checkpoint on eval-seen, eval-unseen or scene files, overall and per task type';

const usage = 'npm run seed -- eval --ckpt FILE --split seen|unseen [--episodes N] [--scenes DIR] [--temperature T] [--backend cpu|webgpu]';

export async function loadScenes(dir: string): Promise<Scene[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith('.json')).sort();
  } catch (err) {
    throw new CliError(`cannot read ${dir}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  if (names.length === 0) throw new CliError(`${dir} holds no .json scene files`);
  const scenes: Scene[] = [];
  for (const name of names) {
    const path = join(dir, name);
    try {
      scenes.push(sceneFromJson(await readFile(path, 'utf8')));
    } catch (err) {
      if (err instanceof SceneError || err instanceof SyntaxError) throw new CliError(`${path}: ${err.message}`);
      throw err;
    }
  }
  return scenes;
}

/** The settings a checkpoint's policy is evaluated with: its run's config, and --temperature when given. */
export function evalConfigOf(ck: Checkpoint, temperature: string | undefined): TrainConfig {
  const preset = ck.metadata.preset === 'small' ? 'small' : 'tiny';
  const config = { ...defaultConfig(preset), ...((ck.metadata.config as object | undefined) ?? {}) };
  if (temperature !== undefined) {
    const t = Number(temperature);
    if (!(t >= 0 && Number.isFinite(t))) throw new CliError(`--temperature must be a number >= 0, got "${temperature}"`, 2);
    config.evalTemperature = t;
  }
  return config;
}

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(
    args,
    { ckpt: { type: 'string' }, split: { type: 'string' }, episodes: { type: 'string' }, scenes: { type: 'string' }, temperature: { type: 'string' }, backend: { type: 'string', default: 'cpu' } },
    usage,
  );
  if (positionals.length) throw new CliError(`unexpected argument "${positionals[0]}"\nusage: ${usage}`, 2);
  const path = requireOption(values.ckpt, 'ckpt', usage);
  let scenes: Scene[];
  if (values.scenes !== undefined) {
    scenes = await loadScenes(values.scenes);
  } else {
    const split = requireOption(values.split, 'split', usage);
    if (split !== 'seen' && split !== 'unseen') throw new CliError(`--split must be seen or unseen, got "${split}"`, 2);
    scenes = evalScenes(split, TINY);
  }
  const episodes = parseIntOption(values.episodes, 'episodes', scenes.length);
  if (episodes < 1) throw new CliError('--episodes must be at least 1', 2);
  scenes = scenes.slice(0, episodes);
  const tok = defaultTokenizer();
  const ck = await readCheckpointFile(path, tok);
  const config = evalConfigOf(ck, values.temperature);
  const backend = await openBackend(values.backend!, ck.config, ck.params);
  const bar = progressBar('eval', scenes.length);
  const result = await evaluate(backend, tok, scenes, config, () => bar.increment());
  bar.stop();
  process.stdout.write(JSON.stringify(result) + '\n');
  return 0;
}
