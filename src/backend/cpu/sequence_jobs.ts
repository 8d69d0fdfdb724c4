// The CPU backend's work on whole sequences, as jobs any thread runs (threads.ts): the forward of one
// sequence up to the log-probs of its scored tokens, the backward of a gradient group, and the sum of the
// groups. What a job writes, and the parameters it reads, are CPU heap blocks named in its description;
// each thread keeps its own scratch.
//
// Thread-count independence: a sequence's forward is computed alone; the gradient of a batch is the sum of
// GRADIENT_GROUPS groups of consecutive sequences, each group accumulated in sequence order into a buffer
// of its own, the groups then summed in group order. The partition depends on the batch alone.
import { maskWords } from '../backend.ts';
import type { ModelConfig } from '../../model/config.ts';
import { parameterLayout, type ParameterLayout } from '../../model/layout.ts';
import {
  activationFloats,
  allocBackwardScratch,
  carveActivations,
  gatherRows,
  gptBackward,
  gptForward,
  headBackward,
  headForward,
  type Activations,
  type BackwardScratch,
} from './gpt.ts';
import { freeHeapFloats, heapFloats } from './heap.ts';
import { gatherLogProbs, logitGradient, maskedLogSoftmax } from './log_softmax.ts';
import type { Job } from './threads.ts';
import { addIntoF32 } from './wasm_kernels.ts';
import { bindWeights, type ModelWeights } from './weights.ts';

/** Groups of sequences whose gradients are accumulated apart (the most threads a backward uses). */
export const GRADIENT_GROUPS = 16;

/** One sequence of a batch, cut at its last scored position. */
export interface SliceRef {
  /** Its row in the batch, and its length (last scored position + 1). */
  seq: number;
  T: number;
  /** Positions (within the sequence) of the scored targets, and the index of the first in scored order. */
  rows: Int32Array;
  targets: Int32Array;
  firstScored: number;
}

export interface ForwardDesc {
  config: ModelConfig;
  /** The parameter block the forward reads (current or reference). */
  params: Float32Array;
  tokens: Int32Array;
  seqLen: number;
  /** The batch's masks, a row per scored token. */
  masks: Uint32Array;
  slices: SliceRef[];
  /** Per slice, the block its activations are kept in, or null (thread scratch). */
  kept: (Float32Array | null)[];
  /** The log-probs [nScored, V] kept for the backward, or null (thread scratch). */
  logp: Float32Array | null;
  /** l_student [nScored], the log-probs of the targets. */
  lStudent: Float32Array;
}

interface BackwardDesc extends ForwardDesc {
  /** The loss's per-token coefficient c: dlogits = c (onehot(target) - p) over the allowed tokens. */
  coef: Float32Array;
  /** Exact distillation's logit gradient [nScored, V], added to each row's dlogits; null without it. */
  distilGrad: Float32Array | null;
  /** Group g holds slices groups[g] .. groups[g + 1] - 1. */
  groups: number[];
  /** Group g's gradient buffer (the layout's floats). */
  grads: Float32Array[];
}

interface ReduceDesc {
  /** Gradient buffers: the first receives the sum of all, in order. */
  grads: Float32Array[];
  floats: number;
  chunk: number;
}

/** Group boundaries of a batch of n sequences: near-equal runs of consecutive sequences. */
export function gradientGroups(n: number): number[] {
  const k = Math.max(1, Math.min(n, GRADIENT_GROUPS));
  return Array.from({ length: k + 1 }, (_, i) => Math.round((i * n) / k));
}

/** This thread's scratch, grown on demand and kept. */
const scratch = {
  acts: heapFloats(0),
  logits: heapFloats(0),
  gathered: heapFloats(0),
  head: heapFloats(0),
  dlnf: heapFloats(0),
  backward: null as BackwardScratch<Float32Array> | null,
  backwardRows: 0,
  backwardConfig: '',
};

/** Scratch of at least n floats, not cleared: every use writes before it reads. */
function grown(block: Float32Array, n: number): Float32Array {
  if (block.length >= n) return block;
  freeHeapFloats(block);
  return heapFloats(Math.max(n, Math.ceil(block.length * 1.5)), false);
}

function configKey(c: ModelConfig): string {
  return `${c.vocabSize}/${c.contextLength}/${c.dModel}/${c.nLayer}/${c.nHead}/${c.dMlp}`;
}

const bound = new WeakMap<Float32Array, ModelWeights<Float32Array>>();
const layouts = new Map<string, ParameterLayout>();

/** Named views of a parameter-layout buffer (parameters or a gradient group), bound once per buffer. */
export function weightsOf(buffer: Float32Array, config: ModelConfig): ModelWeights<Float32Array> {
  let w = bound.get(buffer);
  if (w === undefined) {
    const key = configKey(config);
    let layout = layouts.get(key);
    if (layout === undefined) {
      layout = parameterLayout(config);
      layouts.set(key, layout);
    }
    w = bindWeights(buffer.subarray(0, layout.totalFloats), config, layout);
    bound.set(buffer, w);
  }
  return w;
}

/** Activations of a length-T sequence: the slice's kept block, or this thread's scratch. */
function activationsFor(config: ModelConfig, kept: Float32Array | null, T: number): Activations<Float32Array> {
  const n = activationFloats(config, T);
  if (kept !== null) return carveActivations(kept, config, T);
  scratch.acts = grown(scratch.acts, n);
  return carveActivations(scratch.acts, config, T);
}

function tokensOf(desc: ForwardDesc, sl: SliceRef): Int32Array {
  return desc.tokens.subarray(sl.seq * desc.seqLen, sl.seq * desc.seqLen + sl.T);
}

/** Forward of a slice up to its log-probs: the [R, V] block they are written to. */
function forwardSlice(desc: ForwardDesc, s: number): Float32Array {
  const { config } = desc;
  const { vocabSize: V, dModel: C } = config;
  const sl = desc.slices[s];
  const R = sl.rows.length;
  const w = weightsOf(desc.params, config);
  const acts = activationsFor(config, desc.kept[s], sl.T);
  gptForward(acts, w, config, tokensOf(desc, sl));
  let logits: Float32Array;
  if (desc.logp !== null) {
    logits = desc.logp.subarray(sl.firstScored * V, (sl.firstScored + R) * V);
  } else {
    scratch.logits = grown(scratch.logits, R * V);
    logits = scratch.logits;
  }
  scratch.gathered = grown(scratch.gathered, R * C);
  headForward(logits, scratch.gathered, acts.lnf, sl.rows, w.wte, V, C);
  const words = maskWords(V);
  maskedLogSoftmax(logits, logits, desc.masks.subarray(sl.firstScored * words, (sl.firstScored + R) * words), R, V);
  gatherLogProbs(desc.lStudent.subarray(sl.firstScored, sl.firstScored + R), logits, sl.targets, R, V);
  return logits;
}

/** Item s: slice s's forward, writing l_student (and its log-probs and activations where kept). */
export const forwardJob: Job<ForwardDesc> = {
  name: 'forward',
  run(desc, s) {
    forwardSlice(desc, s);
  },
};

/**
 * Item g: group g's gradient, from zero: per slice in order, dlogits from the kept log-probs (in place),
 * then the backward through the head and the model (the forward again where its activations were not kept).
 */
export const backwardJob: Job<BackwardDesc> = {
  name: 'backward',
  run(desc, g) {
    const { config } = desc;
    const { vocabSize: V, dModel: C } = config;
    const words = maskWords(V);
    const w = weightsOf(desc.params, config);
    const grad = weightsOf(desc.grads[g], config);
    desc.grads[g].fill(0);
    for (let s = desc.groups[g]; s < desc.groups[g + 1]; s++) {
      const sl = desc.slices[s];
      const { T, rows } = sl;
      const R = rows.length;
      let acts: Activations<Float32Array>;
      if (desc.kept[s] !== null) {
        acts = activationsFor(config, desc.kept[s], T);
      } else {
        acts = activationsFor(config, null, T);
        gptForward(acts, w, config, tokensOf(desc, sl));
      }
      const dlogits = desc.logp!.subarray(sl.firstScored * V, (sl.firstScored + R) * V);
      const masks = desc.masks.subarray(sl.firstScored * words, (sl.firstScored + R) * words);
      logitGradient(dlogits, masks, desc.coef.subarray(sl.firstScored, sl.firstScored + R), sl.targets, R, V);
      if (desc.distilGrad !== null)
        addIntoF32(dlogits, desc.distilGrad.subarray(sl.firstScored * V, (sl.firstScored + R) * V));
      scratch.gathered = grown(scratch.gathered, R * C);
      scratch.head = grown(scratch.head, R * C);
      scratch.dlnf = grown(scratch.dlnf, T * C);
      const gathered = scratch.gathered.subarray(0, R * C);
      const dlnf = scratch.dlnf.subarray(0, T * C);
      dlnf.fill(0);
      gatherRows(gathered, acts.lnf, rows, C);
      headBackward(dlnf, grad.wte, dlogits, gathered, rows, w.wte, V, C, scratch.head);
      gptBackward(grad, w, acts, dlnf, config, tokensOf(desc, sl), backwardScratch(config, T));
    }
  },
};

function backwardScratch(config: ModelConfig, T: number): BackwardScratch<Float32Array> {
  const key = configKey(config);
  if (scratch.backward === null || scratch.backwardRows < T || scratch.backwardConfig !== key) {
    if (scratch.backward !== null) for (const buf of Object.values(scratch.backward)) freeHeapFloats(buf);
    const rows = Math.max(T, scratch.backwardConfig === key ? Math.ceil(scratch.backwardRows * 1.5) : 0);
    scratch.backward = allocBackwardScratch(heapFloats, config, rows);
    scratch.backwardRows = rows;
    scratch.backwardConfig = key;
  }
  return scratch.backward;
}

/** Item i: floats [i chunk, (i + 1) chunk) of grads[0] += grads[1], then += grads[2], ... (in float32). */
export const reduceJob: Job<ReduceDesc> = {
  name: 'reduce',
  run(desc, i) {
    const lo = i * desc.chunk;
    const hi = Math.min(desc.floats, lo + desc.chunk);
    const out = desc.grads[0].subarray(lo, hi);
    for (const part of desc.grads.slice(1)) addIntoF32(out, part.subarray(lo, hi));
  },
};
