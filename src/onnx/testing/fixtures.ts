// Policies for the export tests: the playground's vocabulary (text/tokenizer.ts), weights shaped like a
// trained model's (logits of a few units, not the near-zero ones of a fresh initialisation), and real
// token sequences: ALFWorld episode text encoded by the tokenizer.
import { Rng } from '../../common/rng.ts';
import { introText, say } from '../../env/text.ts';
import { presetConfig, type ModelConfig, type PresetName } from '../../model/config.ts';
import { initParameters } from '../../model/init.ts';
import { parameterLayout } from '../../model/layout.ts';
import { defaultTokenizer } from '../../text/tokenizer.ts';
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

export function testPolicy(preset: PresetName, seed = 1): PolicyExport {
  const tokenizer = defaultTokenizer();
  const config = presetConfig(preset, tokenizer.vocabSize);
  return {
    config,
    params: trainedLikeParameters(config, seed),
    vocabulary: [...tokenizer.tokens],
    vocabularyHash: tokenizer.hash,
    card: { algorithm: 'seed', updates: 12, seed, success: { 'eval-seen': 0.25, 'eval-unseen': 0.125 }, extra: { preset } },
  };
}

/** The text of a short heat episode, as the environment prints it. */
export function episodeTexts(): string[] {
  const room = ['cabinet 1', 'countertop 1', 'fridge 1', 'microwave 1', 'sinkbasin 1'];
  return [
    [introText(room, 'heat some apple and put it in fridge'), 'go to countertop 1', say.onTop('countertop 1', ['apple 1', 'knife 2']),
      'take apple 1 from countertop 1', say.take('apple 1', 'countertop 1'), 'go to microwave 1', say.arrive('microwave 1'),
      'heat apple 1 with microwave 1', say.heat('apple 1', 'microwave 1'), 'go to fridge 1', say.closed('fridge 1'),
      'open fridge 1', say.openView('fridge 1', ['egg 1']), 'put apple 1 in/on fridge 1', say.put('apple 1', 'fridge 1')].join('\n'),
    [introText(room.slice(0, 3), 'put a clean mug in cabinet'), 'go to cabinet 1', say.closed('cabinet 1'), 'open cabinet 1',
      say.openView('cabinet 1', []), 'inventory', say.carryingNothing()].join('\n'),
    [introText(room, 'examine the book with the desklamp'), 'look', say.middle(), 'go to sinkbasin 1', say.onTop('sinkbasin 1', ['mug 3'])].join('\n'),
  ];
}

/** The episode texts as token ids; none of their pieces is unknown to the tokenizer. */
export function episodeSequences(): Int32Array[] {
  const tokenizer = defaultTokenizer();
  return episodeTexts().map((text) => {
    const unknown = tokenizer.unknownPieces(text);
    if (unknown.length > 0) throw new Error(`episode text has pieces outside the vocabulary: ${unknown.join(' ')}`);
    return Int32Array.from(tokenizer.encode(text));
  });
}
