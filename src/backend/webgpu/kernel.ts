// What a compute kernel is to the runtime: WGSL source, an entry point named after its CPU twin, and the
// kinds of its @group(0) bindings in binding order. Pipelines use explicit layouts built from that list, so
// a binding that an entry point does not touch is still part of its layout and wrappers bind every slot.
//
// Adding a kernel (log_softmax.ts is the model to copy):
// 1. shaders/<family>.wgsl: header comment (bindings, shapes, dispatch); binding 0 a uniform struct of
//    shapes, storage bindings after it; entry points named after the CPU twins (layernorm_forward, ...);
//    `override WG` for the workgroup size when it is tunable; reductions as fixed-order trees.
// 2. src/backend/webgpu/<family>.ts: import the WGSL with `?raw`, describe each entry point as a KernelSpec,
//    and export one function per entry point, named like the CPU twin, that takes (stage, out, inputs...,
//    shapes) and records ONE dispatch: stage.dispatch(spec, [Uint32Array.of(shapes...), buffers...], grid).
//    Buffers may be slices (one named view of the flat parameter buffer, offsets multiples of 256 bytes).
// 3. <family>.test.ts: compare to the CPU twin on random shapes through test_device.ts, with a written
//    tolerance.

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
