// The training card of an export, from a checkpoint's free-form training metadata (model/checkpoint.ts):
// algorithm (`algorithm`, or `algo` as training runs name it), updates and seed when present, success rates under `success` ({split: rate in [0, 1]}), and
// every other entry kept under `extra` (non-scalars and success figures that are not rates as JSON text), so
// nothing the checkpoint said is lost.
import type { TrainingCard } from './metadata.ts';

const CARD_FIELDS = new Set(['algorithm', 'algo', 'updates', 'seed', 'success']);

/** `optimizerStep` (the checkpoint's AdamW step) counts the updates when the metadata does not. */
export function trainingCardFromMetadata(metadata: Record<string, unknown>, optimizerStep = 0): TrainingCard {
  const updates =
    Number.isInteger(metadata.updates) && (metadata.updates as number) >= 0
      ? (metadata.updates as number)
      : optimizerStep;
  const named = [metadata.algorithm, metadata.algo].find((v): v is string => typeof v === 'string' && v !== '');
  const algorithm = named ?? (updates === 0 ? 'init' : 'unknown');
  const seed = Number.isInteger(metadata.seed) ? (metadata.seed as number) : 0;
  // Entries first, objects after (Object.fromEntries): an assignment to a key named "__proto__" would set the
  // object's prototype and drop the entry.
  const rates: [string, number][] = [];
  const others: [string, string | number | boolean][] = [];
  if (typeof metadata.success === 'object' && metadata.success !== null) {
    for (const [split, rate] of Object.entries(metadata.success)) {
      if (typeof rate === 'number' && rate >= 0 && rate <= 1) rates.push([split, rate]);
      else others.push([`success.${split}`, JSON.stringify(rate)]);
    }
  }
  for (const [key, value] of Object.entries(metadata)) {
    if (CARD_FIELDS.has(key)) continue;
    if (
      typeof value === 'string' ||
      typeof value === 'boolean' ||
      (typeof value === 'number' && Number.isFinite(value))
    )
      others.push([key, value]);
    else if (value !== null && value !== undefined) others.push([key, JSON.stringify(value)]);
  }
  const success = Object.fromEntries(rates);
  return others.length > 0
    ? { algorithm, updates, seed, success, extra: Object.fromEntries(others) }
    : { algorithm, updates, seed, success };
}
