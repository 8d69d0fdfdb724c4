// Causal multi-head self-attention over a fused qkv buffer (llm.c's attention_forward/backward).
// qkv: [T, 3C], row t = [q | k | v], head h at columns h*hs .. (h+1)*hs - 1 of each part (hs = C / NH).
// Rows t0 .. t1-1 are computed, each attending to keys 0 .. t; the full forward runs rows 0 .. T-1 and the
// incremental decoder runs only the new rows against its cache, with the same arithmetic per row.
// att: [NH, t1 - t0, t1], the softmax weights (row r of head h at (h * rows + r) * t1), kept for backward.
// On float32 buffers both directions are one call of wasm/attention.wat per layer (its header states the
// summation orders), which reads the keys transposed; on float64 (the gradient checks) the loops below,
// through dotRows, with Math.exp.
import type { Floats } from './floats.ts';
import { dotRows, scratchLike, transpose } from './matmul.ts';
import { attentionBackwardF32, attentionForwardF32, attentionKeysF32 } from './wasm_kernels.ts';

/** Keys of rows 0 .. T-1 (or more) transposed, [C, stride]: what the float32 forward reads. */
interface TransposedKeys {
  kT: Float32Array;
  stride: number;
}

/** kT[c stride + t] = k_t[c] for t0 <= t < t1: appends the keys of rows t0 .. t1-1 of qkv to kT. */
export function transposeKeys(keys: TransposedKeys, qkv: Float32Array, t0: number, t1: number, C: number): void {
  attentionKeysF32(keys.kT, keys.stride, qkv, t0, t1, C);
}

/**
 * out: [t1 - t0, C] (row r = position t0 + r). On float32, `keys` holds the keys of rows 0 .. t1-1
 * transposed (the decoder keeps them with its cache, transposeKeys); without it they are transposed here.
 * The float64 loops take queries in blocks of 4 through dotRows, for the scores q.k and for att @ v (on
 * the value vectors transposed).
 */
export function attentionForward(
  out: Floats,
  att: Floats,
  qkv: Floats,
  t0: number,
  t1: number,
  C: number,
  NH: number,
  keys?: TransposedKeys,
): void {
  if (out instanceof Float32Array) {
    if (keys === undefined) {
      keys = { kT: scratchLike(out, 0, C * t1) as Float32Array, stride: t1 };
      attentionKeysF32(keys.kT, t1, qkv as Float32Array, 0, t1, C);
    }
    attentionForwardF32(out, att as Float32Array, qkv as Float32Array, keys.kT, keys.stride, t0, t1, C, NH);
    return;
  }
  const hs = C / NH;
  const C3 = 3 * C;
  const scale = 1 / Math.sqrt(hs);
  const rows = t1 - t0;
  const vT = scratchLike(qkv, 0, C * t1);
  for (let t = 0; t < t1; t++) for (let c = 0; c < C; c++) vT[c * t1 + t] = qkv[t * C3 + 2 * C + c];
  for (let h = 0; h < NH; h++) {
    for (let tb = t0; tb < t1; tb += 4) {
      const nb = Math.min(4, t1 - tb);
      const keys = tb + nb;
      const a0 = (h * rows + (tb - t0)) * t1;
      // scores of queries tb .. tb+nb-1 against keys 0 .. keys-1 (the ones past each query are discarded)
      dotRows(att, a0, t1, qkv, tb * C3 + h * hs, C3, qkv, C + h * hs, C3, null, nb, hs, keys, false);
      for (let r = 0; r < nb; r++) {
        const t = tb + r;
        const a = a0 + r * t1;
        let max = -Infinity;
        for (let t2 = 0; t2 <= t; t2++) {
          const v = att[a + t2] * scale;
          att[a + t2] = v;
          if (v > max) max = v;
        }
        let sum = 0;
        for (let t2 = 0; t2 <= t; t2++) {
          const e = Math.exp(att[a + t2] - max);
          att[a + t2] = e;
          sum += e;
        }
        const inv = 1 / sum;
        for (let t2 = 0; t2 <= t; t2++) att[a + t2] *= inv;
        for (let t2 = t + 1; t2 < keys; t2++) att[a + t2] = 0;
      }
      dotRows(out, (tb - t0) * C + h * hs, C, att, a0, t1, vT, h * hs * t1, t1, null, nb, keys, hs, false);
    }
  }
}

/**
 * Backward of the full forward (t0 = 0, t1 = T). Accumulates into dqkv: [T, 3C]. The float64 loops
 * compute per head the four products (datt = dout v^T, dq = dpre k, dk = dpre^T q, dv = att^T dout)
 * through dotRows on transposed copies, restricted to the causal triangle in blocks of 4 rows.
 */
export function attentionBackward(
  dqkv: Floats,
  dout: Floats,
  qkv: Floats,
  att: Floats,
  T: number,
  C: number,
  NH: number,
): void {
  if (dqkv instanceof Float32Array) {
    attentionBackwardF32(
      dqkv,
      dout as Float32Array,
      qkv as Float32Array,
      att as Float32Array,
      scratchLike(dqkv, 0, T * T + (T * C) / NH) as Float32Array,
      T,
      C,
      NH,
    );
    return;
  }
  const hs = C / NH;
  const C3 = 3 * C;
  const scale = 1 / Math.sqrt(hs);
  const dpre = scratchLike(att, 0, T * T);
  const dpreT = scratchLike(att, 1, T * T);
  const attT = scratchLike(att, 2, T * T);
  const kT = scratchLike(att, 3, hs * T);
  const qT = scratchLike(att, 4, hs * T);
  const doutT = scratchLike(att, 5, hs * T);
  for (let h = 0; h < NH; h++) {
    const qo = h * hs;
    const ko = C + h * hs;
    const vo = 2 * C + h * hs;
    const a0 = h * T * T;
    for (let t = 0; t < T; t++) {
      for (let i = 0; i < hs; i++) {
        kT[i * T + t] = qkv[t * C3 + ko + i];
        qT[i * T + t] = qkv[t * C3 + qo + i];
        doutT[i * T + t] = dout[t * C + qo + i];
      }
    }
    // datt[t, t2] = dout[t] . v[t2], then through the softmax: dpre = att (datt - att . datt) scale
    for (let tb = 0; tb < T; tb += 4) {
      const nb = Math.min(4, T - tb);
      dotRows(dpre, tb * T, T, dout, tb * C + qo, C, qkv, vo, C3, null, nb, hs, tb + nb, false);
    }
    attT.fill(0, 0, T * T);
    for (let t = 0; t < T; t++) {
      const a = a0 + t * T;
      const d = t * T;
      let dot = 0;
      for (let t2 = 0; t2 <= t; t2++) dot += att[a + t2] * dpre[d + t2];
      for (let t2 = 0; t2 <= t; t2++) {
        const w = att[a + t2];
        dpre[d + t2] = w * (dpre[d + t2] - dot) * scale;
        attT[t2 * T + t] = w;
      }
      dpre.fill(0, d + t + 1, d + T);
    }
    transpose(dpreT, dpre, T, T);
    for (let tb = 0; tb < T; tb += 4) {
      const nb = Math.min(4, T - tb);
      // dq[t] = sum_{t2 <= t} dpre[t, t2] k[t2]
      dotRows(dqkv, tb * C3 + qo, C3, dpre, tb * T, T, kT, 0, T, null, nb, tb + nb, hs, true);
      // dk[t2] = sum_{t >= t2} dpre[t, t2] q[t];  dv[t2] = sum_{t >= t2} att[t, t2] dout[t]
      dotRows(dqkv, tb * C3 + ko, C3, dpreT, tb * T + tb, T, qT, tb, T, null, nb, T - tb, hs, true);
      dotRows(dqkv, tb * C3 + vo, C3, attT, tb * T + tb, T, doutT, tb, T, null, nb, T - tb, hs, true);
    }
  }
}
