// A TokenBatch checked and laid out for the GPU: the sequences that have a scored position, each cut to
// T = 1 + the last scored position of any of them, as one [B, T] block, plus the index arrays the
// kernels take (positions, per-sequence rows, the scored rows and the row pairs of the head's gather and
// scatter). Checks are those of the CPU backend, with the same messages.
import { maskWords, type TokenBatch } from '../backend.ts';
import { isAllowed } from '../cpu/log_softmax.ts';
import type { ModelConfig } from '../../model/config.ts';
import { packSeqRows } from './layers.ts';

export interface BatchPlan {
  B: number;
  T: number;
  /** Batch sequence of each block row b. */
  sequences: number[];
  tokens: Int32Array<ArrayBuffer>;
  positions: Int32Array<ArrayBuffer>;
  /** SeqRows[B] of the training layout (slot b, pos0 0, count T). */
  seqs: Uint32Array<ArrayBuffer>;
  /** In scored order: flat block row (b * T + t) and target of each scored position. */
  rows: Int32Array<ArrayBuffer>;
  targets: Int32Array<ArrayBuffer>;
  /** (block row, scored index) pairs: gathers the scored rows of lnf. */
  gatherPairs: Uint32Array<ArrayBuffer>;
  /** (scored index, block row) pairs: scatters their gradient back. */
  scatterPairs: Uint32Array<ArrayBuffer>;
  masks: Uint32Array<ArrayBuffer>;
}

/** The CPU backend's checks of a batch, with the same messages; returns the number of scored positions. */
export function checkBatch(batch: TokenBatch, config: ModelConfig): number {
  const { nSeq, seqLen, tokens, targets, masks } = batch;
  const V = config.vocabSize;
  if (!Number.isInteger(nSeq) || !Number.isInteger(seqLen) || nSeq < 0 || seqLen < 0) throw new RangeError(`batch: bad shape ${nSeq} x ${seqLen}`);
  if (seqLen > config.contextLength) throw new RangeError(`batch: sequences of ${seqLen} tokens exceed the context length ${config.contextLength}`);
  if (tokens.length !== nSeq * seqLen || targets.length !== nSeq * seqLen) {
    throw new RangeError(`batch: tokens (${tokens.length}) and targets (${targets.length}) must hold nSeq * seqLen = ${nSeq * seqLen}`);
  }
  const words = maskWords(V);
  let nScored = 0;
  for (let i = 0; i < targets.length; i++) if (targets[i] >= 0) nScored++;
  if (masks.length !== nScored * words) throw new RangeError(`batch: masks hold ${masks.length} words, expected ${nScored} scored x ${words}`);
  let scored = 0;
  for (let s = 0; s < nSeq; s++) {
    for (let t = 0; t < seqLen; t++) {
      const tok = tokens[s * seqLen + t];
      if (!(tok >= 0 && tok < V)) throw new RangeError(`batch: token ${tok} at sequence ${s}, position ${t} is outside [0, ${V})`);
      const target = targets[s * seqLen + t];
      if (target < 0) continue;
      if (!(target < V)) throw new RangeError(`batch: target ${target} at sequence ${s}, position ${t} is outside [0, ${V})`);
      if (!isAllowed(masks, scored, words, target)) throw new RangeError(`batch: target ${target} at sequence ${s}, position ${t} is not allowed by its mask`);
      scored++;
    }
  }
  return nScored;
}

/** The GPU layout of a batch (checked with checkBatch). */
export function planBatch(batch: TokenBatch, config: ModelConfig): BatchPlan {
  const nScored = checkBatch(batch, config);
  const { nSeq, seqLen, tokens, targets, masks } = batch;
  const sequences: number[] = [];
  let T = 0;
  for (let s = 0; s < nSeq; s++) {
    let last = -1;
    for (let t = 0; t < seqLen; t++) if (targets[s * seqLen + t] >= 0) last = t;
    if (last >= 0) {
      sequences.push(s);
      T = Math.max(T, last + 1);
    }
  }
  const B = sequences.length;
  const blockTokens = new Int32Array(B * T);
  const positions = new Int32Array(B * T);
  const rows = new Int32Array(nScored);
  const blockTargets = new Int32Array(nScored);
  let k = 0;
  sequences.forEach((s, b) => {
    blockTokens.set(tokens.subarray(s * seqLen, s * seqLen + T), b * T);
    for (let t = 0; t < T; t++) {
      positions[b * T + t] = t;
      const target = targets[s * seqLen + t];
      if (target >= 0) {
        rows[k] = b * T + t;
        blockTargets[k++] = target;
      }
    }
  });
  const gatherPairs = new Uint32Array(2 * nScored);
  const scatterPairs = new Uint32Array(2 * nScored);
  for (let r = 0; r < nScored; r++) {
    gatherPairs.set([rows[r], r], 2 * r);
    scatterPairs.set([r, rows[r]], 2 * r);
  }
  return {
    B,
    T,
    sequences,
    tokens: blockTokens,
    positions,
    seqs: packSeqRows(sequences.map((_, b) => ({ slot: b, pos0: 0, count: T }))),
    rows,
    targets: blockTargets,
    gatherPairs,
    scatterPairs,
    masks: Uint32Array.from(masks),
  };
}

/** "scored token k: sequence s, position t of seqLen", as the CPU backend says it. */
export function describeScored(plan: BatchPlan, k: number, seqLen: number): string {
  if (k < 0 || k >= plan.rows.length) return `scored token ${k}`;
  const row = plan.rows[k];
  return `scored token ${k}: sequence ${plan.sequences[Math.floor(row / plan.T)]}, position ${row % plan.T} of ${seqLen}`;
}

/** One group of consecutive sequences of a batch, as a batch of its own, and where its scored tokens start. */
export interface BatchChunk {
  batch: TokenBatch;
  firstScored: number;
  nScored: number;
}

/**
 * Floats of GPU memory that a training chunk of B sequences of T rows needs: forward activations
 * (gpt.ts allocGpuActivations), the backward's scratch, and the head's rows.
 */
export function chunkFloats(config: ModelConfig, B: number, T: number): number {
  const { dModel: C, dMlp: M, nHead: NH, nLayer: L, vocabSize: V } = config;
  const N = B * T;
  const attention = B * NH * T * T;
  return N * C * 2 + 2 * N + L * (N * (10 * C + 2 * M + 4) + attention) + N * (6 * C + 2 * M) + attention + 3 * N * V;
}

/**
 * Splits a batch into chunks of consecutive sequences whose GPU memory (chunkFloats, each sequence cut
 * after its last scored position) stays within budgetFloats; a sequence that alone exceeds the budget is
 * a chunk of its own. Sequences with nothing scored ride along (the plan drops them) or are left out
 * between chunks. The chunks' scored tokens are consecutive runs of the batch's scored order.
 */
export function splitBatch(batch: TokenBatch, config: ModelConfig, budgetFloats: number): BatchChunk[] {
  checkBatch(batch, config);
  const { nSeq, seqLen, targets } = batch;
  const words = maskWords(config.vocabSize);
  const chunks: BatchChunk[] = [];
  let start = -1;
  let maxT = 0;
  let firstScored = 0;
  let scored = 0;
  const close = (end: number) => {
    if (start < 0) return;
    const n = scored - firstScored;
    chunks.push({
      batch: {
        nSeq: end - start,
        seqLen,
        tokens: batch.tokens.subarray(start * seqLen, end * seqLen),
        targets: targets.subarray(start * seqLen, end * seqLen),
        masks: batch.masks.subarray(firstScored * words, scored * words),
      },
      firstScored,
      nScored: n,
    });
    start = -1;
  };
  for (let s = 0; s < nSeq; s++) {
    let last = -1;
    let count = 0;
    for (let t = 0; t < seqLen; t++) {
      if (targets[s * seqLen + t] >= 0) {
        last = t;
        count++;
      }
    }
    if (last < 0) continue;
    const T = Math.max(maxT, last + 1);
    if (start >= 0 && chunkFloats(config, s - start + 1, T) > budgetFloats) close(s);
    if (start < 0) {
      start = s;
      maxT = 0;
      firstScored = scored;
    }
    maxT = Math.max(maxT, last + 1);
    scored += count;
  }
  close(nSeq);
  return chunks;
}
