// Bindings of the WebAssembly SIMD kernels (wasm/*.wat) on float32 buffers: dotRows (matmul.ts), the
// attention softmax row (attention.ts) and GELU's forward (gelu.ts). Operands that live in the heap are
// passed in place; any other is copied into a staging block first (and the output copied back), so every
// float32 caller gets the same bits wherever its buffers live.
import { heapIsShared, heapMemory, heapView, isHeapView, stage } from './heap.ts';
import * as dotRowsModule from './wasm/dot_rows.bytes.ts';
import * as expModule from './wasm/exp.bytes.ts';

function instantiate(module: { SHARED_MEMORY_MODULE: string; PLAIN_MEMORY_MODULE: string }): WebAssembly.Exports {
  const bytes = Uint8Array.from(atob(heapIsShared ? module.SHARED_MEMORY_MODULE : module.PLAIN_MEMORY_MODULE), (c) => c.charCodeAt(0));
  return new WebAssembly.Instance(new WebAssembly.Module(bytes), { env: { memory: heapMemory } }).exports;
}

const dotRowsExports = instantiate(dotRowsModule);
const expExports = instantiate(expModule);
const dotRowsKernel = dotRowsExports.dot_rows as (
  out: number, oStride: number, a: number, aStride: number, b: number, bStride: number,
  bias: number, N: number, K: number, M: number, accumulate: number,
) => void;
const softmaxRowKernel = expExports.softmax_row as (p: number, n: number, scale: number, width: number) => void;
const geluForwardKernel = expExports.gelu_forward as (out: number, inp: number, n: number) => void;

/** Staging slots (heap.ts stage()). */
const OUT = 0, A = 1, B = 2, BIAS = 3;

/** Copies rows [off + r * stride, + width) of src, r < rows, packed into the heap at byte pointer `to`. */
function packRows(to: number, src: Float32Array, off: number, stride: number, rows: number, width: number): void {
  const heap = heapView();
  let at = to >> 2;
  if (stride === width) {
    heap.set(src.subarray(off, off + rows * width), at);
    return;
  }
  for (let r = 0; r < rows; r++, at += width) {
    const s = off + r * stride;
    if (width > 16) heap.set(src.subarray(s, s + width), at);
    else for (let k = 0; k < width; k++) heap[at + k] = src[s + k];
  }
}

function unpackRows(dst: Float32Array, off: number, stride: number, from: number, rows: number, width: number): void {
  const heap = heapView();
  let at = from >> 2;
  for (let r = 0; r < rows; r++, at += width) {
    const d = off + r * stride;
    if (width > 16) dst.set(heap.subarray(at, at + width), d);
    else for (let m = 0; m < width; m++) dst[d + m] = heap[at + m];
  }
}

/** dotRows (matmul.ts) on float32 buffers. */
export function dotRowsF32(
  out: Float32Array, oOff: number, oStride: number,
  a: Float32Array, aOff: number, aStride: number,
  b: Float32Array, bOff: number, bStride: number,
  bias: Float32Array | null,
  N: number, K: number, M: number,
  accumulate: boolean,
): void {
  if (N <= 0 || M <= 0) return;
  // Reserve every staging block before taking pointers: a reservation may grow (and, unshared, move) the heap.
  const outIn = isHeapView(out);
  const aIn = isHeapView(a);
  const bIn = isHeapView(b);
  const biasIn = bias === null || isHeapView(bias);
  const po = outIn ? 0 : stage(OUT, N * M);
  const pa = aIn ? 0 : stage(A, N * K);
  const pb = bIn ? 0 : stage(B, M * K);
  const pbias = biasIn ? 0 : stage(BIAS, M);
  if (!aIn) packRows(pa, a, aOff, aStride, N, K);
  if (!bIn) packRows(pb, b, bOff, bStride, M, K);
  if (!biasIn) packRows(pbias, bias!, 0, M, 1, M);
  if (!outIn && accumulate) packRows(po, out, oOff, oStride, N, M);
  dotRowsKernel(
    outIn ? out.byteOffset + 4 * oOff : po, outIn ? oStride : M,
    aIn ? a.byteOffset + 4 * aOff : pa, aIn ? aStride : K,
    bIn ? b.byteOffset + 4 * bOff : pb, bIn ? bStride : K,
    bias === null ? 0 : biasIn ? bias.byteOffset : pbias,
    N, K, M, accumulate ? 1 : 0,
  );
  if (!outIn) unpackRows(out, oOff, oStride, po, N, M);
}

/**
 * Attention row in place: x[off + i] = softmax(scale * x[off .. off + n))_i for i < n, zeros for
 * n <= i < width (wasm/exp.wat softmax_row).
 */
export function softmaxRowF32(x: Float32Array, off: number, n: number, width: number, scale: number): void {
  if (isHeapView(x)) {
    softmaxRowKernel(x.byteOffset + 4 * off, n, scale, width);
    return;
  }
  const p = stage(OUT, Math.max(n, width));
  packRows(p, x, off, n, 1, n);
  softmaxRowKernel(p, n, scale, width);
  unpackRows(x, off, width, p, 1, Math.max(n, width));
}

/** out[i] = gelu(inp[i]) for i < n (wasm/exp.wat gelu_forward). */
export function geluForwardF32(out: Float32Array, inp: Float32Array, n: number): void {
  if (n <= 0) return;
  const outIn = isHeapView(out);
  const inpIn = isHeapView(inp);
  const po = outIn ? out.byteOffset : stage(OUT, n);
  const pi = inpIn ? inp.byteOffset : stage(A, n);
  if (!inpIn) packRows(pi, inp, 0, n, 1, n);
  geluForwardKernel(po, pi, n);
  if (!outIn) unpackRows(out, 0, n, po, 1, n);
}
