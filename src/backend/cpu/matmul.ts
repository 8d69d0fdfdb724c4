// Fully connected layer, weights row-major [OC, C] as llm.c and model/layout.ts:
//   out[n, o] = bias[o] + sum_c inp[n, c] * weight[o, c]
// Each output is a dot product summed over c = 0 .. C-1 in that order and then biased, whatever the
// blocking, so a row computes bit for bit the same value alone (incremental decoding) or in a batch (the
// full forward). The blocking (4 outputs per pass over an input row) keeps the input row in registers.
import type { Floats } from './floats.ts';

let scratch = new Float64Array(256);

function scratchOf(n: number): Float64Array {
  if (scratch.length < n) scratch = new Float64Array(Math.max(n, scratch.length * 2));
  scratch.fill(0, 0, n);
  return scratch;
}

/** out: [N, OC]; inp: [N, C]; weight: [OC, C]; bias: [OC] or null. */
export function matmulForward(out: Floats, inp: Floats, weight: Floats, bias: Floats | null, N: number, C: number, OC: number): void {
  for (let n = 0; n < N; n++) {
    const x = n * C;
    const y = n * OC;
    let o = 0;
    for (; o + 4 <= OC; o += 4) {
      const w0 = o * C;
      const w1 = w0 + C;
      const w2 = w1 + C;
      const w3 = w2 + C;
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      for (let c = 0; c < C; c++) {
        const v = inp[x + c];
        s0 += v * weight[w0 + c];
        s1 += v * weight[w1 + c];
        s2 += v * weight[w2 + c];
        s3 += v * weight[w3 + c];
      }
      if (bias !== null) {
        s0 += bias[o];
        s1 += bias[o + 1];
        s2 += bias[o + 2];
        s3 += bias[o + 3];
      }
      out[y + o] = s0;
      out[y + o + 1] = s1;
      out[y + o + 2] = s2;
      out[y + o + 3] = s3;
    }
    for (; o < OC; o++) {
      const w0 = o * C;
      let s0 = 0;
      for (let c = 0; c < C; c++) s0 += inp[x + c] * weight[w0 + c];
      if (bias !== null) s0 += bias[o];
      out[y + o] = s0;
    }
  }
}

/**
 * Accumulates dinp += dout @ weight, dweight += dout^T @ inp, dbias += column sums of dout (dbias may be
 * null). Zero rows of dout (unscored logits, masked tokens) cost nothing in the weight gradient.
 */
export function matmulBackward(
  dinp: Floats,
  dweight: Floats,
  dbias: Floats | null,
  dout: Floats,
  inp: Floats,
  weight: Floats,
  N: number,
  C: number,
  OC: number,
): void {
  const acc = scratchOf(C);
  for (let n = 0; n < N; n++) {
    acc.fill(0, 0, C);
    const y = n * OC;
    let o = 0;
    for (; o + 4 <= OC; o += 4) {
      const d0 = dout[y + o];
      const d1 = dout[y + o + 1];
      const d2 = dout[y + o + 2];
      const d3 = dout[y + o + 3];
      if (d0 === 0 && d1 === 0 && d2 === 0 && d3 === 0) continue;
      const w0 = o * C;
      const w1 = w0 + C;
      const w2 = w1 + C;
      const w3 = w2 + C;
      for (let c = 0; c < C; c++) acc[c] += d0 * weight[w0 + c] + d1 * weight[w1 + c] + d2 * weight[w2 + c] + d3 * weight[w3 + c];
    }
    for (; o < OC; o++) {
      const d0 = dout[y + o];
      if (d0 === 0) continue;
      const w0 = o * C;
      for (let c = 0; c < C; c++) acc[c] += d0 * weight[w0 + c];
    }
    const x = n * C;
    for (let c = 0; c < C; c++) dinp[x + c] += acc[c];
  }
  for (let o = 0; o < OC; o++) {
    acc.fill(0, 0, C);
    let db = 0;
    let n = 0;
    for (; n + 4 <= N; n += 4) {
      const d0 = dout[n * OC + o];
      const d1 = dout[(n + 1) * OC + o];
      const d2 = dout[(n + 2) * OC + o];
      const d3 = dout[(n + 3) * OC + o];
      if (d0 === 0 && d1 === 0 && d2 === 0 && d3 === 0) continue;
      db += d0 + d1 + d2 + d3;
      const x0 = n * C;
      const x1 = x0 + C;
      const x2 = x1 + C;
      const x3 = x2 + C;
      for (let c = 0; c < C; c++) acc[c] += d0 * inp[x0 + c] + d1 * inp[x1 + c] + d2 * inp[x2 + c] + d3 * inp[x3 + c];
    }
    for (; n < N; n++) {
      const d0 = dout[n * OC + o];
      if (d0 === 0) continue;
      db += d0;
      const x0 = n * C;
      for (let c = 0; c < C; c++) acc[c] += d0 * inp[x0 + c];
    }
    const w = o * C;
    for (let c = 0; c < C; c++) dweight[w + c] += acc[c];
    if (dbias !== null) dbias[o] += db;
  }
}
