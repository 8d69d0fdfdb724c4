// Binding of the WebAssembly SIMD matmul kernel (wasm/dot_rows.wat) to dotRows' signature on float32
// buffers. Operands that live in the heap are passed in place; any other is copied into a staging block
// first (and the output copied back), so every float32 caller gets the same bits wherever its buffers live.
import { heapIsShared, heapMemory, heapView, isHeapView, stage } from './heap.ts';
import { PLAIN_MEMORY_MODULE, SHARED_MEMORY_MODULE } from './wasm/dot_rows.bytes.ts';

type DotRowsExport = (
  out: number, oStride: number, a: number, aStride: number, b: number, bStride: number,
  bias: number, N: number, K: number, M: number, accumulate: number,
) => void;

function instantiate(): DotRowsExport {
  const bytes = Uint8Array.from(atob(heapIsShared ? SHARED_MEMORY_MODULE : PLAIN_MEMORY_MODULE), (c) => c.charCodeAt(0));
  const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes), { env: { memory: heapMemory } });
  return instance.exports.dot_rows as DotRowsExport;
}

const kernel = instantiate();

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
  kernel(
    outIn ? out.byteOffset + 4 * oOff : po, outIn ? oStride : M,
    aIn ? a.byteOffset + 4 * aOff : pa, aIn ? aStride : K,
    bIn ? b.byteOffset + 4 * bOff : pb, bIn ? bStride : K,
    bias === null ? 0 : biasIn ? bias.byteOffset : pbias,
    N, K, M, accumulate ? 1 : 0,
  );
  if (!outIn) unpackRows(out, oOff, oStride, po, N, M);
}
