// Fully connected layer, weights row-major [OC, C] as llm.c and model/layout.ts:
//   out[n, o] = bias[o] + sum_c inp[n, c] * weight[o, c]
// The forward is dotRows (out[n, m] = a[n] . b[m]). On float32 buffers the backward is wasm/mat_acc.wat,
// which reads its right operand by rows, so neither half transposes anything; on float64 buffers it is
// dotRows on transposed copies.
//
// dotRows has two implementations of one contract. On float32 buffers (training, decoding) it is the
// WebAssembly SIMD kernel of wasm/dot_rows.wat, f32 accumulation in four lanes. On float64 buffers (the
// finite-difference gradient checks) it is the TypeScript loop below, float64 accumulation in a 4 x 4
// register block. Either way an output's value does not depend on the block it falls in: a row gets bit
// for bit the same value alone (incremental decoding) or in a batch.
import { colSumsF32, dotRowsF32, matAccF32 } from './wasm_kernels.ts';
import type { Floats } from './floats.ts';
import { freeHeapFloats, heapFloats } from './heap.ts';

/**
 * out[oOff + n oStride + m] = (or +=, with accumulate) bias[m] + sum_k a[aOff + n aStride + k] b[bOff + m bStride + k]
 * for n < N, m < M. bias may be null.
 */
export function dotRows(
  out: Floats,
  oOff: number,
  oStride: number,
  a: Floats,
  aOff: number,
  aStride: number,
  b: Floats,
  bOff: number,
  bStride: number,
  bias: Floats | null,
  N: number,
  K: number,
  M: number,
  accumulate: boolean,
): void {
  if (out instanceof Float32Array) {
    dotRowsF32(
      out,
      oOff,
      oStride,
      a as Float32Array,
      aOff,
      aStride,
      b as Float32Array,
      bOff,
      bStride,
      bias as Float32Array | null,
      N,
      K,
      M,
      accumulate,
    );
    return;
  }
  let n = 0;
  for (; n + 4 <= N; n += 4) {
    const a0 = aOff + n * aStride;
    const a1 = a0 + aStride;
    const a2 = a1 + aStride;
    const a3 = a2 + aStride;
    const y0 = oOff + n * oStride;
    const y1 = y0 + oStride;
    const y2 = y1 + oStride;
    const y3 = y2 + oStride;
    let m = 0;
    for (; m + 4 <= M; m += 4) {
      const b0 = bOff + m * bStride;
      const b1 = b0 + bStride;
      const b2 = b1 + bStride;
      const b3 = b2 + bStride;
      let s00 = 0,
        s01 = 0,
        s02 = 0,
        s03 = 0;
      let s10 = 0,
        s11 = 0,
        s12 = 0,
        s13 = 0;
      let s20 = 0,
        s21 = 0,
        s22 = 0,
        s23 = 0;
      let s30 = 0,
        s31 = 0,
        s32 = 0,
        s33 = 0;
      for (let k = 0; k < K; k++) {
        const w0 = b[b0 + k];
        const w1 = b[b1 + k];
        const w2 = b[b2 + k];
        const w3 = b[b3 + k];
        let x = a[a0 + k];
        s00 += x * w0;
        s01 += x * w1;
        s02 += x * w2;
        s03 += x * w3;
        x = a[a1 + k];
        s10 += x * w0;
        s11 += x * w1;
        s12 += x * w2;
        s13 += x * w3;
        x = a[a2 + k];
        s20 += x * w0;
        s21 += x * w1;
        s22 += x * w2;
        s23 += x * w3;
        x = a[a3 + k];
        s30 += x * w0;
        s31 += x * w1;
        s32 += x * w2;
        s33 += x * w3;
      }
      if (bias !== null) {
        const c0 = bias[m],
          c1 = bias[m + 1],
          c2 = bias[m + 2],
          c3 = bias[m + 3];
        s00 += c0;
        s01 += c1;
        s02 += c2;
        s03 += c3;
        s10 += c0;
        s11 += c1;
        s12 += c2;
        s13 += c3;
        s20 += c0;
        s21 += c1;
        s22 += c2;
        s23 += c3;
        s30 += c0;
        s31 += c1;
        s32 += c2;
        s33 += c3;
      }
      if (accumulate) {
        out[y0 + m] += s00;
        out[y0 + m + 1] += s01;
        out[y0 + m + 2] += s02;
        out[y0 + m + 3] += s03;
        out[y1 + m] += s10;
        out[y1 + m + 1] += s11;
        out[y1 + m + 2] += s12;
        out[y1 + m + 3] += s13;
        out[y2 + m] += s20;
        out[y2 + m + 1] += s21;
        out[y2 + m + 2] += s22;
        out[y2 + m + 3] += s23;
        out[y3 + m] += s30;
        out[y3 + m + 1] += s31;
        out[y3 + m + 2] += s32;
        out[y3 + m + 3] += s33;
      } else {
        out[y0 + m] = s00;
        out[y0 + m + 1] = s01;
        out[y0 + m + 2] = s02;
        out[y0 + m + 3] = s03;
        out[y1 + m] = s10;
        out[y1 + m + 1] = s11;
        out[y1 + m + 2] = s12;
        out[y1 + m + 3] = s13;
        out[y2 + m] = s20;
        out[y2 + m + 1] = s21;
        out[y2 + m + 2] = s22;
        out[y2 + m + 3] = s23;
        out[y3 + m] = s30;
        out[y3 + m + 1] = s31;
        out[y3 + m + 2] = s32;
        out[y3 + m + 3] = s33;
      }
    }
    for (; m < M; m++) {
      for (let r = 0; r < 4; r++)
        dotOne(
          out,
          oOff + (n + r) * oStride + m,
          a,
          aOff + (n + r) * aStride,
          b,
          bOff + m * bStride,
          bias,
          m,
          K,
          accumulate,
        );
    }
  }
  for (; n < N; n++) {
    const a0 = aOff + n * aStride;
    const y0 = oOff + n * oStride;
    let m = 0;
    for (; m + 4 <= M; m += 4) {
      const b0 = bOff + m * bStride;
      const b1 = b0 + bStride;
      const b2 = b1 + bStride;
      const b3 = b2 + bStride;
      let s0 = 0,
        s1 = 0,
        s2 = 0,
        s3 = 0;
      for (let k = 0; k < K; k++) {
        const x = a[a0 + k];
        s0 += x * b[b0 + k];
        s1 += x * b[b1 + k];
        s2 += x * b[b2 + k];
        s3 += x * b[b3 + k];
      }
      if (bias !== null) {
        s0 += bias[m];
        s1 += bias[m + 1];
        s2 += bias[m + 2];
        s3 += bias[m + 3];
      }
      if (accumulate) {
        out[y0 + m] += s0;
        out[y0 + m + 1] += s1;
        out[y0 + m + 2] += s2;
        out[y0 + m + 3] += s3;
      } else {
        out[y0 + m] = s0;
        out[y0 + m + 1] = s1;
        out[y0 + m + 2] = s2;
        out[y0 + m + 3] = s3;
      }
    }
    for (; m < M; m++) dotOne(out, y0 + m, a, a0, b, bOff + m * bStride, bias, m, K, accumulate);
  }
}

function dotOne(
  out: Floats,
  at: number,
  a: Floats,
  a0: number,
  b: Floats,
  b0: number,
  bias: Floats | null,
  m: number,
  K: number,
  accumulate: boolean,
): void {
  let s = 0;
  for (let k = 0; k < K; k++) s += a[a0 + k] * b[b0 + k];
  if (bias !== null) s += bias[m];
  if (accumulate) out[at] += s;
  else out[at] = s;
}

/** dst[c * rows + r] = src[r * cols + c]: a [rows, cols] matrix into [cols, rows]. */
export function transpose(dst: Floats, src: Floats, rows: number, cols: number): void {
  for (let r = 0; r < rows; r++) {
    const s = r * cols;
    for (let c = 0; c < cols; c++) dst[c * rows + r] = src[s + c];
  }
}

const SCRATCH_SLOTS = 6;
const scratch32: Float32Array[] = Array.from({ length: SCRATCH_SLOTS }, () => new Float32Array(0));
const scratch64: Float64Array[] = Array.from({ length: SCRATCH_SLOTS }, () => new Float64Array(0));

/** Scratch buffer `slot` (0 .. 5) of the same element type as `like`, at least n long; callers must not nest uses of a slot. */
export function scratchLike(like: Floats, slot: number, n: number): Floats {
  if (like instanceof Float32Array) {
    if (scratch32[slot].length < n) {
      freeHeapFloats(scratch32[slot]);
      scratch32[slot] = heapFloats(Math.max(n, 2 * scratch32[slot].length));
    }
    return scratch32[slot];
  }
  if (scratch64[slot].length < n) scratch64[slot] = new Float64Array(Math.max(n, 2 * scratch64[slot].length));
  return scratch64[slot];
}

/** out: [N, OC]; inp: [N, C]; weight: [OC, C]; bias: [OC] or null. */
export function matmulForward(
  out: Floats,
  inp: Floats,
  weight: Floats,
  bias: Floats | null,
  N: number,
  C: number,
  OC: number,
): void {
  dotRows(out, 0, OC, inp, 0, C, weight, 0, C, bias, N, C, OC, false);
}

/** Accumulates dinp += dout @ weight, dweight += dout^T @ inp, dbias += column sums of dout (dbias may be null). */
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
  if (dout instanceof Float32Array) {
    // dinp[n, c] += sum_o dout[n, o] weight[o, c];  dweight[o, c] += sum_n dout[n, o] inp[n, c]
    matAccF32(dinp as Float32Array, 0, C, dout, 0, OC, 1, weight as Float32Array, 0, C, N, OC, C, true);
    matAccF32(dweight as Float32Array, 0, C, dout, 0, 1, OC, inp as Float32Array, 0, C, OC, N, C, true);
    if (dbias !== null) colSumsF32(dbias as Float32Array, dout, N, OC);
    return;
  }
  const weightT = scratchLike(dout, 0, C * OC);
  transpose(weightT, weight, OC, C);
  dotRows(dinp, 0, C, dout, 0, OC, weightT, 0, OC, null, N, OC, C, true);
  const doutT = scratchLike(dout, 1, OC * N);
  const inpT = scratchLike(dout, 2, C * N);
  transpose(doutT, dout, N, OC);
  transpose(inpT, inp, N, C);
  dotRows(dweight, 0, C, doutT, 0, N, inpT, 0, N, null, OC, N, C, true);
  if (dbias !== null) {
    for (let o = 0; o < OC; o++) {
      let s = 0;
      for (let n = 0; n < N; n++) s += doutT[o * N + n];
      dbias[o] += s;
    }
  }
}
