// Policies for the export tests: a world's vocabulary (text/tokenizer.ts), weights shaped like a
// trained model's (logits of a few units, not the near-zero ones of a fresh initialisation).
import { Rng } from '../../common/rng.ts';
import { presetConfig, type ModelConfig, type PresetName } from '../../model/config.ts';
import { initParameters } from '../../model/init.ts';
import { parameterLayout } from '../../model/layout.ts';
import { defaultTokenizer, type Tokenizer } from '../../text/tokenizer.ts';
import type { PolicyExport } from '../export.ts';

/** Initialised weights scaled up, LayerNorm gains and all biases spread, so every term of the graph matters. */
export function trainedLikeParameters(config: ModelConfig, seed: number, weightScale = 5): Float32Array {
  const layout = parameterLayout(config);
  const params = initParameters(config, seed, layout);
  const rng = new Rng(seed).fork('trained-like');
  for (const view of layout.list) {
    const gain = view.name.endsWith('.w') && view.shape.length === 1;
    for (let i = view.offset; i < view.offset + view.size; i++) {
      if (view.shape.length === 2) params[i] *= weightScale;
      else params[i] += (gain ? 0.2 : 0.05) * rng.normal();
    }
  }
  return params;
}

/** A policy of the household's vocabulary, or of another world's tokenizer. */
export function testPolicy(preset: PresetName, seed = 1, tokenizer: Tokenizer = defaultTokenizer()): PolicyExport {
  const config = presetConfig(preset, tokenizer.vocabSize);
  return {
    config,
    params: trainedLikeParameters(config, seed),
    vocabulary: [...tokenizer.tokens],
    vocabularyHash: tokenizer.hash,
    card: {
      algorithm: 'seed',
      updates: 12,
      seed,
      success: { 'eval-seen': 0.25, 'eval-unseen': 0.125 },
      extra: { preset },
    },
  };
}
