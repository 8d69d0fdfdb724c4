// What a compute kernel is to the runtime: WGSL source, an entry point named after its CPU twin, and the
// kinds of its @group(0) bindings in binding order. Pipelines use explicit layouts built from that list, so
// a binding that an entry point does not touch is still part of its layout and wrappers bind every slot.

export type BindingKind = 'uniform' | 'read' | 'write';

export interface KernelSpec {
  /** The WGSL entry point; by convention the snake_case name of the CPU twin. */
  entryPoint: string;
  code: string;
  /** Kind of @binding(i) of @group(0), for i = 0, 1, ... */
  bindings: readonly BindingKind[];
  /** Pipeline-overridable constants (`override` declarations in the WGSL). */
  constants?: Readonly<Record<string, number>>;
}

/** A range of a buffer, e.g. one named view of the flat parameter buffer. Offsets are bytes. */
export interface BufferSlice {
  buffer: GPUBuffer;
  offset?: number;
  size?: number;
}

/** What fills a binding: a buffer or slice for storage, or the values of a uniform struct. */
export type Resource = GPUBuffer | BufferSlice | Uint32Array | Int32Array | Float32Array;

export type WorkgroupCount = readonly [number, number, number];

/**
 * A grid of at least n workgroups, folded into y when n exceeds the per-dimension limit. Kernels recover
 * the flat index as wid.y * gridX + wid.x and skip indices >= n.
 */
export function workgroupGrid(n: number, maxPerDimension = 65535): WorkgroupCount {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`workgroupGrid: need a positive count, got ${n}`);
  if (n <= maxPerDimension) return [n, 1, 1];
  const y = Math.ceil(n / maxPerDimension);
  return [Math.ceil(n / y), y, 1];
}

export function asSlice(resource: GPUBuffer | BufferSlice): BufferSlice {
  return 'buffer' in resource ? resource : { buffer: resource };
}

export function isUniformData(resource: Resource): resource is Uint32Array | Int32Array | Float32Array {
  return ArrayBuffer.isView(resource);
}

export function roundUp(value: number, multiple: number): number {
  return Math.ceil(value / multiple) * multiple;
}
