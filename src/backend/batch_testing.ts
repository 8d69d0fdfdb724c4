// Test batches and SEED loss inputs, shared by the tests of both backends (test-only).
import { Rng } from '../common/rng.ts';
import type { ModelConfig } from '../model/config.ts';
import { maskWords, type LossInputs, type TokenBatch } from './backend.ts';
import { allowToken } from './contract.ts';
import { maskedLogSoftmax } from './cpu/log_softmax.ts';

/**
 * nSeq sequences of seqLen random tokens. Sequence 1 has nothing scored; elsewhere each position is scored
 * with probability 1/2, its target a random token, its mask random bits that include the target.
 */
export function makeBatch(config: ModelConfig, seed: number, nSeq = 4, seqLen = 19): TokenBatch {
  const V = config.vocabSize;
  const words = maskWords(V);
  const rng = new Rng(seed);
  const tokens = Int32Array.from({ length: nSeq * seqLen }, () => rng.int(V));
  const targets = new Int32Array(nSeq * seqLen).fill(-1);
  const masks: number[] = [];
  for (let s = 0; s < nSeq; s++) {
    if (s === 1) continue;
    for (let t = 0; t < seqLen; t++) {
      if (rng.float() < 0.5) continue;
      const target = rng.int(V);
      targets[s * seqLen + t] = target;
      const row = new Uint32Array(words);
      for (let i = 0; i < words; i++) row[i] = rng.nextU32();
      allowToken(row, 0, words, target);
      masks.push(...row);
    }
  }
  return { nSeq, seqLen, tokens, targets, masks: Uint32Array.from(masks) };
}

/** Number of scored positions of a batch. */
export function scoredCount(batch: TokenBatch): number {
  return batch.targets.reduce((n, t) => n + (t >= 0 ? 1 : 0), 0);
}

/**
 * Random advantages, every third token outside the OPD mask, and l_skill, l_old, l_ref scattered around the
 * scored l_student.
 */
export function randomLossInputs(lStudent: Float32Array, seed: number): LossInputs {
  const rng = new Rng(seed);
  const n = lStudent.length;
  const near = () => Float32Array.from(lStudent, (l) => l + 0.3 * rng.normal());
  return {
    advantage: Float32Array.from({ length: n }, () => rng.normal()),
    mask: new Float32Array(n).fill(1),
    opdMask: Float32Array.from({ length: n }, (_, k) => (k % 3 === 0 ? 0 : 1)),
    lSkill: near(),
    lOld: near(),
    lRef: near(),
  };
}

/**
 * Teacher rows for exact distillation: the masked log-softmax of random logits (normal, times spread) under
 * the batch's masks, [nScored * V] in scored order; far from a freshly initialised student's rows.
 */
export function randomTeacherRows(batch: TokenBatch, vocab: number, seed: number, spread = 2): Float32Array {
  const rng = new Rng(seed);
  const rows = scoredCount(batch);
  const teacher = new Float32Array(rows * vocab);
  maskedLogSoftmax(
    teacher,
    Float32Array.from(teacher, () => spread * rng.normal()),
    batch.masks,
    rows,
    vocab,
  );
  return teacher;
}
