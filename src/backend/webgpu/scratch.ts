// Buffers borrowed from the runtime's pool for one call (one stage of an update) and given back together.
// Sizes round up to a power of two of bytes, so batches of slowly varying shape reuse the same few pool
// buckets and the number of live GPU buffers stays bounded across updates.
import type { GpuRuntime } from './runtime.ts';

function pow2Bytes(bytes: number): number {
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

  /**
   * Gives every borrowed buffer back to the pool: after the stage that uses them was submitted, or as soon
   * as their dispatches are recorded when the host writes none of them before that stage's submit (the GPU
   * runs a stage's commands in order, so a later user of the same buffers in the stage comes after).
   */
  release(): void {
    this.gpu.release(...this.held);
    this.held.length = 0;
  }
}
