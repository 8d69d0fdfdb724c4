// LayerNorm over the last dimension, with the per-row mean and 1/std kept for the backward pass (llm.c).
import type { Floats } from './floats.ts';

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
