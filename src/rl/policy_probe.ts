// Whether weights can drive a policy at all. A checkpoint holds finite weights only (model/checkpoint.ts),
// but finite weights can still overflow float32 in the forward (every weight 3e38), and then every sample
// of a rollout fails. One forward over rows that hold every token id and fill the context finds such weights
// when they are loaded, so the refusal names the file they came from instead of surfacing mid-update.
import { ForwardLogits } from '../backend/cpu/forward_logits.ts';
import type { ModelConfig } from '../model/config.ts';

/** Where the weights' logits stop being finite ("the logit of token 3 at position 0 is NaN"), or null when they never do. */
function nonFiniteLogits(config: ModelConfig, params: Float32Array): string | null {
  const { vocabSize: V, contextLength: T } = config;
  const rows = Math.ceil(V / T);
  const ids = Int32Array.from({ length: rows * T }, (_, i) => i % V);
  const forward = new ForwardLogits(config, params);
  try {
    const logits = forward.run(ids, rows, T);
    const bad = logits.findIndex((x) => !Number.isFinite(x));
    if (bad < 0) return null;
    const position = Math.floor(bad / V);
    return `the logit of token ${bad % V} at position ${position % T} is ${logits[bad]}`;
  } finally {
    forward.dispose();
  }
}

/** The message that refuses weights whose forward is not finite, naming where they came from; null when they are fine. */
export function unusableWeights(config: ModelConfig, params: Float32Array, source: string): string | null {
  const where = nonFiniteLogits(config, params);
  return where === null
    ? null
    : `${source}: its weights give non-finite logits (${where}): they are too large for float32 arithmetic, and no policy can sample from them`;
}
