// The weights a new run starts from: the warm start shipped beside the page (model/config.ts, warmStartFile)
// for the worlds and presets that have one (their facts' shippedWarmStarts), seeded random weights for the others. A warm
// start that should ship and cannot be used stops the start with a message that says why; the page then stays
// as it was, and another preset or Reset starts a run.
import { messageOf } from '../common/errors.ts';
import { theWorld } from '../worlds/facts.ts';
import { namedWorld, type EnvironmentName } from '../worlds/names.ts';
import { readCheckpoint, type Checkpoint } from '../model/checkpoint.ts';
import { configDifference, type ModelConfig, type PresetName } from '../model/config.ts';
import { initParameters } from '../model/init.ts';

export interface WarmStarts {
  /**
   * The shipped warm-start checkpoint of a world's preset, or null when none ships for it; throws when one
   * should ship and cannot be fetched.
   */
  warmStart(preset: PresetName, env: EnvironmentName): Promise<{ bytes: Uint8Array; source: string } | null>;
}

/** Why a warm-start file is no checkpoint, in words: a static host answers a missing file with its web page. */
function badWarmStart(bytes: Uint8Array, err: unknown): string {
  const head = new TextDecoder().decode(bytes.subarray(0, 64)).trimStart();
  if (head.startsWith('<'))
    return 'the server sent a web page (HTML) instead of a checkpoint, so the file is probably missing from the site';
  return messageOf(err);
}

/** What a run starts from when no warm start ships for its world's preset, in words. */
function noWarmStart(env: EnvironmentName, preset: PresetName, seed: number): string {
  const which = namedWorld(env) === undefined ? `the ${preset} preset` : `${theWorld(env)}'s ${preset} preset`;
  return `a seeded random initialisation, seed ${seed} (no warm start ships for ${which})`;
}

/** The world's warm start for the preset, or seeded random weights (`random`) when none ships for it. */
export async function initialWeights(
  host: WarmStarts,
  env: EnvironmentName,
  preset: PresetName,
  config: ModelConfig,
  seed: number,
  vocabHash: string,
): Promise<{ params: Float32Array; source: string; random: boolean }> {
  const shipped = await host.warmStart(preset, env);
  if (!shipped) return { params: initParameters(config, seed), source: noWarmStart(env, preset, seed), random: true };
  let ck: Checkpoint;
  try {
    ck = readCheckpoint(shipped.bytes, { vocabHash });
  } catch (err) {
    throw new Error(`${shipped.source} cannot be used: ${badWarmStart(shipped.bytes, err)}`);
  }
  const difference = configDifference(ck.config, config);
  if (difference) throw new Error(`${shipped.source} is not of the ${preset} preset's model: ${difference}`);
  return { params: ck.params, source: shipped.source, random: false };
}
