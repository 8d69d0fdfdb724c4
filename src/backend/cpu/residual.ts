// The residual connection: out = a + b; its gradient flows unchanged into both branches. On float32 buffers of
// more than a few rows the sums run as wasm/buffers.wat's add_into (out = a, then out += b): the same bits as
// the loop, whose sum of two float32 values in float64 rounds to the float32 sum exactly (53 >= 2 * 24 + 2).
import type { Floats } from './floats.ts';
import { addIntoF32 } from './wasm_kernels.ts';

/** Below this many floats a call into WebAssembly costs more than the loop. */
const KERNEL_FLOATS = 256;

/** Whether two buffers start at the same float of the same memory (out = a + b with out a itself or b itself). */
function sameFloats(a: Floats, b: Floats): boolean {
  return a.buffer === b.buffer && a.byteOffset === b.byteOffset;
}

export function residualForward(out: Floats, inp1: Floats, inp2: Floats, N: number): void {
  if (out instanceof Float32Array && N >= KERNEL_FLOATS) {
    const o = out.subarray(0, N);
    const [first, second] = sameFloats(out, inp2) ? [inp2, inp1] : [inp1, inp2];
    if (!sameFloats(out, first)) o.set(first.subarray(0, N));
    addIntoF32(o, (second as Float32Array).subarray(0, N));
    return;
  }
  for (let i = 0; i < N; i++) out[i] = inp1[i] + inp2[i];
}

/** Accumulates into dinp1 and dinp2. */
export function residualBackward(dinp1: Floats, dinp2: Floats, dout: Floats, N: number): void {
  if (dinp1 instanceof Float32Array && N >= KERNEL_FLOATS) {
    const d = (dout as Float32Array).subarray(0, N);
    addIntoF32(dinp1.subarray(0, N), d);
    addIntoF32((dinp2 as Float32Array).subarray(0, N), d);
    return;
  }
  for (let i = 0; i < N; i++) {
    dinp1[i] += dout[i];
    dinp2[i] += dout[i];
  }
}
