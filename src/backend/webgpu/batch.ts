// A TokenBatch checked and laid out for the GPU: the sequences that have a scored position, each cut to
// T = 1 + the last scored position of any of them, as one [B, T] block, plus the index arrays the
// kernels take (positions, per-sequence rows, the scored rows and the row pairs of the head's gather and
// scatter). A batch is checked by contract.ts's checkBatch, as on the CPU.
import { maskWords, type TokenBatch } from '../backend.ts';
import { checkBatch } from '../contract.ts';
import type { ModelConfig } from '../../model/config.ts';
import { packSeqRows } from './attention.ts';

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
