// Token + position embedding (llm.c's encoder): out[t] = wte[token[t]] + wpe[pos0 + t].
import type { Floats } from './floats.ts';
import { addIntoF32 } from './wasm_kernels.ts';

/** Below this many floats a call into WebAssembly costs more than the loop. */
const KERNEL_FLOATS = 256;

/** out: [T, C]; tokens: [T]; wte: [V, C]; wpe: [contextLength, C]; positions pos0 .. pos0 + T - 1. */
export function encoderForward(
  out: Floats,
  tokens: Int32Array,
  wte: Floats,
  wpe: Floats,
  T: number,
  C: number,
  pos0 = 0,
): void {
  if (out instanceof Float32Array && T * C >= KERNEL_FLOATS) {
    // The token rows, then the position rows (consecutive) added in one call: the same bits (residual.ts).
    for (let t = 0; t < T; t++) out.set(wte.subarray(tokens[t] * C, tokens[t] * C + C), t * C);
    addIntoF32(out.subarray(0, T * C), (wpe as Float32Array).subarray(pos0 * C, (pos0 + T) * C));
    return;
  }
  for (let t = 0; t < T; t++) {
    const wt = tokens[t] * C;
    const wp = (pos0 + t) * C;
    const o = t * C;
    for (let c = 0; c < C; c++) out[o + c] = wte[wt + c] + wpe[wp + c];
  }
}

/** Accumulates into dwte and dwpe. */
export function encoderBackward(
  dwte: Floats,
  dwpe: Floats,
  dout: Floats,
  tokens: Int32Array,
  T: number,
  C: number,
  pos0 = 0,
): void {
  for (let t = 0; t < T; t++) {
    const wt = tokens[t] * C;
    const wp = (pos0 + t) * C;
    const o = t * C;
    for (let c = 0; c < C; c++) {
      const d = dout[o + c];
      dwte[wt + c] += d;
      dwpe[wp + c] += d;
    }
  }
}
