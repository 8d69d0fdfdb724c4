// Masked log-softmax over rows of logits, and the gather of one token's log-probability per row: the
// CPU twin of shaders/log_softmax.wgsl (same names, same conventions); and the gradient of the SEED loss
// with respect to the logits. The rows run as wasm/logits.wat (f32, a vector exp; its header states the
// order, which subtracts the max before the log of the sum, as the WGSL kernel does after).
//
// Conventions (shared with the WGSL kernel):
// - A row's allowed tokens come from its bitmask: maskWords = ceil(vocab / 32) u32 words, bit v & 31 of
//   word v >> 5 set when token v is allowed. Bits at or past `vocab` are ignored.
// - Allowed entries get logit - logsumexp(allowed logits), computed stably (max over allowed first).
// - Disallowed entries get MASKED_LOG_PROB (contract.ts), a large negative FINITE number rather than
//   -Infinity.
// - A row with no allowed token is all MASKED_LOG_PROB (it carries no distribution).
// - Logits must be finite; an allowed NaN logit makes its row's allowed entries NaN.
import { logitGradF32, maskedLogSoftmaxF32 } from './wasm_kernels.ts';

/**
 * out[r * vocab + v] = masked log-softmax of logits row r at token v.
 * logits, out: [rows * vocab]; masks: [rows * ceil(vocab / 32)]. out may be the logits array itself.
 */
export function maskedLogSoftmax(
  out: Float32Array,
  logits: Float32Array,
  masks: Uint32Array,
  rows: number,
  vocab: number,
): void {
  checkShapes('maskedLogSoftmax', logits.length, masks.length, rows, vocab);
  if (out.length < rows * vocab) throw new RangeError(`maskedLogSoftmax: out holds ${out.length} < ${rows * vocab}`);
  maskedLogSoftmaxF32(out, logits, masks, rows, vocab);
}

/**
 * In place on masked log-probs logp [rows, vocab] (as maskedLogSoftmax leaves them): the gradient of
 * sum_r coef[r] log p_r(targets[r]) with respect to the logits, coef[r] (onehot(targets[r]) - p_r) over the
 * allowed tokens of row r and 0 elsewhere.
 */
export function logitGradient(
  logp: Float32Array,
  masks: Uint32Array,
  coef: Float32Array,
  targets: Int32Array,
  rows: number,
  vocab: number,
): void {
  checkShapes('logitGradient', logp.length, masks.length, rows, vocab);
  if (coef.length < rows || targets.length < rows)
    throw new RangeError(`logitGradient: coef and targets need ${rows} entries`);
  for (let r = 0; r < rows; r++) {
    if (!(targets[r] >= 0 && targets[r] < vocab))
      throw new RangeError(`logitGradient: targets[${r}] = ${targets[r]} is outside [0, ${vocab})`);
  }
  logitGradF32(logp, masks, coef, targets, rows, vocab);
}

/**
 * out[r] = logProbs[r * vocab + targets[r]]: the log-probability of each row's given token.
 * A target outside [0, vocab) is a caller error: thrown here; the GPU twin, which cannot throw, writes
 * MASKED_LOG_PROB there.
 */
export function gatherLogProbs(
  out: Float32Array,
  logProbs: Float32Array,
  targets: Int32Array,
  rows: number,
  vocab: number,
): void {
  if (logProbs.length < rows * vocab || targets.length < rows || out.length < rows) {
    throw new RangeError(
      `gatherLogProbs: need logProbs >= ${rows * vocab}, targets and out >= ${rows}; got ` +
        `${logProbs.length}, ${targets.length}, ${out.length}`,
    );
  }
  for (let r = 0; r < rows; r++) {
    const t = targets[r];
    if (!(t >= 0 && t < vocab)) throw new RangeError(`gatherLogProbs: targets[${r}] = ${t} is outside [0, ${vocab})`);
    out[r] = logProbs[r * vocab + t];
  }
}

function checkShapes(name: string, logitsLength: number, masksLength: number, rows: number, vocab: number): void {
  if (!Number.isInteger(rows) || rows < 0 || !Number.isInteger(vocab) || vocab < 1) {
    throw new RangeError(`${name}: rows must be >= 0 and vocab >= 1 (integers), got rows ${rows}, vocab ${vocab}`);
  }
  const words = Math.ceil(vocab / 32);
  if (logitsLength < rows * vocab) throw new RangeError(`${name}: logits hold ${logitsLength} < ${rows * vocab}`);
  if (masksLength < rows * words) throw new RangeError(`${name}: masks hold ${masksLength} < ${rows * words}`);
}
