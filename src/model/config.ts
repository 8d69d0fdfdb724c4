// Model configuration and the named presets, with the warm start each ships (or not). The vocabulary size
// comes from the tokenizer (text/tokenizer.ts, `defaultTokenizer().vocabSize`) and is passed in as a number.
//
// Planning cost of a forward, per token: 2 (12 d^2 L + V d) + 4 L T d FLOP (T = tokens attended to); the
// output head (2 V d) is paid only at positions whose logits are needed.
import { quote } from '../common/json.ts';
import { factsOf } from '../worlds/facts.ts';
import { worldPrefix, type EnvironmentName } from '../worlds/names.ts';

export interface ModelConfig {
  vocabSize: number;
  /** Longest sequence the model can read (rows of the learned position table). */
  contextLength: number;
  dModel: number;
  nLayer: number;
  nHead: number;
  /** Hidden width of the MLP (4 d in GPT-2). */
  dMlp: number;
  /** LayerNorm epsilon (1e-5, as GPT-2 and llm.c). */
  lnEps: number;
}

export type PresetName = 'micro' | 'tiny' | 'small';

type Shape = Omit<ModelConfig, 'vocabSize'>;

/**
 * micro: unit tests and the end-to-end suite (software WebGPU), seconds per update.
 * tiny:  trains on a CPU (2 cores): the learning benchmark and the shipped warm starts.
 * small: a laptop GPU in the browser.
 * The token embedding grows with the world's vocabulary: micro has 18,864 parameters with the household's (255
 * tokens) and 26,576 with the shop's (737), tiny 93,456 and 116,592, small 957,056 and 1,018,752
 * (docs/architecture.md, "The model and its presets").
 */
export const PRESETS: Readonly<Record<PresetName, Readonly<Shape>>> = {
  micro: { contextLength: 512, dModel: 16, nLayer: 2, nHead: 2, dMlp: 64, lnEps: 1e-5 },
  tiny: { contextLength: 512, dModel: 48, nLayer: 2, nHead: 4, dMlp: 192, lnEps: 1e-5 },
  small: { contextLength: 1024, dModel: 128, nLayer: 4, nHead: 4, dMlp: 512, lnEps: 1e-5 },
};

/** The presets' names, smallest first. */
export const PRESET_NAMES = Object.keys(PRESETS) as PresetName[];

/**
 * Whether a preset's warm start ships with the site in a world, in public/: its facts list the presets that do
 * (WorldFacts.shippedWarmStarts; a unit test holds the lists to the files there).
 */
export function shipsWarmStart(preset: PresetName, world: EnvironmentName): boolean {
  return factsOf(world).shippedWarmStarts.includes(preset);
}

/** The file name of a preset's warm start in a world, served beside the page (the default world's names none). */
export function warmStartFile(preset: PresetName, world: EnvironmentName): string {
  return `warmstart-${worldPrefix(world)}${preset}.ckpt`;
}

/** Where a preset's warm start lives in the repository (relative to its root), where the CLI reads it. */
export function warmStartPath(preset: PresetName, world: EnvironmentName): string {
  return `public/${warmStartFile(preset, world)}`;
}

export function isPresetName(name: string): name is PresetName {
  return Object.hasOwn(PRESETS, name);
}

export function presetConfig(name: PresetName, vocabSize: number): ModelConfig {
  const shape = PRESETS[name];
  if (!shape) throw new RangeError(`unknown preset "${name}" (known: ${PRESET_NAMES.join(', ')})`);
  return validateConfig({ vocabSize, ...shape });
}

/** The preset whose shape a model has (any vocabulary), or null when it has none of theirs. */
export function presetOfShape(config: ModelConfig): PresetName | null {
  const same = (shape: Shape) => (Object.keys(shape) as (keyof Shape)[]).every((k) => shape[k] === config[k]);
  return PRESET_NAMES.find((name) => same(PRESETS[name])) ?? null;
}

export function headDim(config: ModelConfig): number {
  return config.dModel / config.nHead;
}

/** Returns the config when every field is sane; throws a RangeError naming the first bad field otherwise. */
export function validateConfig(config: ModelConfig): ModelConfig {
  const ints: (keyof ModelConfig)[] = ['vocabSize', 'contextLength', 'dModel', 'nLayer', 'nHead', 'dMlp'];
  for (const key of ints) {
    const v = config[key];
    if (!Number.isInteger(v) || v < 1 || v > 1 << 20)
      throw new RangeError(`model config: ${key} must be an integer in 1..${1 << 20}, got ${quote(v)}`);
  }
  if (config.dModel % config.nHead !== 0) {
    throw new RangeError(`model config: dModel ${config.dModel} is not a multiple of nHead ${config.nHead}`);
  }
  if (!(config.lnEps > 0 && config.lnEps < 1))
    throw new RangeError(`model config: lnEps must be in (0, 1), got ${quote(config.lnEps)}`);
  return config;
}

/** The fields in which a checkpoint's model config differs from the one expected, as "lnEps 0.001 (expected 0.00001)"; null when none does. */
export function configDifference(found: ModelConfig, expected: ModelConfig): string | null {
  const keys = Object.keys(expected) as (keyof ModelConfig)[];
  const differing = keys
    .filter((k) => found[k] !== expected[k])
    .map((k) => `${k} ${quote(found[k])} (expected ${expected[k]})`);
  return differing.length ? differing.join(', ') : null;
}

/** The preset whose model this is, or null when it is no preset's. */
export function presetOfConfig(config: ModelConfig): PresetName | null {
  const names = Object.keys(PRESETS) as PresetName[];
  return names.find((name) => configDifference(config, presetConfig(name, config.vocabSize)) === null) ?? null;
}

/** FLOP of one forward per token attending to `attended` tokens, with the output head on `headFraction` of tokens. */
export function forwardFlopsPerToken(config: ModelConfig, attended: number, headFraction = 1): number {
  const { dModel: d, nLayer: L, dMlp: m, vocabSize: V } = config;
  const matmul = 2 * L * (3 * d * d + d * d + 2 * d * m);
  return matmul + 4 * L * attended * d + 2 * V * d * headFraction;
}
