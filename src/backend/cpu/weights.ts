// Typed views of the flat parameter buffer (model/layout.ts), one per tensor. The same binding works for
// the parameters, the gradients and the AdamW moments, which share the layout.
import type { ModelConfig } from '../../model/config.ts';
import { modelOffsets, parameterLayout, type BlockOffsets, type ParameterLayout } from '../../model/layout.ts';
import type { Floats } from './floats.ts';

/** One transformer block's tensors, under the names of model/layout.ts's BlockOffsets. */
type BlockWeights<F extends Floats> = { [Part in keyof BlockOffsets]: F };

export interface ModelWeights<F extends Floats> {
  wte: F;
  wpe: F;
  blocks: BlockWeights<F>[];
  lnfw: F;
  lnfb: F;
}

export function bindWeights<F extends Floats>(
  buffer: F,
  config: ModelConfig,
  layout: ParameterLayout = parameterLayout(config),
): ModelWeights<F> {
  if (buffer.length !== layout.totalFloats) {
    throw new RangeError(`parameter buffer holds ${buffer.length} floats, the layout needs ${layout.totalFloats}`);
  }
  const sizeAt = new Map(layout.list.map((v) => [v.offset, v.size]));
  const at = (offset: number): F => buffer.subarray(offset, offset + (sizeAt.get(offset) ?? 0)) as F;
  const offsets = modelOffsets(layout, config.nLayer);
  const blocks = offsets.blocks.map((block) => {
    const weights = {} as BlockWeights<F>;
    for (const part of Object.keys(block) as (keyof BlockOffsets)[]) weights[part] = at(block[part]);
    return weights;
  });
  return { wte: at(offsets.wte), wpe: at(offsets.wpe), blocks, lnfw: at(offsets.lnfw), lnfb: at(offsets.lnfb) };
}
