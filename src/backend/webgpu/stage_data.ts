// What a stage sends to the GPU: its uploads (small host arrays its dispatches read: tokens, masks, row
// indices, draws) and the uniform values of its dispatches, packed into ONE buffer that one writeBuffer
// fills at submit. Uploads come first, each at the storage-offset alignment, then the uniform structs at
// the device's uniform-offset alignment. The buffer is bound as uniform and as read-only storage at once,
// which WebGPU allows only while no dispatch writes it: the stage refuses an upload at a written binding.
import type { BufferPool } from './buffer_pool.ts';
import { roundUp, type BufferSlice, type Resource } from './kernel.ts';

/** WebGPU's largest minStorageBufferOffsetAlignment: where every upload starts. */
const OFFSET_ALIGN = 256;

interface PackedData {
  /** Null when the stage sends nothing. */
  buffer: GPUBuffer | null;
  data: Uint8Array<ArrayBuffer>;
  /** Offset and binding size of each uniform struct, in the order given to `pack`. */
  slots: { offset: number; size: number }[];
}

export class StageData {
  private readonly uploads = new Map<BufferSlice, Uint8Array>();
  private uploadBytes = 0;

  /** A slice that will hold a copy of data (taken now); its buffer is set by `pack`. */
  upload(data: Float32Array<ArrayBuffer> | Int32Array<ArrayBuffer> | Uint32Array<ArrayBuffer>): BufferSlice {
    const size = Math.max(data.byteLength, 4);
    const slice: BufferSlice = { buffer: null as unknown as GPUBuffer, offset: this.uploadBytes, size };
    this.uploads.set(slice, new Uint8Array(data.buffer, data.byteOffset, data.byteLength).slice());
    this.uploadBytes = roundUp(this.uploadBytes + size, OFFSET_ALIGN);
    return slice;
  }

  isUpload(resource: Resource): boolean {
    return this.uploads.has(resource as BufferSlice);
  }

  get uploadedBytes(): number {
    return this.uploadBytes;
  }

  /** One pooled buffer with every upload and uniform struct, the upload slices pointed at it. */
  pack(uniforms: readonly Uint8Array[], uniformAlign: number, pool: BufferPool): PackedData {
    if (uniforms.length === 0 && this.uploads.size === 0) return { buffer: null, data: new Uint8Array(0), slots: [] };
    const slots: { offset: number; size: number }[] = [];
    let total = roundUp(this.uploadBytes, uniformAlign);
    for (const bytes of uniforms) {
      const size = roundUp(Math.max(bytes.byteLength, 16), 16);
      slots.push({ offset: total, size });
      total = roundUp(total + size, uniformAlign);
    }
    const data = new Uint8Array(total);
    uniforms.forEach((bytes, i) => {
      data.set(bytes, slots[i].offset);
    });
    const buffer = pool.acquire(
      total,
      GPUBufferUsage.UNIFORM | GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
      'stage data',
    );
    for (const [slice, bytes] of this.uploads) {
      data.set(bytes, slice.offset!);
      slice.buffer = buffer;
    }
    return { buffer, data, slots };
  }
}
