// Token sequences with scored positions, and their packing into the backend's TokenBatch. A scored position p
// of a sequence is predicted from ids[0 .. p-1], so the batch's target at p - 1 is ids[p]; the per-token order
// of every array the backend returns is the order of the sequences, then of their positions.
import type { TokenBatch } from '../backend/backend.ts';

export interface ScoredSequence {
  ids: Int32Array;
  /** Increasing indices into ids of the scored tokens. */
  positions: Int32Array;
  /** [positions.length * maskWords] allowed-token bitmask under which each scored token was chosen. */
  masks: Uint32Array;
}

export function scoredCount(seqs: readonly ScoredSequence[]): number {
  return seqs.reduce((n, s) => n + s.positions.length, 0);
}

export function packBatch(seqs: readonly ScoredSequence[], padId: number): TokenBatch {
  const seqLen = seqs.reduce((m, s) => Math.max(m, s.ids.length), 1);
  const nSeq = seqs.length;
  const tokens = new Int32Array(nSeq * seqLen).fill(padId);
  const targets = new Int32Array(nSeq * seqLen).fill(-1);
  const words = seqs.length && seqs[0].positions.length ? seqs[0].masks.length / seqs[0].positions.length : 0;
  const masks = new Uint32Array(scoredCount(seqs) * words);
  let k = 0;
  seqs.forEach((s, i) => {
    tokens.set(s.ids, i * seqLen);
    for (let j = 0; j < s.positions.length; j++) {
      const p = s.positions[j];
      if (p < 1 || p >= s.ids.length) throw new RangeError(`scored position ${p} outside [1, ${s.ids.length})`);
      targets[i * seqLen + p - 1] = s.ids[p];
    }
    masks.set(s.masks, k * words);
    k += s.positions.length;
  });
  return { nSeq, seqLen, tokens, targets, masks };
}

/** The sequence with its tokens at [at, at + block.length) replaced by `block`: a skill slot filled, no position moved. */
export function fillBlock(seq: ScoredSequence, at: number, block: readonly number[]): ScoredSequence {
  const ids = seq.ids.slice();
  ids.set(block, at);
  return { ids, positions: seq.positions, masks: seq.masks };
}

/** The same scored tokens with `block` inserted at index `at` (the skill block after the task line). */

export function insertBlock(seq: ScoredSequence, at: number, block: readonly number[]): ScoredSequence {
  const ids = new Int32Array(seq.ids.length + block.length);
  ids.set(seq.ids.subarray(0, at), 0);
  ids.set(block, at);
  ids.set(seq.ids.subarray(at), at + block.length);
  return { ids, positions: seq.positions.map((p) => (p >= at ? p + block.length : p)), masks: seq.masks };
}

/**
 * The same scored tokens in fewer sequences, for a pass without a gradient: a sequence that is the beginning of
 * the next one (a windowed step whose whole sequence opens the next step's context) joins it, its scored
 * positions before the next one's. Causal attention gives a position the same logits in either sequence, and
 * the backend computes each row alike alone or in a longer sequence, so the scores are the same bits in the
 * same order. A loss pass keeps its sequences: the gradient's sum runs over them.
 */
export function joinPrefixes(seqs: readonly ScoredSequence[]): ScoredSequence[] {
  const out: ScoredSequence[] = [];
  let run: ScoredSequence[] = [];
  const flush = () => {
    if (run.length === 0) return;
    const last = run[run.length - 1];
    out.push(
      run.length === 1
        ? last
        : {
            ids: last.ids,
            positions: Int32Array.from(run.flatMap((s) => Array.from(s.positions))),
            masks: Uint32Array.from(run.flatMap((s) => Array.from(s.masks))),
          },
    );
    run = [];
  };
  for (const seq of seqs) {
    const before = run[run.length - 1];
    if (before === undefined || !opens(before, seq)) flush();
    run.push(seq);
  }
  flush();
  return out;
}

/** Whether `a` is the beginning of `b` with every scored position of `b` past it. */
function opens(a: ScoredSequence, b: ScoredSequence): boolean {
  const n = a.ids.length;
  if (n >= b.ids.length || b.positions.length === 0 || b.positions[0] < n) return false;
  for (let i = 0; i < n; i++) if (a.ids[i] !== b.ids[i]) return false;
  return true;
}
