// A job's description on its way to the CPU backend's workers (threads.ts): written by the calling thread
// into a block of the shared heap, read there by every worker it wakes. A worker waits on a futex rather
// than on its event loop, so a message (postMessage) could not reach it, and waking it by a futex is ten
// times quicker anyway: a decoder step is a fraction of a millisecond.
//
// The description's shape travels as JSON; a heap view as its place in the heap (the worker views the same
// floats), an array of heap views as a list of places, and every typed array (tokens, masks, draws, the
// lists of places) as bytes after the JSON, which the worker views in place: the mailbox is not written
// again before every worker of the job is done.
import { freeHeapFloats, heapFloats, heapMemory, heapView, isHeapView } from './heap.ts';

type Typed = Int32Array | Uint32Array | Float32Array | Float64Array;
const TYPED = { Int32Array, Uint32Array, Float32Array, Float64Array } as const;
type TypedName = keyof typeof TYPED;

/** A typed array's bytes, at `at` bytes past the JSON. */
interface Blob {
  $t: TypedName;
  at: number;
  n: number;
}

let box = heapFloats(0);

function isView(x: unknown): x is Float32Array {
  return x instanceof Float32Array && isHeapView(x);
}

/** The JSON shape of `x`, and the typed arrays its blobs name, in order. */
function encode(x: unknown, blobs: Typed[], size: { bytes: number }): unknown {
  const blob = (a: Typed): Blob => {
    blobs.push(a);
    const at = size.bytes;
    size.bytes += 8 * Math.ceil(a.byteLength / 8);
    return { $t: a.constructor.name as TypedName, at, n: a.length };
  };
  if (isView(x)) return { $h: [x.byteOffset, x.length] };
  if (x instanceof Int32Array || x instanceof Uint32Array || x instanceof Float32Array || x instanceof Float64Array)
    return blob(x);
  if (Array.isArray(x)) {
    if (x.length > 0 && x.every(isView)) {
      const places = new Float64Array(2 * x.length);
      x.forEach((v: Float32Array, i) => {
        places[2 * i] = v.byteOffset;
        places[2 * i + 1] = v.length;
      });
      return { $hv: blob(places) };
    }
    return x.map((v) => encode(v, blobs, size));
  }
  if (x !== null && typeof x === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(x)) out[k] = encode(v, blobs, size);
    return out;
  }
  return x;
}

/** Writes `message` into the mailbox; returns its place (byte address) and its JSON's length in bytes. */
export function post(message: unknown): { at: number; json: number } {
  const blobs: Typed[] = [];
  const size = { bytes: 0 };
  const shape = JSON.stringify(encode(message, blobs, size));
  const json = 8 * Math.ceil(shape.length / 8);
  const bytes = json + size.bytes;
  if (box.byteLength < bytes) {
    freeHeapFloats(box);
    box = heapFloats(Math.ceil((1.5 * bytes) / 4), false);
  }
  const heap = new Uint8Array(heapMemory.buffer, box.byteOffset, bytes);
  for (let i = 0; i < shape.length; i++) heap[i] = shape.charCodeAt(i);
  let at = json;
  for (const b of blobs) {
    heap.set(new Uint8Array(b.buffer, b.byteOffset, b.byteLength), at);
    at += 8 * Math.ceil(b.byteLength / 8);
  }
  return { at: box.byteOffset, json: shape.length };
}

/** The message at byte `at` of the heap, its JSON `json` bytes long: views of the heap where it named them. */
export function read(at: number, json: number): unknown {
  const heap = new Uint8Array(heapMemory.buffer, at, json);
  let text = '';
  for (let i = 0; i < json; i += 4096) text += String.fromCharCode(...heap.subarray(i, Math.min(json, i + 4096)));
  const blobs = at + 8 * Math.ceil(json / 8);
  const buffer = heapView().buffer as ArrayBuffer;
  const typed = (b: Blob): Typed => new TYPED[b.$t](buffer, blobs + b.at, b.n);
  const decode = (x: unknown): unknown => {
    if (x === null || typeof x !== 'object') return x;
    if (Array.isArray(x)) return x.map(decode);
    const o = x as { $h?: [number, number]; $hv?: Blob; $t?: TypedName };
    // views of the buffer heapView() registers: heap views to the kernels
    if (o.$h) return new Float32Array(buffer, o.$h[0], o.$h[1]);
    if (o.$hv) {
      const places = typed(o.$hv);
      const views: Float32Array[] = [];
      for (let i = 0; i < places.length; i += 2) views.push(new Float32Array(buffer, places[i], places[i + 1]));
      return views;
    }
    if (o.$t) return typed(x as Blob);
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(x)) out[k] = decode(v);
    return out;
  };
  return decode(JSON.parse(text));
}
