// GPU buffers recycled by (size bucket, usage). Creating buffers is slow on every driver and a training
// step needs the same shapes each time, so released buffers wait in a free list for the next request of the
// same bucket. `live` counts every buffer the pool created and has not destroyed: a soak test that sees it
// grow across steps has found a leak.
import { roundUp } from './kernel.ts';

/** Sizes round up to this many bytes (also WebGPU's storage-offset alignment). */
const POOL_GRANULE = 256;

export interface PoolStats {
  /** Created and not destroyed (in use + free). */
  live: number;
  inUse: number;
  free: number;
  /** Bytes of all live buffers. */
  bytes: number;
}

export class BufferPool {
  private readonly freeLists = new Map<string, GPUBuffer[]>();
  private readonly inUse = new Set<GPUBuffer>();
  private freeCount = 0;
  private bytes = 0;

  constructor(private readonly device: GPUDevice) {}

  /** A buffer of at least byteSize bytes with exactly this usage; contents are undefined. */
  acquire(byteSize: number, usage: GPUBufferUsageFlags, label?: string): GPUBuffer {
    if (!(byteSize > 0) || !Number.isFinite(byteSize)) {
      throw new RangeError(`BufferPool.acquire: byte size must be positive, got ${byteSize}`);
    }
    const size = roundUp(byteSize, POOL_GRANULE);
    const list = this.freeLists.get(key(size, usage));
    let buffer = list?.pop();
    if (buffer) {
      this.freeCount--;
    } else {
      buffer = this.device.createBuffer({ size, usage, label });
      this.bytes += size;
    }
    this.inUse.add(buffer);
    return buffer;
  }

  release(buffer: GPUBuffer): void {
    if (!this.inUse.delete(buffer)) {
      throw new Error(`BufferPool.release: buffer "${buffer.label}" is not in use from this pool (released twice?)`);
    }
    const k = key(buffer.size, buffer.usage);
    let list = this.freeLists.get(k);
    if (!list) {
      list = [];
      this.freeLists.set(k, list);
    }
    list.push(buffer);
    this.freeCount++;
  }

  /** Destroys the free buffers (e.g. after a model change); buffers in use are untouched. */
  trim(): void {
    for (const list of this.freeLists.values()) {
      for (const buffer of list) {
        this.bytes -= buffer.size;
        buffer.destroy();
      }
    }
    this.freeLists.clear();
    this.freeCount = 0;
  }

  /** Destroys every buffer, in use or not. */
  destroy(): void {
    this.trim();
    for (const buffer of this.inUse) {
      this.bytes -= buffer.size;
      buffer.destroy();
    }
    this.inUse.clear();
  }

  stats(): PoolStats {
    return { live: this.inUse.size + this.freeCount, inUse: this.inUse.size, free: this.freeCount, bytes: this.bytes };
  }
}

function key(size: number, usage: GPUBufferUsageFlags): string {
  return `${usage}:${size}`;
}
