// The playground's own forward on the CPU (backend/cpu/gpt.ts) as a LogitsFn: the reference that an
// exported file must reproduce. Each row of the batch runs alone, as the CPU backend runs sequences.
import type { ModelConfig } from '../model/config.ts';
import { ForwardLogits } from '../backend/cpu/forward_logits.ts';
import type { LogitsFn } from './verify.ts';

export function cpuLogits(config: ModelConfig, params: Float32Array): LogitsFn {
  const forward = new ForwardLogits(config, params);
  return (ids, batch, seqLen) => forward.run(ids, batch, seqLen);
}
