// Exact on-policy distillation on the CPU: per scored row, the divergence of the student's masked
// distribution p from the teacher's q over the whole vocabulary, and its gradient with respect to the
// student's logits. The CPU twin of shaders/distil.wgsl (same names, same conventions).
//
// Rows hold masked log-probs as maskedLogSoftmax leaves them (MASKED_LOG_PROB where the mask forbids a
// token); only the row's allowed tokens are read, and student and teacher share the row's mask.
//   alpha = 0:        D = KL(p || q) = sum_j p_j (log p_j - log q_j)                 (reverse KL)
//   0 < alpha < 1:    D = alpha KL(p || m) + (1 - alpha) KL(q || m),  m = alpha p + (1 - alpha) q
// With p = softmax(z) over the allowed tokens, dD/dz_j = p_j (g_j - sum_i p_i g_i) where g_j = dD/dp_j up to
// a constant: g_j = log p_j - log q_j for the reverse KL, alpha (log p_j - log m_j) for the JSD. A row with
// one allowed token (a forced token) has D = 0 and no gradient.
//
// Sums are float64 per row, in token order; outputs are float32.
import { maskWords } from '../backend.ts';

function allowed(masks: Uint32Array, rowWord: number, v: number): boolean {
  return ((masks[rowWord + (v >>> 5)] >>> (v & 31)) & 1) === 1;
}

/** log m_j of the JSD's mixture, from the two log-probs (stable: the larger one factored out). */
function logMixture(lp: number, lq: number, alpha: number): number {
  const hi = Math.max(lp, lq);
  return hi + Math.log(alpha * Math.exp(lp - hi) + (1 - alpha) * Math.exp(lq - hi));
}

/** g_j of the divergence at one token: the derivative of D by p_j, up to a constant of the row. */
function divergenceSlope(lp: number, lq: number, alpha: number): number {
  return alpha === 0 ? lp - lq : alpha * (lp - logMixture(lp, lq, alpha));
}

function checkDistilShapes(name: string, lengths: number[], rows: number, vocab: number, alpha: number): void {
  if (!(alpha >= 0 && alpha < 1)) throw new RangeError(`${name}: alpha must be in [0, 1), got ${alpha}`);
  const [student, teacher, masks] = lengths;
  if (student < rows * vocab || teacher < rows * vocab)
    throw new RangeError(
      `${name}: student and teacher rows need ${rows * vocab} floats, got ${student} and ${teacher}`,
    );
  if (masks < rows * maskWords(vocab))
    throw new RangeError(`${name}: masks hold ${masks} < ${rows * maskWords(vocab)} words`);
}

/** out[r] = D(p_r || q_r) for each row r of student log-probs `student` and teacher log-probs `teacher`. */
export function distilDivergence(
  out: Float32Array,
  student: Float32Array,
  teacher: Float32Array,
  masks: Uint32Array,
  rows: number,
  vocab: number,
  alpha: number,
): void {
  checkDistilShapes('distilDivergence', [student.length, teacher.length, masks.length], rows, vocab, alpha);
  const words = maskWords(vocab);
  for (let r = 0; r < rows; r++) {
    let d = 0;
    for (let v = 0; v < vocab; v++) {
      if (!allowed(masks, r * words, v)) continue;
      const lp = student[r * vocab + v];
      const lq = teacher[r * vocab + v];
      if (alpha === 0) {
        d += Math.exp(lp) * (lp - lq);
      } else {
        const lm = logMixture(lp, lq, alpha);
        d += alpha * Math.exp(lp) * (lp - lm) + (1 - alpha) * Math.exp(lq) * (lq - lm);
      }
    }
    out[r] = d;
  }
}

/**
 * dlogits[r, j] += scale[r] p_j (g_j - sum_i p_i g_i) over row r's allowed tokens: the gradient of
 * sum_r scale[r] D(p_r || q_r) by the student's logits, added to what dlogits holds. Rows with scale 0 are
 * skipped (their teacher rows are not read).
 */
export function distilLogitGradient(
  dlogits: Float32Array,
  student: Float32Array,
  teacher: Float32Array,
  masks: Uint32Array,
  scale: Float32Array,
  rows: number,
  vocab: number,
  alpha: number,
): void {
  checkDistilShapes('distilLogitGradient', [student.length, teacher.length, masks.length], rows, vocab, alpha);
  if (dlogits.length < rows * vocab || scale.length < rows)
    throw new RangeError(`distilLogitGradient: dlogits need ${rows * vocab} floats and scale ${rows}`);
  const words = maskWords(vocab);
  for (let r = 0; r < rows; r++) {
    const s = scale[r];
    if (s === 0) continue;
    let mean = 0;
    for (let v = 0; v < vocab; v++) {
      if (allowed(masks, r * words, v))
        mean +=
          Math.exp(student[r * vocab + v]) * divergenceSlope(student[r * vocab + v], teacher[r * vocab + v], alpha);
    }
    for (let v = 0; v < vocab; v++) {
      if (!allowed(masks, r * words, v)) continue;
      const lp = student[r * vocab + v];
      dlogits[r * vocab + v] += s * Math.exp(lp) * (divergenceSlope(lp, teacher[r * vocab + v], alpha) - mean);
    }
  }
}
