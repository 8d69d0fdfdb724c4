// Shared arithmetic of the kernel wrappers: thread grids for the one-thread-per-element kernels, and the
// packing of a uniform struct's fields (u32, i32 or f32 words in field order) into one typed array.
import { workgroupGrid, type WorkgroupCount } from './kernel.ts';

/** Threads per workgroup of the one-thread-per-element kernels (the WGSL `WG` override's default). */
export const WG = 64;

export interface ThreadGrid {
  workgroups: WorkgroupCount;
  /** Workgroups along x: the kernel's flat index is (wid.y * gridX + wid.x) * WG + lid. */
  gridX: number;
}

/** A grid of at least `threads` threads in workgroups of `wg`; null when there is nothing to run. */
export function threadGrid(threads: number, wg = WG): ThreadGrid | null {
  if (!Number.isInteger(threads) || threads < 0) throw new RangeError(`threadGrid: bad thread count ${threads}`);
  if (threads === 0) return null;
  const workgroups = workgroupGrid(Math.ceil(threads / wg));
  return { workgroups, gridX: workgroups[0] };
}

/**
 * The words of a uniform struct: `types` has one letter per field ('u' u32, 'i' i32, 'f' f32), and the
 * array is padded with zeros to a multiple of 4 words (16 bytes).
 */
export function uniformWords(types: string, values: readonly number[]): Uint32Array<ArrayBuffer> {
  if (types.length !== values.length) throw new RangeError(`uniformWords: ${types.length} types for ${values.length} values`);
  const words = new Uint32Array(Math.max(4, Math.ceil(types.length / 4) * 4));
  const floats = new Float32Array(words.buffer);
  const ints = new Int32Array(words.buffer);
  for (let i = 0; i < types.length; i++) {
    const v = values[i];
    if (types[i] === 'f') floats[i] = v;
    else if (types[i] === 'i') ints[i] = v;
    else if (types[i] === 'u') {
      if (!Number.isInteger(v) || v < 0 || v > 0xffffffff) throw new RangeError(`uniformWords: field ${i} must be a u32, got ${v}`);
      words[i] = v;
    } else throw new RangeError(`uniformWords: unknown field type "${types[i]}"`);
  }
  return words;
}
