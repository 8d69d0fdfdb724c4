// GELU in its tanh form (GPT-2, llm.c), the one form used by every backend and by the ONNX export.
import type { Floats } from './floats.ts';

const GELU_SCALE = Math.sqrt(2 / Math.PI);

export function geluForward(out: Floats, inp: Floats, N: number): void {
  for (let i = 0; i < N; i++) {
    const x = inp[i];
    out[i] = 0.5 * x * (1 + Math.tanh(GELU_SCALE * (x + 0.044715 * x * x * x)));
  }
}

/** Accumulates into dinp. */
export function geluBackward(dinp: Floats, inp: Floats, dout: Floats, N: number): void {
  for (let i = 0; i < N; i++) {
    const x = inp[i];
    const u = GELU_SCALE * (x + 0.044715 * x * x * x);
    const th = Math.tanh(u);
    const sech2 = 1 - th * th;
    const grad = 0.5 * (1 + th) + 0.5 * x * sech2 * GELU_SCALE * (1 + 3 * 0.044715 * x * x);
    dinp[i] += grad * dout[i];
  }
}
