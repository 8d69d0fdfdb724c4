// The WebGPU runtime every kernel runs on: one device with its buffer pool, pipeline cache and staging ring,
// stages that batch dispatches into one submit, and device loss surfaced to whoever holds it.
//
//   const gpu = await createBrowserRuntime();          // or createNodeRuntime() from node_gpu.ts
//   gpu.onLost((info) => showBanner(info.message));
//   const stage = gpu.stage('forward');
//   maskedLogSoftmax(stage, ...);                        // kernel wrappers record dispatches
//   const out = stage.read(buffer, bytes);
//   await stage.submit();                                // one submit, one map
//   new Float32Array(await out);
import { BufferPool, type PoolStats } from './buffer_pool.ts';
import { acquireDevice, browserGpu, type AcquireOptions, type AdapterReport, type LimitName } from './device.ts';
import type { DeviceLostInfo } from './errors.ts';
import { zeroCounters, type GpuCounters } from './gpu_counters.ts';
import { PipelineCache } from './pipeline_cache.ts';
import { Stage, type StageContext, type StageOptions } from './stage.ts';
import { StagingRing } from './staging_ring.ts';

interface RuntimeStats extends PoolStats {
  pipelines: number;
  stagingBuffers: number;
  /** Queue submits so far (one per stage). */
  submits: number;
  /** Bytes copied from the GPU to the host so far (stage reads). */
  bytesRead: number;
  /** Bytes written from the host to the GPU so far (upload and write). */
  bytesWritten: number;
}

export class GpuRuntime implements StageContext {
  readonly pool: BufferPool;
  readonly pipelines: PipelineCache;
  readonly staging: StagingRing;
  /** Settles once, when the device is lost for any reason ('destroyed' after dispose). */
  readonly lost: Promise<DeviceLostInfo>;
  private lostState: DeviceLostInfo | null = null;
  private readonly lostListeners = new Set<(info: DeviceLostInfo) => void>();
  private readonly errorListeners = new Set<(message: string) => void>();
  private submits = 0;
  private bytesRead = 0;
  private bytesWritten = 0;
  /** Live counters while counting (startCounting), else null: stages then skip every count and clock read. */
  counters: GpuCounters | null = null;

  constructor(
    readonly device: GPUDevice,
    readonly adapter: AdapterReport,
    readonly limits: Partial<Record<LimitName, number>>,
  ) {
    this.pool = new BufferPool(device);
    this.pipelines = new PipelineCache(device);
    this.staging = new StagingRing(device);
    this.lost = device.lost.then((lost) => {
      const info: DeviceLostInfo = { reason: lost.reason, message: lost.message };
      this.lostState = info;
      for (const listener of this.lostListeners) listener(info);
      return info;
    });
    device.addEventListener('uncapturederror', (event) => {
      const message = (event as GPUUncapturedErrorEvent).error.message;
      for (const listener of this.errorListeners) listener(message);
    });
  }

  static async create(gpu: GPU, options: AcquireOptions): Promise<GpuRuntime> {
    const { device, adapter, limits } = await acquireDevice(gpu, options);
    return new GpuRuntime(device, adapter, limits);
  }

  lostInfo(): DeviceLostInfo | null {
    return this.lostState;
  }

  /** Calls listener when the device is lost (at once if it already is); returns the unsubscribe. */
  onLost(listener: (info: DeviceLostInfo) => void): () => void {
    if (this.lostState) {
      listener(this.lostState);
      return () => undefined;
    }
    this.lostListeners.add(listener);
    return () => this.lostListeners.delete(listener);
  }

  /** GPU errors raised outside any stage (stages report their own errors). */
  onUncapturedError(listener: (message: string) => void): () => void {
    this.errorListeners.add(listener);
    return () => this.errorListeners.delete(listener);
  }

  countSubmit(bytesRead: number): void {
    this.submits++;
    this.bytesRead += bytesRead;
  }

  /** Starts counting from zero (replacing any counters already running); returns the live counters. */
  startCounting(): GpuCounters {
    this.counters = zeroCounters();
    return this.counters;
  }

  stopCounting(): void {
    this.counters = null;
  }

  stage(label: string, options?: StageOptions): Stage {
    return new Stage(this, label, options);
  }

  /** A pooled storage buffer holding data; give it back with `release`. */
  upload(data: ArrayBufferView<ArrayBuffer>, usage: GPUBufferUsageFlags = STORAGE_USAGE, label?: string): GPUBuffer {
    const buffer = this.pool.acquire(Math.max(data.byteLength, 4), usage | GPUBufferUsage.COPY_DST, label);
    this.write(buffer, data);
    return buffer;
  }

  /** Queues a host-to-GPU write at byteOffset (a multiple of 4); data is padded to 4 bytes. */
  write(target: GPUBuffer, data: ArrayBufferView<ArrayBuffer>, byteOffset = 0): void {
    const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    if (bytes.byteLength % 4 === 0) {
      this.device.queue.writeBuffer(target, byteOffset, bytes);
    } else {
      const padded = new Uint8Array(Math.ceil(bytes.byteLength / 4) * 4);
      padded.set(bytes);
      this.device.queue.writeBuffer(target, byteOffset, padded);
    }
    this.bytesWritten += bytes.byteLength;
    if (this.counters) {
      this.counters.writes++;
      this.counters.bytesWritten += bytes.byteLength;
    }
  }

  /** A pooled storage buffer of at least byteSize bytes, contents undefined. */
  buffer(byteSize: number, usage: GPUBufferUsageFlags = STORAGE_USAGE, label?: string): GPUBuffer {
    return this.pool.acquire(byteSize, usage, label);
  }

  release(...buffers: GPUBuffer[]): void {
    for (const buffer of buffers) this.pool.release(buffer);
  }

  /** Resolves when all submitted work has finished on the GPU. */
  async finish(): Promise<void> {
    const counters = this.counters;
    if (!counters) return this.device.queue.onSubmittedWorkDone();
    const t0 = performance.now();
    await this.device.queue.onSubmittedWorkDone();
    counters.finishWaitMs += performance.now() - t0;
  }

  stats(): RuntimeStats {
    return {
      ...this.pool.stats(),
      pipelines: this.pipelines.size,
      stagingBuffers: this.staging.size,
      submits: this.submits,
      bytesRead: this.bytesRead,
      bytesWritten: this.bytesWritten,
    };
  }

  /** Frees every buffer and destroys the device; `lost` then settles with reason 'destroyed'. */
  dispose(): void {
    this.pool.destroy();
    this.staging.destroy();
    this.device.destroy();
  }
}

/**
 * Storage buffers that kernels read and write and stages copy from: STORAGE | COPY_SRC | COPY_DST. Spelled
 * as numbers (fixed by the spec) because GPUBufferUsage exists only where WebGPU does, and this module
 * also loads on pages without it.
 */
const STORAGE_USAGE: GPUBufferUsageFlags = 0x0080 | 0x0004 | 0x0008;

/** The runtime on the page's or worker's navigator.gpu; throws WebGpuUnavailableError with the fix. */
export async function createBrowserRuntime(options: Omit<AcquireOptions, 'environment'> = {}): Promise<GpuRuntime> {
  return GpuRuntime.create(browserGpu(), { ...options, environment: 'browser' });
}
