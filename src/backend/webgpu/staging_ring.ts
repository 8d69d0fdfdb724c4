// MAP_READ staging buffers reused in turn. A stage copies everything it reads into one staging buffer and
// maps it once; while that map is pending the next stage takes the next buffer, so reading results never
// waits for an earlier stage's map. The ring grows when every buffer is busy and never shrinks below that.
import { roundUp } from './kernel.ts';

interface Slot {
  buffer: GPUBuffer | null;
  busy: boolean;
}

export class StagingRing {
  private readonly slots: Slot[] = [];
  private cursor = 0;

  constructor(private readonly device: GPUDevice) {}

  /** A staging buffer of at least byteSize bytes, marked busy until `release`. */
  acquire(byteSize: number): GPUBuffer {
    let slot: Slot | undefined;
    for (let i = 0; i < this.slots.length && !slot; i++) {
      const candidate = this.slots[(this.cursor + i) % this.slots.length];
      if (!candidate.busy) slot = candidate;
    }
    if (!slot) {
      slot = { buffer: null, busy: false };
      this.slots.push(slot);
    }
    this.cursor = (this.slots.indexOf(slot) + 1) % this.slots.length;
    if (!slot.buffer || slot.buffer.size < byteSize) {
      slot.buffer?.destroy();
      // Power-of-two sizes so that a slowly growing read does not reallocate every stage.
      const size = Math.max(256, 2 ** Math.ceil(Math.log2(roundUp(byteSize, 256))));
      slot.buffer = this.device.createBuffer({
        label: `staging ${this.slots.indexOf(slot)}`,
        size,
        usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
      });
    }
    slot.busy = true;
    return slot.buffer;
  }

  release(buffer: GPUBuffer): void {
    // After destroy (device disposed mid-read) there is nothing left to give back to.
    if (this.slots.length === 0) return;
    const slot = this.slots.find((s) => s.buffer === buffer);
    if (!slot?.busy) throw new Error(`StagingRing.release: "${buffer.label}" is not a busy staging buffer`);
    slot.busy = false;
  }

  /** Number of staging buffers held. */
  get size(): number {
    return this.slots.length;
  }

  destroy(): void {
    for (const slot of this.slots) slot.buffer?.destroy();
    this.slots.length = 0;
    this.cursor = 0;
  }
}
