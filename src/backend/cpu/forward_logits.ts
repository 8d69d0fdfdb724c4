// The full forward's logits at every position of a batch of rows, each row run alone as the CPU backend
// runs sequences: what an exported model must reproduce (onnx/cpu_logits.ts) and what `bench onnx` times.
// Weights, activations and logits live in the CPU heap, so every kernel reads its operands in place; the
// heap blocks go back when the object is collected (or on dispose).
import type { ModelConfig } from '../../model/config.ts';
import { activationFloats, carveActivations, gptForward, headForward } from './gpt.ts';
import { freeHeapFloats, heapFloats } from './heap.ts';
import { bindWeights, type ModelWeights } from './weights.ts';

const heapBlocks = new FinalizationRegistry<Float32Array[]>((blocks) => {
  for (const b of blocks) freeHeapFloats(b);
});

export class ForwardLogits {
  private readonly blocks: Float32Array[] = [];
  private readonly weights: ModelWeights<Float32Array>;
  private acts = heapFloats(0);
  private gathered = heapFloats(0);
  private logits = heapFloats(0);

  constructor(
    readonly config: ModelConfig,
    params: Float32Array,
  ) {
    const held = heapFloats(params.length);
    held.set(params);
    this.weights = bindWeights(held, config);
    this.blocks.push(held);
    heapBlocks.register(this, this.blocks, this);
  }

  /** Logits [batch, seqLen, vocab] of token ids [batch, seqLen] (row-major). */
  run(ids: Int32Array, batch: number, seqLen: number): Float32Array {
    const { config } = this;
    const { vocabSize: V, dModel: C } = config;
    if (ids.length !== batch * seqLen)
      throw new RangeError(`${ids.length} token ids do not fill [${batch}, ${seqLen}]`);
    if (seqLen > config.contextLength)
      throw new RangeError(`sequence length ${seqLen} exceeds the context length ${config.contextLength}`);
    this.acts = this.grow(this.acts, activationFloats(config, seqLen));
    this.gathered = this.grow(this.gathered, seqLen * C);
    this.logits = this.grow(this.logits, seqLen * V);
    const acts = carveActivations(this.acts, config, seqLen);
    const rows = Int32Array.from({ length: seqLen }, (_, t) => t);
    const out = new Float32Array(batch * seqLen * V);
    for (let b = 0; b < batch; b++) {
      gptForward(acts, this.weights, config, ids.subarray(b * seqLen, (b + 1) * seqLen));
      headForward(this.logits, this.gathered, acts.lnf, rows, this.weights.wte, V, C);
      out.set(this.logits.subarray(0, seqLen * V), b * seqLen * V);
    }
    return out;
  }

  dispose(): void {
    heapBlocks.unregister(this);
    for (const b of this.blocks) freeHeapFloats(b);
    this.blocks.length = 0;
  }

  private grow(block: Float32Array, n: number): Float32Array {
    if (block.length >= n) return block;
    const i = this.blocks.indexOf(block);
    if (i >= 0) this.blocks.splice(i, 1);
    freeHeapFloats(block);
    const next = heapFloats(n);
    this.blocks.push(next);
    return next;
  }
}
