// Buffers borrowed from the runtime's pool for one call (one stage of an update) and given back together,
// and the packing of a stage's small uploads into one write.
// Sizes round up to a power of two of bytes, so batches of slowly varying shape reuse the same few pool
// buckets and the number of live GPU buffers stays bounded across updates.
import { roundUp, type BufferSlice } from './kernel.ts';
import type { GpuRuntime } from './runtime.ts';

/** WebGPU's minStorageBufferOffsetAlignment default (and the most any adapter may ask). */
const STORAGE_OFFSET_ALIGN = 256;

export function pow2Bytes(bytes: number): number {
  return Math.max(256, 2 ** Math.ceil(Math.log2(Math.max(bytes, 1))));
}

export class Scratch {
  private readonly held: GPUBuffer[] = [];

  constructor(private readonly gpu: GpuRuntime) {}

  /** A buffer of at least n floats (or 32-bit words), contents undefined. */
  floats(n: number, label?: string): GPUBuffer {
    const buffer = this.gpu.buffer(pow2Bytes(Math.max(n, 1) * 4), undefined, label);
    this.held.push(buffer);
    return buffer;
  }

  /** A buffer holding a copy of data. */
  upload(data: Float32Array<ArrayBuffer> | Int32Array<ArrayBuffer> | Uint32Array<ArrayBuffer>, label?: string): GPUBuffer {
    const buffer = this.floats(data.length, label);
    if (data.length > 0) this.gpu.device.queue.writeBuffer(buffer, 0, data.buffer, data.byteOffset, data.byteLength);
    return buffer;
  }

  /** Gives every borrowed buffer back to the pool (after the stage that uses them was submitted). */
  release(): void {
    this.gpu.release(...this.held);
    this.held.length = 0;
  }
}

/**
 * Small host arrays gathered into ONE upload: `add` hands out a slice (at the storage-offset alignment)
 * that dispatches may be recorded with at once, and `flush` writes every part with a single writeBuffer
 * and points the slices at the buffer, before the stage is submitted.
 */
export class UploadPacker {
  private readonly parts: { data: Uint8Array; slice: BufferSlice }[] = [];
  private bytes = 0;

  add(data: Float32Array<ArrayBuffer> | Int32Array<ArrayBuffer> | Uint32Array<ArrayBuffer>): BufferSlice {
    const size = Math.max(data.byteLength, 4);
    const slice = { buffer: null as unknown as GPUBuffer, offset: this.bytes, size };
    this.parts.push({ data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), slice });
    this.bytes = roundUp(this.bytes + size, STORAGE_OFFSET_ALIGN);
    return slice;
  }

  /** Uploads every part in one write; returns the bytes written. */
  flush(gpu: GpuRuntime, scratch: Scratch): number {
    if (this.parts.length === 0) return 0;
    const buffer = scratch.floats(this.bytes / 4, 'packed uploads');
    const staged = new Uint8Array(this.bytes);
    for (const { data, slice } of this.parts) {
      staged.set(data, slice.offset);
      slice.buffer = buffer;
    }
    gpu.device.queue.writeBuffer(buffer, 0, staged);
    this.parts.length = 0;
    return staged.byteLength;
  }
}
