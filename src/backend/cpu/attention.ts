// Causal multi-head self-attention over a fused qkv buffer (llm.c's attention_forward/backward).
// qkv: [T, 3C], row t = [q | k | v], head h at columns h*hs .. (h+1)*hs - 1 of each part (hs = C / NH).
// Rows t0 .. t1-1 are computed, each attending to keys 0 .. t; the full forward runs rows 0 .. T-1 and the
// incremental decoder runs only the new rows against its cache, with the same arithmetic per row.
// att: [NH, t1 - t0, t1], the softmax weights (row r of head h at (h * rows + r) * t1), kept for backward.
import type { Floats } from './floats.ts';

let rowScratch = new Float64Array(512);

/** out: [t1 - t0, C] (row r = position t0 + r). */
export function attentionForward(out: Floats, att: Floats, qkv: Floats, t0: number, t1: number, C: number, NH: number): void {
  const hs = C / NH;
  const C3 = 3 * C;
  const scale = 1 / Math.sqrt(hs);
  const rows = t1 - t0;
  if (rowScratch.length < hs) rowScratch = new Float64Array(hs);
  const acc = rowScratch;
  for (let h = 0; h < NH; h++) {
    const qo = h * hs;
    const ko = C + h * hs;
    const vo = 2 * C + h * hs;
    for (let t = t0; t < t1; t++) {
      const q = t * C3 + qo;
      const a = (h * rows + (t - t0)) * t1;
      let max = -Infinity;
      for (let t2 = 0; t2 <= t; t2++) {
        const k = t2 * C3 + ko;
        let s = 0;
        for (let i = 0; i < hs; i++) s += qkv[q + i] * qkv[k + i];
        s *= scale;
        att[a + t2] = s;
        if (s > max) max = s;
      }
      let sum = 0;
      for (let t2 = 0; t2 <= t; t2++) {
        const e = Math.exp(att[a + t2] - max);
        att[a + t2] = e;
        sum += e;
      }
      const inv = 1 / sum;
      for (let t2 = 0; t2 <= t; t2++) att[a + t2] *= inv;
      acc.fill(0, 0, hs);
      for (let t2 = 0; t2 <= t; t2++) {
        const w = att[a + t2];
        const v = t2 * C3 + vo;
        for (let i = 0; i < hs; i++) acc[i] += w * qkv[v + i];
      }
      const o = (t - t0) * C + qo;
      for (let i = 0; i < hs; i++) out[o + i] = acc[i];
    }
  }
}

/** Backward of the full forward (t0 = 0, t1 = T). Accumulates into dqkv: [T, 3C]. */
export function attentionBackward(dqkv: Floats, dout: Floats, qkv: Floats, att: Floats, T: number, C: number, NH: number): void {
  const hs = C / NH;
  const C3 = 3 * C;
  const scale = 1 / Math.sqrt(hs);
  if (rowScratch.length < T) rowScratch = new Float64Array(T);
  const datt = rowScratch;
  for (let h = 0; h < NH; h++) {
    const qo = h * hs;
    const ko = C + h * hs;
    const vo = 2 * C + h * hs;
    for (let t = 0; t < T; t++) {
      const a = (h * T + t) * T;
      const o = t * C + qo;
      // through out = att @ v
      let dot = 0;
      for (let t2 = 0; t2 <= t; t2++) {
        const v = t2 * C3 + vo;
        const w = att[a + t2];
        let s = 0;
        for (let i = 0; i < hs; i++) {
          const d = dout[o + i];
          s += qkv[v + i] * d;
          dqkv[v + i] += w * d;
        }
        datt[t2] = s;
        dot += w * s;
      }
      // through the softmax, then through the scaled q.k
      const q = t * C3 + qo;
      for (let t2 = 0; t2 <= t; t2++) {
        const dpre = att[a + t2] * (datt[t2] - dot) * scale;
        if (dpre === 0) continue;
        const k = t2 * C3 + ko;
        for (let i = 0; i < hs; i++) {
          dqkv[q + i] += qkv[k + i] * dpre;
          dqkv[k + i] += qkv[q + i] * dpre;
        }
      }
    }
  }
}
