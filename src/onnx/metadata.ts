// What makes an exported policy self-describing: ONNX metadata_props (string key -> string value) holding
// the model config, the vocabulary (token i = row i of the embedding and column i of the logits) and the
// training card. JSON values are written with sorted keys so equal content gives equal bytes.
import { validateConfig, type ModelConfig } from '../model/config.ts';
import type { StringStringEntryProto } from './proto.ts';

/** Every key of ours starts with this; entries that other tools add are left alone. */
export const METADATA_PREFIX = 'seed_playground.';
/** Marks a file as a SEED Playground policy; the value is the format version. */
export const FORMAT_KEY = 'seed_playground.format';
const FORMAT_VERSION = 1;
export const CONFIG_KEY = 'seed_playground.model_config';
export const VOCABULARY_KEY = 'seed_playground.vocabulary';
export const VOCABULARY_HASH_KEY = 'seed_playground.vocabulary_hash';
export const CARD_KEY = 'seed_playground.training_card';
/** CRC-32 of the other entries and the weights (checksum.ts). */
export const CRC_KEY = 'seed_playground.crc32';

/** How the exported weights were trained. */
export interface TrainingCard {
  /** e.g. "seed", "grpo", "warmstart", or "init" for untrained weights. */
  algorithm: string;
  /** Optimizer updates applied to these weights. */
  updates: number;
  seed: number;
  /** Success rate in [0, 1] per evaluation split (e.g. "eval-seen", "eval-unseen"); may be empty. */
  success: Record<string, number>;
  /** Anything else worth keeping with the weights (preset, hyper-parameters, date of the run). */
  extra?: Record<string, string | number | boolean>;
}

export interface PolicyMetadata {
  config: ModelConfig;
  vocabulary: string[];
  vocabularyHash: string;
  card: TrainingCard;
}

/** A file that is not a SEED Playground policy, or one whose metadata is damaged. */
export class OnnxPolicyError extends Error {
  constructor(message: string) {
    // One line whatever the file held: control characters quoted from it are escaped.
    super(
      message.replace(
        // biome-ignore lint/suspicious/noControlCharactersInRegex: it finds the control characters to escape
        /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g,
        (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
      ),
    );
    this.name = 'OnnxPolicyError';
  }
}

export function encodeMetadata(meta: PolicyMetadata): StringStringEntryProto[] {
  checkVocabulary(meta.vocabulary, meta.config);
  checkCard(meta.card);
  return [
    { key: FORMAT_KEY, value: String(FORMAT_VERSION) },
    { key: CONFIG_KEY, value: stableJson(meta.config) },
    { key: VOCABULARY_KEY, value: JSON.stringify(meta.vocabulary) },
    { key: VOCABULARY_HASH_KEY, value: meta.vocabularyHash },
    { key: CARD_KEY, value: stableJson(meta.card) },
  ];
}

/** Reads the metadata back; throws OnnxPolicyError saying what is missing or wrong. */
export function decodeMetadata(props: StringStringEntryProto[]): PolicyMetadata {
  const map = new Map(props.map((p) => [p.key, p.value]));
  const format = map.get(FORMAT_KEY);
  if (format === undefined) {
    throw new OnnxPolicyError(`not a SEED Playground policy: the model has no "${FORMAT_KEY}" metadata entry`);
  }
  if (format !== String(FORMAT_VERSION)) {
    throw new OnnxPolicyError(
      `unsupported SEED Playground policy format version ${JSON.stringify(format)} (this build reads version ${FORMAT_VERSION})`,
    );
  }
  const config = configOf(parseJsonEntry(map, CONFIG_KEY));
  const vocabulary = parseJsonEntry(map, VOCABULARY_KEY);
  if (!Array.isArray(vocabulary) || !vocabulary.every((t) => typeof t === 'string')) {
    throw new OnnxPolicyError(`metadata "${VOCABULARY_KEY}" must be a JSON array of strings`);
  }
  checkVocabulary(vocabulary, config);
  const vocabularyHash = map.get(VOCABULARY_HASH_KEY);
  if (vocabularyHash === undefined) throw new OnnxPolicyError(`metadata "${VOCABULARY_HASH_KEY}" is missing`);
  const card = parseJsonEntry(map, CARD_KEY) as TrainingCard;
  checkCard(card);
  const { algorithm, updates, seed, success, extra } = card;
  return {
    config,
    vocabulary,
    vocabularyHash,
    card: extra === undefined ? { algorithm, updates, seed, success } : { algorithm, updates, seed, success, extra },
  };
}

const CONFIG_FIELDS = ['vocabSize', 'contextLength', 'dModel', 'nLayer', 'nHead', 'dMlp', 'lnEps'] as const;

/** The config's fields alone, each a number checked by validateConfig: nothing else of the entry is kept. */
function configOf(value: unknown): ModelConfig {
  if (typeof value !== 'object' || value === null)
    throw new OnnxPolicyError(`metadata "${CONFIG_KEY}" must be a JSON object`);
  const config = {} as ModelConfig;
  for (const key of CONFIG_FIELDS) {
    const v = (value as Record<string, unknown>)[key];
    if (typeof v !== 'number')
      throw new OnnxPolicyError(
        `metadata "${CONFIG_KEY}": ${key} must be a number, got ${v === null ? 'null' : typeof v}`,
      );
    config[key] = v;
  }
  try {
    return validateConfig(config);
  } catch (err) {
    throw new OnnxPolicyError(`metadata "${CONFIG_KEY}": ${(err as Error).message}`);
  }
}

function parseJsonEntry(map: Map<string, string>, key: string): unknown {
  const text = map.get(key);
  if (text === undefined) throw new OnnxPolicyError(`metadata "${key}" is missing`);
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new OnnxPolicyError(`metadata "${key}" is not valid JSON: ${(err as Error).message}`);
  }
}

function checkVocabulary(vocabulary: readonly string[], config: ModelConfig): void {
  if (vocabulary.length !== config.vocabSize) {
    throw new OnnxPolicyError(
      `vocabulary has ${vocabulary.length} tokens but the model config says vocabSize ${config.vocabSize}`,
    );
  }
  if (new Set(vocabulary).size !== vocabulary.length) throw new OnnxPolicyError('vocabulary has duplicate tokens');
}

function checkCard(card: TrainingCard): void {
  const bad = (why: string) => new OnnxPolicyError(`training card: ${why}`);
  if (typeof card !== 'object' || card === null) throw bad('must be an object');
  if (typeof card.algorithm !== 'string' || card.algorithm === '') throw bad('algorithm must be a non-empty string');
  if (!Number.isInteger(card.updates) || card.updates < 0)
    throw bad(`updates must be a non-negative integer, got ${shown(card.updates)}`);
  if (!Number.isInteger(card.seed)) throw bad(`seed must be an integer, got ${shown(card.seed)}`);
  if (typeof card.success !== 'object' || card.success === null)
    throw bad('success must be an object of split -> rate');
  for (const [split, rate] of Object.entries(card.success)) {
    if (typeof rate !== 'number' || !(rate >= 0 && rate <= 1))
      throw bad(`success[${JSON.stringify(split)}] must be a rate in [0, 1], got ${shown(rate)}`);
  }
  if (card.extra === undefined) return;
  if (typeof card.extra !== 'object' || card.extra === null || Array.isArray(card.extra))
    throw bad('extra must be an object of key -> string, number or boolean');
  for (const [key, value] of Object.entries(card.extra)) {
    if (!['string', 'number', 'boolean'].includes(typeof value))
      throw bad(`extra[${JSON.stringify(key)}] must be a string, number or boolean`);
  }
}

/** A number as it is; any other value by its kind, since a nested one could be too deep to print. */
function shown(value: unknown): string {
  return typeof value === 'number' ? String(value) : value === null ? 'null' : typeof value;
}

/** JSON with object keys sorted at every level. */
function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    // fromEntries, not assignment, keeps a key named "__proto__" as an entry.
    return Object.fromEntries(
      Object.keys(v as object)
        .sort()
        .map((k) => [k, (v as Record<string, unknown>)[k]]),
    );
  });
}
