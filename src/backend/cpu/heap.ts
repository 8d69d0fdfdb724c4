// The CPU heap: one WebAssembly memory that the SIMD kernels (wasm/*.wat) read and write in place.
// Buffers the kernels see on every call (parameters, activations, caches, scratch) are allocated here so
// that a call passes pointers instead of copying operands.
//
// The memory is shared (a SharedArrayBuffer) wherever that exists: Node, and pages that are
// cross-origin isolated. A shared memory grows without detaching the views already handed out, which is
// what lets long-lived Float32Array views live in it. Elsewhere it is a plain memory used only as a
// staging area (see stage()), and heapFloats() returns ordinary arrays; results are the same bit for bit,
// only slower.
//
// Allocation: first fit over a sorted free list, 16-byte aligned blocks, coalesced on free. Owners free
// what they allocate (CpuBackend and CpuDecoder on dispose and when a buffer is regrown).
//
// Threads (threads.ts) share the memory: each thread keeps its own free list, of the blocks it allocated,
// and takes new space from the top of the memory, whose address lives in the memory itself (bytes 4..7)
// and moves by compare-and-swap. A block is freed by the thread that allocated it.
import { providedHeap } from './heap_source.ts';

const PAGE = 65536;
const ALIGN = 16;
/** 4 GiB, the most a 32-bit memory addresses; shared memories must declare a maximum. */
const MAX_PAGES = 65536;

function createMemory(): { memory: WebAssembly.Memory; shared: boolean } {
  const given = providedHeap();
  if (given !== null) return { memory: given, shared: true };
  const isolated = (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated;
  if (typeof SharedArrayBuffer === 'function' && isolated !== false) {
    for (const maximum of [MAX_PAGES, MAX_PAGES / 4]) {
      try {
        return { memory: new WebAssembly.Memory({ initial: 16, maximum, shared: true }), shared: true };
      } catch {
        // a smaller reservation may still succeed (32-bit hosts)
      }
    }
  }
  return { memory: new WebAssembly.Memory({ initial: 16 }), shared: false };
}

const { memory, shared } = createMemory();
export { memory as heapMemory };
/** Whether heapFloats() allocates in the heap (views the kernels read in place). */
export const heapIsShared = shared;

/** Every buffer object the memory has exposed: a view over any of them is in the heap. */
const heapBuffers = new WeakSet<ArrayBufferLike>();
let f32 = currentView();

function currentView(): Float32Array {
  const view = new Float32Array(memory.buffer);
  heapBuffers.add(view.buffer);
  return view;
}

/** The heap as floats, valid until the next allocation (which may grow the memory). */
export function heapView(): Float32Array {
  if (f32.buffer !== memory.buffer || f32.length * 4 !== memory.buffer.byteLength) f32 = currentView();
  return f32;
}

let lastHeapBuffer: ArrayBufferLike = f32.buffer;

export function isHeapView(a: ArrayBufferView): boolean {
  if (a.buffer === lastHeapBuffer) return true;
  if (!heapBuffers.has(a.buffer)) return false;
  lastHeapBuffer = a.buffer;
  return true;
}

// Free blocks [start, end) in bytes, sorted and disjoint, of this thread; the memory is free past the top.
const freeStart: number[] = [];
const freeEnd: number[] = [];
const sizeOf = new Map<number, number>();

// The top: Int32 1 of the memory when shared (bytes 0..15 are never allocated: pointer 0 means "none" to
// the kernels), a variable otherwise (one thread only).
const TOP = 1;
const TOP_LIMIT = 2 ** 31 - PAGE;
const control = shared ? new Int32Array(memory.buffer, 0, 4) : null;
let plainTop = ALIGN;
if (control !== null && providedHeap() === null) Atomics.store(control, TOP, ALIGN);

function loadTop(): number {
  return control === null ? plainTop : Atomics.load(control, TOP);
}

/** Moves the top from `from` to `to` unless another thread moved it first. */
function moveTop(from: number, to: number): boolean {
  if (control === null) {
    if (plainTop !== from) return false;
    plainTop = to;
    return true;
  }
  return Atomics.compareExchange(control, TOP, from, to) === from;
}

function allocBytes(bytes: number): number {
  const size = Math.max(ALIGN, Math.ceil(bytes / ALIGN) * ALIGN);
  for (let i = 0; i < freeStart.length; i++) {
    if (freeEnd[i] - freeStart[i] < size) continue;
    const at = freeStart[i];
    freeStart[i] += size;
    if (freeStart[i] === freeEnd[i]) {
      freeStart.splice(i, 1);
      freeEnd.splice(i, 1);
    }
    sizeOf.set(at, size);
    return at;
  }
  for (;;) {
    const at = loadTop();
    const need = at + size;
    // The top is an Int32 of the memory, and the kernels take byte offsets as signed 32-bit integers.
    if (need > TOP_LIMIT)
      throw new RangeError(
        `CPU heap: cannot grow to ${(need / 2 ** 20) | 0} MiB (the heap holds at most ${(TOP_LIMIT / 2 ** 20) | 0} MiB)`,
      );
    if (need > memory.buffer.byteLength) growTo(need);
    if (!moveTop(at, need)) continue;
    sizeOf.set(at, size);
    return at;
  }
}

function growTo(need: number): void {
  const have = memory.buffer.byteLength;
  const pages = Math.ceil((need - have) / PAGE);
  const grow = Math.max(pages, Math.ceil(have / PAGE / 4));
  try {
    memory.grow(grow);
  } catch {
    try {
      // another thread may have grown it meanwhile
      if (need > memory.buffer.byteLength) memory.grow(Math.ceil((need - memory.buffer.byteLength) / PAGE));
    } catch {
      throw new RangeError(
        `CPU heap: cannot grow to ${(need / 2 ** 20) | 0} MiB (${(memory.buffer.byteLength / 2 ** 20) | 0} MiB in use)`,
      );
    }
  }
}

function freeBytes(at: number): void {
  const size = sizeOf.get(at);
  if (size === undefined) throw new Error(`CPU heap: no allocation at byte ${at} (freed twice?)`);
  sizeOf.delete(at);
  let start = at;
  let end = at + size;
  let i = 0;
  while (i < freeStart.length && freeStart[i] < start) i++;
  if (i > 0 && freeEnd[i - 1] === start) {
    start = freeStart[i - 1];
    i--;
    freeStart.splice(i, 1);
    freeEnd.splice(i, 1);
  }
  if (i < freeStart.length && freeStart[i] === end) {
    end = freeEnd[i];
    freeStart.splice(i, 1);
    freeEnd.splice(i, 1);
  }
  if (moveTop(end, start)) return;
  freeStart.splice(i, 0, start);
  freeEnd.splice(i, 0, end);
}

/**
 * n zeroed floats: a view into the heap where it is shared, an ordinary array elsewhere. `zeroed: false`
 * skips the clearing, for buffers written before they are read (decoder caches): a reused block holds
 * what its last owner left.
 */
export function heapFloats(n: number, zeroed = true): Float32Array {
  if (!shared) return new Float32Array(n);
  const at = allocBytes(4 * n);
  const view = new Float32Array(memory.buffer, at, n);
  heapBuffers.add(view.buffer);
  if (zeroed) view.fill(0);
  return view;
}

/** Returns a buffer from heapFloats() to the heap; ordinary arrays are ignored. */
export function freeHeapFloats(a: Float32Array): void {
  if (isHeapView(a)) freeBytes(a.byteOffset);
}

/** Bytes of the heap in use and reserved (for benchmarks and leak tests). */
export function heapStats(): { usedBytes: number; reservedBytes: number; blocks: number } {
  let used = 0;
  for (const size of sizeOf.values()) used += size;
  return { usedBytes: used, reservedBytes: memory.buffer.byteLength, blocks: sizeOf.size };
}

// Staging: operands that are not heap views are copied into per-slot heap blocks for one kernel call.
const stageAt: number[] = [];
const stageFloats: number[] = [];

/** Byte pointer of staging slot `slot`, at least n floats (contents undefined); invalidates heapView(). */
export function stage(slot: number, n: number): number {
  if ((stageFloats[slot] ?? 0) < n) {
    if (stageAt[slot] !== undefined) freeBytes(stageAt[slot]);
    const floats = Math.max(n, 2 * (stageFloats[slot] ?? 0));
    stageAt[slot] = allocBytes(4 * floats);
    stageFloats[slot] = floats;
  }
  return stageAt[slot];
}
