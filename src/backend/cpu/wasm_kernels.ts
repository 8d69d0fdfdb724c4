// Bindings of the WebAssembly SIMD kernels (wasm/*.wat) on float32 buffers: the matmuls dotRows and
// matAcc (matmul.ts), attention (attention.ts), LayerNorm (layernorm.ts), GELU (gelu.ts), the output
// head's log-softmax and logit gradient (log_softmax.ts) and the passes over whole gradient buffers
// (cpu_backend.ts, sequence_jobs.ts). Operands
// that live in the heap are passed in place; any other is copied into a staging block first (and an
// output copied back), so every float32 caller gets the same bits wherever its buffers live.
import { heapIsShared, heapMemory, isHeapView, stage } from './heap.ts';
import { attentionWasm } from './wasm/attention.bytes.ts';
import { buffersWasm } from './wasm/buffers.bytes.ts';
import { dotRowsWasm } from './wasm/dot_rows.bytes.ts';
import { geluWasm } from './wasm/gelu.bytes.ts';
import { layernormWasm } from './wasm/layernorm.bytes.ts';
import { logitsWasm } from './wasm/logits.bytes.ts';
import { matAccWasm } from './wasm/mat_acc.bytes.ts';

function instantiate(module: { sharedMemory: string; plainMemory: string }): WebAssembly.Exports {
  const bytes = Uint8Array.from(atob(heapIsShared ? module.sharedMemory : module.plainMemory), (c) => c.charCodeAt(0));
  // Math.log: once per row of a log-softmax (wasm/logits.wat); WebAssembly has no log instruction
  return new WebAssembly.Instance(new WebAssembly.Module(bytes), { env: { memory: heapMemory, log: Math.log } })
    .exports;
}

type Fn = (...args: number[]) => void;
const dotRowsExports = instantiate(dotRowsWasm);
const attentionExports = instantiate(attentionWasm);
const buffersExports = instantiate(buffersWasm);
const geluExports = instantiate(geluWasm);
const layernormExports = instantiate(layernormWasm);
const logitsExports = instantiate(logitsWasm);
const matAccExports = instantiate(matAccWasm);
const dotRowsKernel = dotRowsExports.dot_rows as Fn;
const matAccKernel = matAccExports.mat_acc as Fn;
const colSumsKernel = matAccExports.col_sums as Fn;
const addIntoKernel = buffersExports.add_into as Fn;
const firstNonFiniteKernel = buffersExports.first_non_finite as (a: number, n: number) => number;
const attentionKeysKernel = attentionExports.attention_keys as Fn;
const attentionForwardKernel = attentionExports.attention_forward as Fn;
const attentionBackwardKernel = attentionExports.attention_backward as Fn;
const geluForwardKernel = geluExports.gelu_forward as Fn;
const geluBackwardKernel = geluExports.gelu_backward as Fn;
const maskedLogSoftmaxKernel = logitsExports.masked_log_softmax as Fn;
const logitGradKernel = logitsExports.logit_grad as Fn;
const layernormForwardKernel = layernormExports.layernorm_forward as Fn;
const layernormBackwardKernel = layernormExports.layernorm_backward as Fn;

/** An operand: 4-byte elements (floats, or the int32 and uint32 words of targets and masks). */
type Words = Float32Array | Int32Array | Uint32Array;

/** The bytes of x[off .. off + span). */
function bytesOf(x: Words, off: number, span: number): Uint8Array {
  return new Uint8Array(x.buffer, x.byteOffset + 4 * off, 4 * span);
}

/**
 * One kernel call's operands: each is passed in place when it lives in the heap, else the elements
 * [off, off + span) are copied (as bytes) into staging slot i (heap.ts stage()) and, for outputs, copied
 * back after the call. A staged operand keeps its strides: the whole span between its first and last
 * element is copied.
 */
class Operands {
  private readonly staged: { x: Words; off: number; span: number; at: number; out: boolean }[] = [];

  begin(): this {
    this.staged.length = 0;
    return this;
  }

  ptr(x: Words, off: number, span: number, out: boolean): number {
    if (isHeapView(x)) return x.byteOffset + 4 * off;
    const at = stage(this.staged.length, span);
    // a reservation may grow the heap (and, unshared, replace its buffer): take the view afterwards
    new Uint8Array(heapMemory.buffer).set(bytesOf(x, off, span), at);
    this.staged.push({ x, off, span, at, out });
    return at;
  }

  finish(): void {
    for (const s of this.staged)
      if (s.out) bytesOf(s.x, s.off, s.span).set(new Uint8Array(heapMemory.buffer, s.at, 4 * s.span));
    this.staged.length = 0;
  }
}

/** Kernel calls do not nest, so one set of operands serves them all. */
const operands = new Operands();

/** out[i] += a[i] for i < out.length (wasm/buffers.wat add_into). */
export function addIntoF32(out: Float32Array, a: Float32Array): void {
  const n = out.length;
  if (n === 0) return;
  const ops = operands.begin();
  const po = ops.ptr(out, 0, n, true);
  const pa = ops.ptr(a, 0, n, false);
  addIntoKernel(po, pa, n);
  ops.finish();
}

/** The index of the first float of a that is NaN or infinite, or -1 (wasm/buffers.wat first_non_finite). */
export function firstNonFiniteF32(a: Float32Array): number {
  if (a.length === 0) return -1;
  const ops = operands.begin();
  const pa = ops.ptr(a, 0, a.length, false);
  const at = firstNonFiniteKernel(pa, a.length);
  ops.finish();
  return at;
}

/**
 * out[r V + v] = masked log-softmax of logits row r at token v (wasm/logits.wat); masks: ceil(V / 32) words
 * a row. out may be logits.
 */
export function maskedLogSoftmaxF32(
  out: Float32Array,
  logits: Float32Array,
  masks: Uint32Array,
  rows: number,
  V: number,
): void {
  if (rows <= 0) return;
  const words = Math.ceil(V / 32);
  const ops = operands.begin();
  const po = ops.ptr(out, 0, rows * V, true);
  const pl = out === logits ? po : ops.ptr(logits, 0, rows * V, false);
  const pm = ops.ptr(masks, 0, rows * words, false);
  maskedLogSoftmaxKernel(po, pl, pm, words, rows, V);
  ops.finish();
}

/** In place on log-probs lp [rows, V]: -c exp(lp) where allowed, 0 elsewhere, + c at the target (wasm/logits.wat). */
export function logitGradF32(
  lp: Float32Array,
  masks: Uint32Array,
  coef: Float32Array,
  targets: Int32Array,
  rows: number,
  V: number,
): void {
  if (rows <= 0) return;
  const words = Math.ceil(V / 32);
  const ops = operands.begin();
  const pl = ops.ptr(lp, 0, rows * V, true);
  const pm = ops.ptr(masks, 0, rows * words, false);
  const pc = ops.ptr(coef, 0, rows, false);
  const pt = ops.ptr(targets, 0, rows, false);
  logitGradKernel(pl, pm, words, pc, pt, rows, V);
  ops.finish();
}

/** Floats spanned by `rows` rows of `width` floats, `stride` apart. */
function span(rows: number, stride: number, width: number): number {
  return rows <= 0 || width <= 0 ? 0 : (rows - 1) * stride + width;
}

/** dotRows (matmul.ts) on float32 buffers. */
export function dotRowsF32(
  out: Float32Array,
  oOff: number,
  oStride: number,
  a: Float32Array,
  aOff: number,
  aStride: number,
  b: Float32Array,
  bOff: number,
  bStride: number,
  bias: Float32Array | null,
  N: number,
  K: number,
  M: number,
  accumulate: boolean,
): void {
  if (N <= 0 || M <= 0) return;
  const ops = operands.begin();
  const po = ops.ptr(out, oOff, span(N, oStride, M), true);
  const pa = ops.ptr(a, aOff, span(N, aStride, K), false);
  const pb = ops.ptr(b, bOff, span(M, bStride, K), false);
  const pbias = bias === null ? 0 : ops.ptr(bias, 0, M, false);
  dotRowsKernel(po, oStride, pa, aStride, pb, bStride, pbias, N, K, M, accumulate ? 1 : 0);
  ops.finish();
}

/**
 * out[oOff + n oStride + m] = (or +=, with accumulate) sum_k a[aOff + n aRow + k aCol] b[bOff + k bStride + m]
 * for n < N, m < M (wasm/mat_acc.wat).
 */
export function matAccF32(
  out: Float32Array,
  oOff: number,
  oStride: number,
  a: Float32Array,
  aOff: number,
  aRow: number,
  aCol: number,
  b: Float32Array,
  bOff: number,
  bStride: number,
  N: number,
  K: number,
  M: number,
  accumulate: boolean,
): void {
  if (N <= 0 || M <= 0) return;
  const ops = operands.begin();
  const po = ops.ptr(out, oOff, span(N, oStride, M), true);
  const pa = ops.ptr(a, aOff, K <= 0 ? 0 : (N - 1) * aRow + (K - 1) * aCol + 1, false);
  const pb = ops.ptr(b, bOff, span(K, bStride, M), false);
  matAccKernel(po, oStride, pa, aRow, aCol, pb, bStride, N, K, M, accumulate ? 1 : 0);
  ops.finish();
}

/** out[m] += sum_n a[n M + m] for m < M (wasm/mat_acc.wat col_sums). */
export function colSumsF32(out: Float32Array, a: Float32Array, N: number, M: number): void {
  if (M <= 0) return;
  const ops = operands.begin();
  const po = ops.ptr(out, 0, M, true);
  const pa = ops.ptr(a, 0, N * M, false);
  colSumsKernel(po, pa, M, N, M);
  ops.finish();
}

/** kT[c kts + t] = qkv[t 3C + C + c] for t0 <= t < t1: keys transposed, as attentionForwardF32 reads them. */
export function attentionKeysF32(
  kT: Float32Array,
  kts: number,
  qkv: Float32Array,
  t0: number,
  t1: number,
  C: number,
): void {
  if (t1 <= t0) return;
  const ops = operands.begin();
  const pk = ops.ptr(kT, 0, span(C, kts, t1), true);
  const pq = ops.ptr(qkv, 0, t1 * 3 * C, false);
  attentionKeysKernel(pk, kts, pq, t0, t1, C);
  ops.finish();
}

/** attentionForward (attention.ts) on float32 buffers: queries t0 .. t1-1, out rows C apart, kT of rows 0 .. t1-1. */
export function attentionForwardF32(
  out: Float32Array,
  att: Float32Array,
  qkv: Float32Array,
  kT: Float32Array,
  kts: number,
  t0: number,
  t1: number,
  C: number,
  NH: number,
): void {
  const rows = t1 - t0;
  if (rows <= 0) return;
  const ops = operands.begin();
  const po = ops.ptr(out, 0, rows * C, true);
  const patt = ops.ptr(att, 0, NH * rows * t1, true);
  const pq = ops.ptr(qkv, 0, t1 * 3 * C, false);
  const pk = ops.ptr(kT, 0, span(C, kts, t1), false);
  attentionForwardKernel(po, C, patt, pq, pk, kts, t0, t1, C, NH, Math.fround(1 / Math.sqrt(C / NH)));
  ops.finish();
}

/** attentionBackward (attention.ts) on float32 buffers; scratch: at least T T + T C / NH floats. */
export function attentionBackwardF32(
  dqkv: Float32Array,
  dout: Float32Array,
  qkv: Float32Array,
  att: Float32Array,
  scratch: Float32Array,
  T: number,
  C: number,
  NH: number,
): void {
  if (T <= 0) return;
  const ops = operands.begin();
  const pd = ops.ptr(dqkv, 0, T * 3 * C, true);
  const pdo = ops.ptr(dout, 0, T * C, false);
  const pq = ops.ptr(qkv, 0, T * 3 * C, false);
  const pa = ops.ptr(att, 0, NH * T * T, false);
  const ps = ops.ptr(scratch, 0, T * T + (T * C) / NH, true);
  attentionBackwardKernel(pd, pdo, pq, pa, ps, T, C, NH, Math.fround(1 / Math.sqrt(C / NH)));
  ops.finish();
}

/** out[i] = gelu(inp[i]) for i < n (wasm/gelu.wat gelu_forward). */
export function geluForwardF32(out: Float32Array, inp: Float32Array, n: number): void {
  if (n <= 0) return;
  const ops = operands.begin();
  const po = ops.ptr(out, 0, n, true);
  const pi = ops.ptr(inp, 0, n, false);
  geluForwardKernel(po, pi, n);
  ops.finish();
}

/** dinp[i] += gelu'(inp[i]) dout[i] for i < n (wasm/gelu.wat gelu_backward). */
export function geluBackwardF32(dinp: Float32Array, inp: Float32Array, dout: Float32Array, n: number): void {
  if (n <= 0) return;
  const ops = operands.begin();
  const pd = ops.ptr(dinp, 0, n, true);
  const pi = ops.ptr(inp, 0, n, false);
  const po = ops.ptr(dout, 0, n, false);
  geluBackwardKernel(pd, pi, po, n);
  ops.finish();
}

/** layernormForward (layernorm.ts) on float32 buffers. */
export function layernormForwardF32(
  out: Float32Array,
  mean: Float32Array,
  rstd: Float32Array,
  inp: Float32Array,
  weight: Float32Array,
  bias: Float32Array,
  N: number,
  C: number,
  eps: number,
): void {
  if (N <= 0) return;
  const ops = operands.begin();
  const po = ops.ptr(out, 0, N * C, true);
  const pm = ops.ptr(mean, 0, N, true);
  const pr = ops.ptr(rstd, 0, N, true);
  const pi = ops.ptr(inp, 0, N * C, false);
  const pw = ops.ptr(weight, 0, C, false);
  const pb = ops.ptr(bias, 0, C, false);
  layernormForwardKernel(po, pm, pr, pi, pw, pb, N, C, Math.fround(eps));
  ops.finish();
}

/** layernormBackward (layernorm.ts) on float32 buffers. */
export function layernormBackwardF32(
  dinp: Float32Array,
  dweight: Float32Array,
  dbias: Float32Array,
  dout: Float32Array,
  inp: Float32Array,
  weight: Float32Array,
  mean: Float32Array,
  rstd: Float32Array,
  N: number,
  C: number,
): void {
  if (N <= 0) return;
  const ops = operands.begin();
  const pdi = ops.ptr(dinp, 0, N * C, true);
  const pdw = ops.ptr(dweight, 0, C, true);
  const pdb = ops.ptr(dbias, 0, C, true);
  const pdo = ops.ptr(dout, 0, N * C, false);
  const pi = ops.ptr(inp, 0, N * C, false);
  const pw = ops.ptr(weight, 0, C, false);
  const pm = ops.ptr(mean, 0, N, false);
  const pr = ops.ptr(rstd, 0, N, false);
  layernormBackwardKernel(pdi, pdw, pdb, pdo, pi, pw, pm, pr, N, C);
  ops.finish();
}
