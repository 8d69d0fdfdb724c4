// Typed views of the flat parameter buffer (model/layout.ts), one per tensor. The same binding works for
// the parameters, the gradients and the AdamW moments, which share the layout.
import type { ModelConfig } from '../../model/config.ts';
import { blockViewName, parameterLayout, type ParameterLayout } from '../../model/layout.ts';
import type { Floats } from './floats.ts';

export interface BlockWeights<F extends Floats> {
  ln1w: F;
  ln1b: F;
  qkvw: F;
  qkvb: F;
  attprojw: F;
  attprojb: F;
  ln2w: F;
  ln2b: F;
  fcw: F;
  fcb: F;
  fcprojw: F;
  fcprojb: F;
}

export interface ModelWeights<F extends Floats> {
  wte: F;
  wpe: F;
  blocks: BlockWeights<F>[];
  lnfw: F;
  lnfb: F;
}

export function bindWeights<F extends Floats>(buffer: F, config: ModelConfig, layout: ParameterLayout = parameterLayout(config)): ModelWeights<F> {
  if (buffer.length !== layout.totalFloats) {
    throw new RangeError(`parameter buffer holds ${buffer.length} floats, the layout needs ${layout.totalFloats}`);
  }
  const at = (name: string): F => {
    const v = layout.views[name];
    return buffer.subarray(v.offset, v.offset + v.size) as F;
  };
  const blocks: BlockWeights<F>[] = [];
  for (let l = 0; l < config.nLayer; l++) {
    const b = (part: string) => at(blockViewName(l, part));
    blocks.push({
      ln1w: b('ln1.w'),
      ln1b: b('ln1.b'),
      qkvw: b('attn.qkv.w'),
      qkvb: b('attn.qkv.b'),
      attprojw: b('attn.proj.w'),
      attprojb: b('attn.proj.b'),
      ln2w: b('ln2.w'),
      ln2b: b('ln2.b'),
      fcw: b('mlp.fc.w'),
      fcb: b('mlp.fc.b'),
      fcprojw: b('mlp.proj.w'),
      fcprojb: b('mlp.proj.b'),
    });
  }
  return { wte: at('wte'), wpe: at('wpe'), blocks, lnfw: at('lnf.w'), lnfb: at('lnf.b') };
}
