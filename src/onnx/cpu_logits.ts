// The playground's own forward on the CPU (backend/cpu/gpt.ts) as a LogitsFn: the reference that an
// exported file must reproduce. Each row of the batch runs alone, as the CPU backend runs sequences.
import type { ModelConfig } from '../model/config.ts';
import { allocActivations, gptForward, headForward } from '../backend/cpu/gpt.ts';
import { bindWeights } from '../backend/cpu/weights.ts';
import type { LogitsFn } from './verify.ts';

export function cpuLogits(config: ModelConfig, params: Float32Array): LogitsFn {
  const weights = bindWeights(params, config);
  const { vocabSize: V, dModel: C } = config;
  return (ids, batch, seqLen) => {
    if (ids.length !== batch * seqLen) throw new RangeError(`${ids.length} token ids do not fill [${batch}, ${seqLen}]`);
    if (seqLen > config.contextLength) throw new RangeError(`sequence length ${seqLen} exceeds the context length ${config.contextLength}`);
    const out = new Float32Array(batch * seqLen * V);
    const acts = allocActivations(Float32Array, config, seqLen);
    const rows = Int32Array.from({ length: seqLen }, (_, t) => t);
    const gathered = new Float32Array(seqLen * C);
    for (let b = 0; b < batch; b++) {
      gptForward(acts, weights, config, ids.subarray(b * seqLen, (b + 1) * seqLen));
      headForward(out.subarray(b * seqLen * V, (b + 1) * seqLen * V), gathered, acts.lnf, rows, weights.wte, V, C);
    }
    return out;
  };
}
