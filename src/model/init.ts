// Seeded initialisation of the flat parameter buffer, GPT-2 style (as llm.c): weights ~ N(0, 0.02), the
// two residual projections of each block scaled by 1/sqrt(2 L) so the residual stream's variance does not
// grow with depth, biases 0, LayerNorm gain 1 and shift 0. Each view draws from its own stream forked by
// name, so adding a view never changes the values of the others.
import { Rng } from '../common/rng.ts';
import type { ModelConfig } from './config.ts';
import { parameterLayout, type ParameterLayout } from './layout.ts';

const INIT_STD = 0.02;

export function initParameters(
  config: ModelConfig,
  seed: number,
  layout: ParameterLayout = parameterLayout(config),
): Float32Array {
  const params = new Float32Array(layout.totalFloats);
  const root = new Rng(seed);
  const residualStd = INIT_STD / Math.sqrt(2 * config.nLayer);
  for (const view of layout.list) {
    const name = view.name;
    if (name.endsWith('ln1.w') || name.endsWith('ln2.w') || name === 'lnf.w') {
      params.fill(1, view.offset, view.offset + view.size);
      continue;
    }
    if (view.shape.length === 1) continue;
    const std = name.endsWith('attn.proj.w') || name.endsWith('mlp.proj.w') ? residualStd : INIT_STD;
    const rng = root.fork(name);
    for (let i = 0; i < view.size; i++) params[view.offset + i] = std * rng.normal();
  }
  return params;
}
