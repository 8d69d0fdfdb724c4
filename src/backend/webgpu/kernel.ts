// What a compute kernel is to the runtime: WGSL source, an entry point named after its CPU twin, and the
// kinds of its @group(0) bindings in binding order. Pipelines use explicit layouts built from that list, so
// a binding that an entry point does not touch is still part of its layout and wrappers bind every slot.
//
// Adding a kernel (encoder.ts is a small one to copy; log_softmax.ts sets its own workgroup size):
// 1. shaders/<family>.wgsl: a header comment (bindings, shapes, dispatch, the wrapper's path, and which
//    prelude names it uses); binding 0 a uniform struct of shapes (with grid_x) padded to 16 bytes by
//    trailing _pad fields, storage bindings after it; entry points named after the CPU twins
//    (layernorm_forward, ...); `@workgroup_size(WG)` and `flat_index(wid, lid, shape.grid_x)` from the
//    prelude (shaders/prelude.wgsl, put in front of every shader: declare none of its names); reductions
//    as fixed-order trees.
// 2. src/backend/webgpu/<family>.ts, the same name: import the WGSL with `?raw`; declare each struct once
//    with wgslStruct (field names and types as in the WGSL, padding left out) and export it; describe each
//    entry point with kernel(); export one function per entry point, named like the CPU twin, that takes
//    (stage, out, inputs..., shapes) and records its dispatch:
//    stage.dispatch(spec, [SHAPE.pack({ ...fields }), buffers...], threadGrid(n).workgroups). Buffers may
//    be slices (one named view of the flat parameter buffer, offsets multiples of 256 bytes).
// 3. src/backend/webgpu/<family>.test.ts: compare to the CPU twin on random shapes through test_device.ts
//    and gpu_testing.ts, with a written tolerance. shaders.test.ts checks by itself that the family file
//    exists and that its structs match the WGSL.
import { WG } from './prelude.ts';

export type BindingKind = 'uniform' | 'read' | 'write';

export interface KernelSpec {
  /** The WGSL entry point; by convention the snake_case name of the CPU twin. */
  entryPoint: string;
  /** The shader's own source; the pipeline cache puts the prelude in front of it. */
  code: string;
  /** Kind of @binding(i) of @group(0), for i = 0, 1, ... */
  bindings: readonly BindingKind[];
  /** Pipeline-overridable constants (`override` declarations in the WGSL); WG defaults to prelude.ts's. */
  constants?: Readonly<Record<string, number>>;
}

/** A kernel of `code` (a shader's source without the prelude). */
export function kernel(
  code: string,
  entryPoint: string,
  bindings: readonly BindingKind[],
  constants?: Readonly<Record<string, number>>,
): KernelSpec {
  return constants ? { entryPoint, code, bindings, constants } : { entryPoint, code, bindings };
}

/** A range of a buffer, e.g. one named view of the flat parameter buffer. Offsets are bytes. */
export interface BufferSlice {
  buffer: GPUBuffer;
  offset?: number;
  size?: number;
}

/** A storage binding: a whole buffer or a range of one. */
export type Buf = GPUBuffer | BufferSlice;

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

interface ThreadGrid {
  workgroups: WorkgroupCount;
  /** Workgroups along x: the kernel's flat index is (wid.y * gridX + wid.x) * WG + lid (flat_index). */
  gridX: number;
}

/** A grid of at least `threads` threads in workgroups of `wg` (the prelude's WG); null when there is nothing to run. */
export function threadGrid(threads: number, wg = WG): ThreadGrid | null {
  if (!Number.isInteger(threads) || threads < 0) throw new RangeError(`threadGrid: bad thread count ${threads}`);
  if (threads === 0) return null;
  const workgroups = workgroupGrid(Math.ceil(threads / wg));
  return { workgroups, gridX: workgroups[0] };
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
