// The GPT decoder on the GPU, llm.c style, in the same order as src/backend/cpu/gpt.ts: a forward that
// keeps every activation of a batch of sequences in GPU buffers, and a backward that walks the layers in
// reverse and accumulates into a flat gradient buffer. A batch is B sequences of T rows laid out
// [B, T] (row b * T + t); causal attention makes rows after a sequence's last scored position irrelevant,
// and their gradient is exactly zero.
//
// The residual stream's gradient `dres` flows through the blocks in place: the residual's backward is
// the identity into both branches, each branch's matmul reads dres, and each LayerNorm backward adds
// its input gradient into it.
import type { ModelConfig } from '../../model/config.ts';
import type { ModelOffsets } from '../../model/layout.ts';
import { attentionBackward, attentionForward } from './attention.ts';
import { encoderBackward, encoderForward } from './encoder.ts';
import { geluBackward, geluForward } from './gelu.ts';
import type { BufferSlice } from './kernel.ts';
import { layernormBackward, layernormForward } from './layernorm.ts';
import { matmulBackward, matmulForward, type MatmulVariant } from './matmul.ts';
import { fill } from './rows.ts';
import type { Scratch } from './scratch.ts';
import type { Stage } from './stage.ts';

interface GpuLayerActivations {
  ln1: GPUBuffer;
  ln1Stats: GPUBuffer;
  qkv: GPUBuffer;
  atty: GPUBuffer;
  att: GPUBuffer;
  residual2: GPUBuffer;
  ln2: GPUBuffer;
  ln2Stats: GPUBuffer;
  fch: GPUBuffer;
  fchGelu: GPUBuffer;
  residual3: GPUBuffer;
}

export interface GpuActivations {
  B: number;
  T: number;
  encoded: GPUBuffer;
  layers: GpuLayerActivations[];
  lnf: GPUBuffer;
  lnfStats: GPUBuffer;
}

/** The inputs of a training-layout forward: tokens, positions (i32[B * T]) and SeqRows[B] (slot b, pos0 0, count T). */
interface GpuBatchInputs {
  tokens: GPUBuffer | BufferSlice;
  positions: GPUBuffer | BufferSlice;
  seqs: GPUBuffer | BufferSlice;
}

export function allocGpuActivations(scratch: Scratch, config: ModelConfig, B: number, T: number): GpuActivations {
  const { dModel: C, dMlp: M, nHead: NH, nLayer: L } = config;
  const N = B * T;
  const f = (n: number) => scratch.floats(n);
  const layers: GpuLayerActivations[] = [];
  for (let l = 0; l < L; l++) {
    layers.push({
      ln1: f(N * C),
      ln1Stats: f(2 * N),
      qkv: f(3 * N * C),
      atty: f(N * C),
      att: f(B * NH * T * T),
      residual2: f(N * C),
      ln2: f(N * C),
      ln2Stats: f(2 * N),
      fch: f(N * M),
      fchGelu: f(N * M),
      residual3: f(N * C),
    });
  }
  return { B, T, encoded: f(N * C), layers, lnf: f(N * C), lnfStats: f(2 * N) };
}

/** Runs the batch through the model up to the final LayerNorm (acts.lnf). */
export function gptForward(
  stage: Stage,
  acts: GpuActivations,
  params: GPUBuffer,
  o: ModelOffsets,
  config: ModelConfig,
  inputs: GpuBatchInputs,
  variant: MatmulVariant,
): void {
  const { dModel: C, dMlp: M, nHead: NH, lnEps: eps } = config;
  const { B, T } = acts;
  const N = B * T;
  encoderForward(stage, acts.encoded, params, inputs.tokens, inputs.positions, N, C, o.wte, o.wpe);
  let residual = acts.encoded;
  for (let l = 0; l < config.nLayer; l++) {
    const a = acts.layers[l];
    const b = o.blocks[l];
    layernormForward(stage, a.ln1, a.ln1Stats, residual, params, b.ln1w, b.ln1b, N, C, eps);
    matmulForward(stage, a.qkv, a.ln1, params, b.qkvw, b.qkvb, N, C, 3 * C, variant);
    attentionForward(stage, a.atty, a.att, a.qkv, inputs.seqs, B, T, T, C, NH);
    matmulForward(stage, a.residual2, a.atty, params, b.attprojw, b.attprojb, N, C, C, variant, residual);
    layernormForward(stage, a.ln2, a.ln2Stats, a.residual2, params, b.ln2w, b.ln2b, N, C, eps);
    matmulForward(stage, a.fch, a.ln2, params, b.fcw, b.fcb, N, C, M, variant);
    geluForward(stage, a.fchGelu, a.fch, N * M);
    matmulForward(stage, a.residual3, a.fchGelu, params, b.fcprojw, b.fcprojb, N, M, C, variant, a.residual2);
    residual = a.residual3;
  }
  layernormForward(stage, acts.lnf, acts.lnfStats, residual, params, o.lnfw, o.lnfb, N, C, eps);
}

/** The per-vocabulary row index of the batch's tokens (layers.tokenRowIndex), on the GPU. */
interface GpuTokenIndex {
  starts: GPUBuffer | BufferSlice;
  order: GPUBuffer | BufferSlice;
}

/** Backward from dlnf [B * T, C] to every parameter, accumulating into grads. */
export function gptBackward(
  stage: Stage,
  scratch: Scratch,
  grads: GPUBuffer,
  params: GPUBuffer,
  o: ModelOffsets,
  acts: GpuActivations,
  dlnf: GPUBuffer,
  config: ModelConfig,
  index: GpuTokenIndex,
  variant: MatmulVariant,
): void {
  const { dModel: C, dMlp: M, nHead: NH, nLayer: L, vocabSize: V } = config;
  const { B, T } = acts;
  const N = B * T;
  const dres = scratch.floats(N * C);
  const dln = scratch.floats(N * C);
  const datty = scratch.floats(N * C);
  const dqkv = scratch.floats(3 * N * C);
  const dpre = scratch.floats(B * NH * T * T);
  const dfch = scratch.floats(N * M);
  const dfchGelu = scratch.floats(N * M);

  const last = L > 0 ? acts.layers[L - 1].residual3 : acts.encoded;
  fill(stage, dres, N * C, 0);
  layernormBackward(stage, dres, grads, dlnf, last, acts.lnfStats, params, o.lnfw, o.lnfb, N, C);
  for (let l = L - 1; l >= 0; l--) {
    const a = acts.layers[l];
    const b = o.blocks[l];
    const residual = l === 0 ? acts.encoded : acts.layers[l - 1].residual3;
    // residual3 = residual2 + fcproj
    matmulBackward(stage, dfchGelu, grads, dres, a.fchGelu, params, b.fcprojw, b.fcprojb, N, M, C, variant);
    geluBackward(stage, dfch, a.fch, dfchGelu, N * M);
    matmulBackward(stage, dln, grads, dfch, a.ln2, params, b.fcw, b.fcb, N, C, M, variant);
    layernormBackward(stage, dres, grads, dln, a.residual2, a.ln2Stats, params, b.ln2w, b.ln2b, N, C);
    // residual2 = residual + attproj
    matmulBackward(stage, datty, grads, dres, a.atty, params, b.attprojw, b.attprojb, N, C, C, variant);
    attentionBackward(stage, dqkv, dpre, datty, a.qkv, a.att, B, T, C, NH);
    matmulBackward(stage, dln, grads, dqkv, a.ln1, params, b.qkvw, b.qkvb, N, C, 3 * C, variant);
    layernormBackward(stage, dres, grads, dln, residual, a.ln1Stats, params, b.ln1w, b.ln1b, N, C);
  }
  encoderBackward(stage, grads, dres, index.starts, index.order, N, T, C, V, o.wte, o.wpe);
}
