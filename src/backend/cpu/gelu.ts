// GELU in its tanh form (GPT-2, llm.c), the one form used by every backend and by the ONNX export:
//   gelu(x) = 0.5 x (1 + tanh(u)),  u = sqrt(2 / pi) (x + 0.044715 x^3)
// evaluated through tanh(u) = 1 - 2 / (1 + exp(2u)), i.e. gelu(x) = x - x / (1 + exp(2u)): the same
// function, and Math.exp costs about half of Math.tanh here. Both ends stay finite: exp overflowing to
// Infinity gives x - 0, underflowing to 0 gives x - x. On float32 buffers both directions are
// wasm/exp.wat's gelu_forward and gelu_backward (the same formulas with a vector exp).
import type { Floats } from './floats.ts';
import { geluBackwardF32, geluForwardF32 } from './wasm_kernels.ts';

const GELU_SCALE = Math.sqrt(2 / Math.PI);

export function geluForward(out: Floats, inp: Floats, N: number): void {
  if (out instanceof Float32Array) {
    geluForwardF32(out, inp as Float32Array, N);
    return;
  }
  for (let i = 0; i < N; i++) {
    const x = inp[i];
    const u = GELU_SCALE * (x + 0.044715 * x * x * x);
    out[i] = x - x / (1 + Math.exp(2 * u));
  }
}

/** Accumulates into dinp. */
export function geluBackward(dinp: Floats, inp: Floats, dout: Floats, N: number): void {
  if (dinp instanceof Float32Array) {
    geluBackwardF32(dinp, inp as Float32Array, dout as Float32Array, N);
    return;
  }
  for (let i = 0; i < N; i++) {
    const x = inp[i];
    const u = GELU_SCALE * (x + 0.044715 * x * x * x);
    const th = 1 - 2 / (1 + Math.exp(2 * u));
    const sech2 = 1 - th * th;
    const grad = 0.5 * (1 + th) + 0.5 * x * sech2 * GELU_SCALE * (1 + 3 * 0.044715 * x * x);
    dinp[i] += grad * dout[i];
  }
}
