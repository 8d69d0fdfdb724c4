// LayerNorm over the last dimension, with the per-row mean and 1/std kept for the backward pass (llm.c).
// On float32 buffers both directions are wasm/layernorm.wat (statistics in
// float64, the rest in float32); on float64 (the
// gradient checks) the loops below, accumulating in float64.
import type { Floats } from './floats.ts';
import { layernormBackwardF32, layernormForwardF32 } from './wasm_kernels.ts';

/** out: [N, C]; mean, rstd: [N]; inp: [N, C]; weight, bias: [C]. */
export function layernormForward(
  out: Floats,
  mean: Floats,
  rstd: Floats,
  inp: Floats,
  weight: Floats,
  bias: Floats,
  N: number,
  C: number,
  eps: number,
): void {
  if (out instanceof Float32Array) {
    layernormForwardF32(
      out,
      mean as Float32Array,
      rstd as Float32Array,
      inp as Float32Array,
      weight as Float32Array,
      bias as Float32Array,
      N,
      C,
      eps,
    );
    return;
  }
  for (let n = 0; n < N; n++) {
    const x = n * C;
    let m = 0;
    for (let c = 0; c < C; c++) m += inp[x + c];
    m /= C;
    let v = 0;
    for (let c = 0; c < C; c++) {
      const d = inp[x + c] - m;
      v += d * d;
    }
    v /= C;
    const s = 1 / Math.sqrt(v + eps);
    for (let c = 0; c < C; c++) out[x + c] = (inp[x + c] - m) * s * weight[c] + bias[c];
    mean[n] = m;
    rstd[n] = s;
  }
}

/** Accumulates into dinp, dweight, dbias. */
export function layernormBackward(
  dinp: Floats,
  dweight: Floats,
  dbias: Floats,
  dout: Floats,
  inp: Floats,
  weight: Floats,
  mean: Floats,
  rstd: Floats,
  N: number,
  C: number,
): void {
  if (dinp instanceof Float32Array) {
    layernormBackwardF32(
      dinp,
      dweight as Float32Array,
      dbias as Float32Array,
      dout as Float32Array,
      inp as Float32Array,
      weight as Float32Array,
      mean as Float32Array,
      rstd as Float32Array,
      N,
      C,
    );
    return;
  }
  for (let n = 0; n < N; n++) {
    const x = n * C;
    const m = mean[n];
    const s = rstd[n];
    let dnormMean = 0;
    let dnormNormMean = 0;
    for (let c = 0; c < C; c++) {
      const norm = (inp[x + c] - m) * s;
      const dnorm = weight[c] * dout[x + c];
      dnormMean += dnorm;
      dnormNormMean += dnorm * norm;
    }
    dnormMean /= C;
    dnormNormMean /= C;
    for (let c = 0; c < C; c++) {
      const norm = (inp[x + c] - m) * s;
      const d = dout[x + c];
      const dnorm = weight[c] * d;
      dbias[c] += d;
      dweight[c] += norm * d;
      dinp[x + c] += (dnorm - dnormMean - norm * dnormNormMean) * s;
    }
  }
}
