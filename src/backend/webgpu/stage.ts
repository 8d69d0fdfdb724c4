// One stage of GPU work (e.g. "forward", "loss", "optimizer"): dispatches and reads are recorded in order,
// then `submit` encodes them into ONE command encoder and ONE queue submit. What the host sends (the
// uniform values of all dispatches and the stage's uploads) travels in one buffer and one writeBuffer, each
// part at its own aligned offset, and everything the stage reads goes through one staging buffer mapped
// once. A validation or out-of-memory error inside the stage rejects the stage (GpuStageError) instead of
// leaving zeros in the results. While the runtime counts (gpu_counters.ts), a stage adds its work and its
// waits to the counters.
import { DeviceLostError, GpuStageError, type DeviceLostInfo } from './errors.ts';
import type { BufferPool } from './buffer_pool.ts';
import type { GpuCounters } from './gpu_counters.ts';
import {
  asSlice,
  isUniformData,
  roundUp,
  type BufferSlice,
  type KernelSpec,
  type Resource,
  type WorkgroupCount,
} from './kernel.ts';
import type { PipelineCache } from './pipeline_cache.ts';
import { StageData } from './stage_data.ts';
import type { StagingRing } from './staging_ring.ts';

/** What a stage needs from the runtime that created it. */
export interface StageContext {
  readonly device: GPUDevice;
  readonly pool: BufferPool;
  readonly pipelines: PipelineCache;
  readonly staging: StagingRing;
  /** Set once the device is lost. */
  lostInfo(): DeviceLostInfo | null;
  readonly lost: Promise<DeviceLostInfo>;
  /** Called once per queue submit with the bytes the stage copies back to the host. */
  countSubmit(bytesRead: number): void;
  /** Counters to add this stage's work and waits to, or null when nobody counts. */
  readonly counters: GpuCounters | null;
}

interface Dispatch {
  kind: 'dispatch';
  kernel: KernelSpec;
  resources: Resource[];
  workgroups: WorkgroupCount;
}

interface Read {
  kind: 'read';
  source: BufferSlice;
  byteLength: number;
  stagingOffset: number;
  resolve: (data: ArrayBuffer) => void;
  reject: (err: unknown) => void;
}

interface Copy {
  kind: 'copy';
  source: BufferSlice;
  target: BufferSlice;
  byteLength: number;
}

interface Clear {
  kind: 'clear';
  target: BufferSlice;
}

interface ResolveTimestamps {
  kind: 'resolve-timestamps';
  querySet: GPUQuerySet;
  count: number;
  target: GPUBuffer;
}

type Command = Dispatch | Read | Copy | Clear | ResolveTimestamps;

export interface StageOptions {
  /**
   * Time each dispatch on the GPU (its own compute pass with timestamp writes). Needs the adapter's
   * timestamp-query feature; for benchmarks, since separate passes cost a little.
   */
  timing?: boolean;
}

interface KernelTiming {
  entryPoint: string;
  /** GPU time of the dispatch's pass in nanoseconds (browsers may quantise it). */
  ns: number;
}

/** Timestamp queries per query set allowed by WebGPU. */
const MAX_QUERIES = 4096;

export class Stage {
  private readonly commands: Command[] = [];
  private readonly data = new StageData();
  private stagingBytes = 0;
  private submitted = false;
  private readonly timingResult: Promise<KernelTiming[]> | null = null;
  private resolveTimings: ((timings: KernelTiming[]) => void) | null = null;
  private rejectTimings: ((err: unknown) => void) | null = null;

  constructor(
    private readonly context: StageContext,
    readonly label: string,
    private readonly options: StageOptions = {},
  ) {
    if (options.timing) {
      if (!context.device.features.has('timestamp-query')) {
        throw new Error(`stage "${label}": timing needs the timestamp-query feature, which this adapter lacks`);
      }
      this.timingResult = new Promise((resolve, reject) => {
        this.resolveTimings = resolve;
        this.rejectTimings = reject;
      });
      this.timingResult.catch(() => undefined);
    }
  }

  /** GPU time of each dispatch, in recording order, once the stage has run (stages made with timing). */
  timings(): Promise<KernelTiming[]> {
    if (!this.timingResult) throw new Error(`stage "${this.label}" was not created with { timing: true }`);
    return this.timingResult;
  }

  /**
   * Records one dispatch. resources[i] fills @binding(i): a buffer or slice for a storage binding, the
   * struct's values (u32/i32/f32 words, in field order) for a uniform binding.
   */
  dispatch(kernel: KernelSpec, resources: Resource[], workgroups: WorkgroupCount): this {
    this.checkOpen();
    if (resources.length !== kernel.bindings.length) {
      throw new RangeError(
        `${kernel.entryPoint}: ${resources.length} resources for ${kernel.bindings.length} bindings`,
      );
    }
    kernel.bindings.forEach((kind, i) => {
      if ((kind === 'uniform') !== isUniformData(resources[i])) {
        throw new TypeError(
          `${kernel.entryPoint}: binding ${i} is ${kind} and needs ${kind === 'uniform' ? 'typed-array values' : 'a buffer'}`,
        );
      }
      // Uploads share their buffer with the uniforms, which no dispatch may also write.
      if (kind === 'write' && this.data.isUpload(resources[i])) {
        throw new TypeError(`${kernel.entryPoint}: binding ${i} is written, and an upload is read-only`);
      }
    });
    if (workgroups.some((n) => !Number.isInteger(n) || n < 0)) {
      throw new RangeError(`${kernel.entryPoint}: bad workgroup count ${workgroups.join('x')}`);
    }
    // Uniform values are copied now, so the caller may reuse its array before the stage is submitted.
    const recorded = resources.map((r) => (isUniformData(r) ? r.slice() : r));
    this.commands.push({ kind: 'dispatch', kernel, resources: recorded, workgroups });
    return this;
  }

  /**
   * A slice that holds a copy of data (taken now) when the stage runs, for read-only bindings of this
   * stage's dispatches; it is sent with the uniforms, in the stage's one write (stage_data.ts).
   */
  upload(data: Float32Array<ArrayBuffer> | Int32Array<ArrayBuffer> | Uint32Array<ArrayBuffer>): BufferSlice {
    this.checkOpen();
    return this.data.upload(data);
  }

  /** Bytes the stage's uploads take in its write, alignment included. */
  get uploadedBytes(): number {
    return this.data.uploadedBytes;
  }

  /** Records a buffer-to-buffer copy (sizes and offsets multiples of 4). */
  copy(source: GPUBuffer | BufferSlice, target: GPUBuffer | BufferSlice, byteLength: number): this {
    this.checkOpen();
    this.commands.push({ kind: 'copy', source: asSlice(source), target: asSlice(target), byteLength });
    return this;
  }

  /** Records zeroing of a buffer or slice (offset and size multiples of 4; whole buffer without size). */
  clear(target: GPUBuffer | BufferSlice): this {
    this.checkOpen();
    this.commands.push({ kind: 'clear', target: asSlice(target) });
    return this;
  }

  /**
   * Records a read of byteLength bytes of source, as it is at this point of the stage. The promise settles
   * after `submit`; it rejects with the stage's error or DeviceLostError.
   */
  read(source: GPUBuffer | BufferSlice, byteLength: number): Promise<ArrayBuffer> {
    this.checkOpen();
    if (!(byteLength > 0) || byteLength % 4 !== 0) {
      throw new RangeError(`read: byte length must be a positive multiple of 4, got ${byteLength}`);
    }
    let resolve!: (data: ArrayBuffer) => void;
    let reject!: (err: unknown) => void;
    const promise = new Promise<ArrayBuffer>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    // The stage's submit reports the same failure; a caller that awaits only submit must not see an
    // unhandled rejection from here.
    promise.catch(() => undefined);
    this.commands.push({
      kind: 'read',
      source: asSlice(source),
      byteLength,
      stagingOffset: this.stagingBytes,
      resolve,
      reject,
    });
    this.stagingBytes += roundUp(byteLength, 8);
    return promise;
  }

  /**
   * Encodes every recorded command into one command buffer and submits it before returning, so stages
   * run in the order of their submit calls. Resolves once the stage's reads are delivered (without waiting
   * for the GPU when it has none); rejects with GpuStageError or DeviceLostError.
   */
  async submit(): Promise<void> {
    this.checkOpen();
    const querySet = this.options.timing ? this.recordTimestampResolve() : null;
    this.submitted = true;
    const reads = this.commands.filter((c): c is Read => c.kind === 'read');
    try {
      await this.encodeAndSubmit(reads);
    } catch (err) {
      for (const read of reads) read.reject(err);
      this.rejectTimings?.(err);
      throw err;
    } finally {
      querySet?.destroy();
    }
  }

  /** Appends the resolve of the dispatches' timestamps and its read; returns the query set to free. */
  private recordTimestampResolve(): GPUQuerySet {
    const dispatches = this.commands.filter((c): c is Dispatch => c.kind === 'dispatch');
    const count = Math.max(2, 2 * dispatches.length);
    if (count > MAX_QUERIES) {
      throw new RangeError(
        `stage "${this.label}": at most ${MAX_QUERIES / 2} timed dispatches, got ${dispatches.length}`,
      );
    }
    const { device, pool } = this.context;
    const querySet = device.createQuerySet({ label: this.label, type: 'timestamp', count });
    const target = pool.acquire(count * 8, GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC, 'timestamps');
    this.commands.push({ kind: 'resolve-timestamps', querySet, count, target });
    const times = this.read(target, count * 8);
    // Queue order makes the resolve buffer reusable once this stage's commands are submitted.
    pool.release(target);
    times.then(
      (data) => {
        const ticks = new BigUint64Array(data);
        this.resolveTimings?.(
          dispatches.map((d, i) => ({ entryPoint: d.kernel.entryPoint, ns: Number(ticks[2 * i + 1] - ticks[2 * i]) })),
        );
      },
      (err: unknown) => this.rejectTimings?.(err),
    );
    return querySet;
  }

  private async encodeAndSubmit(reads: Read[]): Promise<void> {
    const { device, pool, staging, counters } = this.context;
    const lost = this.context.lostInfo();
    if (lost) throw new DeviceLostError(lost);

    device.pushErrorScope('out-of-memory');
    device.pushErrorScope('validation');
    let dataBuffer: GPUBuffer | null = null;
    let stagingBuffer: GPUBuffer | null = null;
    let mapped: Promise<void> | null = null;
    let thrown: unknown = null;
    try {
      const sent = this.data.pack(this.uniformValues(), device.limits.minUniformBufferOffsetAlignment, pool);
      dataBuffer = sent.buffer;
      stagingBuffer = reads.length > 0 ? staging.acquire(this.stagingBytes) : null;
      const encoder = this.encode(sent.buffer, sent.slots, stagingBuffer);
      if (sent.buffer) device.queue.writeBuffer(sent.buffer, 0, sent.data);
      device.queue.submit([encoder.finish()]);
      // The map is asked for at once, so that waiting for it overlaps the error scopes' round trip; a
      // stage that turns out to have failed cancels it unread.
      if (stagingBuffer) {
        mapped = stagingBuffer.mapAsync(GPUMapMode.READ, 0, this.stagingBytes);
        mapped.catch(() => undefined);
      }
      const bytesRead = reads.reduce((total, read) => total + read.byteLength, 0);
      this.context.countSubmit(bytesRead);
      if (counters) {
        counters.submits++;
        counters.bytesRead += bytesRead;
        if (sent.buffer) {
          counters.writes++;
          counters.bytesWritten += sent.data.byteLength;
        }
      }
    } catch (err) {
      thrown = err;
    }
    // Queue order makes the data buffer reusable by the next stage's writeBuffer right away.
    if (dataBuffer) pool.release(dataBuffer);
    const waitStart = counters ? performance.now() : 0;
    const [validation, outOfMemory] = await Promise.all([device.popErrorScope(), device.popErrorScope()]);
    const scopesDone = counters ? performance.now() : 0;
    if (counters) counters.scopeWaitMs += scopesDone - waitStart;
    const gpuError = validation ?? outOfMemory;
    const failure = thrown ?? (gpuError ? new GpuStageError(this.label, gpuError.message) : null);
    if (!stagingBuffer) {
      if (failure) throw failure;
      return;
    }
    try {
      if (failure) throw failure;
      try {
        await mapped;
      } catch (err) {
        // A map fails when the device goes away; the loss itself may be reported a moment later.
        const info = this.context.lostInfo() ?? (await settlesWithin(this.context.lost, 100));
        throw info ? new DeviceLostError(info) : err;
      }
      if (counters) {
        counters.readbacks++;
        counters.mapWaitMs += performance.now() - scopesDone;
      }
      const range = stagingBuffer.getMappedRange(0, this.stagingBytes);
      for (const read of reads) read.resolve(range.slice(read.stagingOffset, read.stagingOffset + read.byteLength));
    } finally {
      if (stagingBuffer.mapState !== 'unmapped') stagingBuffer.unmap();
      staging.release(stagingBuffer);
    }
  }

  private encode(
    dataBuffer: GPUBuffer | null,
    uniformSlots: { offset: number; size: number }[],
    stagingBuffer: GPUBuffer | null,
  ): GPUCommandEncoder {
    const { device, pipelines, counters } = this.context;
    const encoder = device.createCommandEncoder({ label: this.label });
    const timestamps = this.commands.find((c): c is ResolveTimestamps => c.kind === 'resolve-timestamps');
    let pass: GPUComputePassEncoder | null = null;
    let uniformIndex = 0;
    let dispatchIndex = 0;
    for (const command of this.commands) {
      if (command.kind === 'dispatch') {
        // Timed dispatches each get a pass of their own, whose begin and end write the timestamps.
        if (timestamps) {
          pass?.end();
          pass = null;
        }
        if (!pass) {
          pass = encoder.beginComputePass(
            timestamps
              ? {
                  label: command.kernel.entryPoint,
                  timestampWrites: {
                    querySet: timestamps.querySet,
                    beginningOfPassWriteIndex: 2 * dispatchIndex,
                    endOfPassWriteIndex: 2 * dispatchIndex + 1,
                  },
                }
              : { label: this.label },
          );
          if (counters) counters.passes++;
        }
        dispatchIndex++;
        const { pipeline, layout } = pipelines.get(command.kernel);
        const entries = command.resources.map((resource, binding): GPUBindGroupEntry => {
          if (isUniformData(resource)) {
            const { offset, size } = uniformSlots[uniformIndex++];
            return { binding, resource: { buffer: dataBuffer!, offset, size } };
          }
          const slice = asSlice(resource);
          return { binding, resource: { buffer: slice.buffer, offset: slice.offset ?? 0, size: slice.size } };
        });
        pass.setPipeline(pipeline);
        pass.setBindGroup(0, device.createBindGroup({ label: command.kernel.entryPoint, layout, entries }));
        const [x, y, z] = command.workgroups;
        if (x > 0 && y > 0 && z > 0) {
          pass.dispatchWorkgroups(x, y, z);
          if (counters) counters.dispatches++;
        }
        continue;
      }
      pass?.end();
      pass = null;
      if (command.kind === 'clear') {
        encoder.clearBuffer(command.target.buffer, command.target.offset ?? 0, command.target.size);
      } else if (command.kind === 'resolve-timestamps') {
        encoder.resolveQuerySet(command.querySet, 0, command.count, command.target, 0);
      } else if (command.kind === 'copy') {
        const { source, target, byteLength } = command;
        encoder.copyBufferToBuffer(source.buffer, source.offset ?? 0, target.buffer, target.offset ?? 0, byteLength);
      } else {
        const { source, byteLength, stagingOffset } = command;
        encoder.copyBufferToBuffer(source.buffer, source.offset ?? 0, stagingBuffer!, stagingOffset, byteLength);
      }
    }
    pass?.end();
    return encoder;
  }

  /** The uniform values of every dispatch, in recording order. */
  private uniformValues(): Uint8Array[] {
    const values: Uint8Array[] = [];
    for (const command of this.commands) {
      if (command.kind !== 'dispatch') continue;
      for (const resource of command.resources) {
        if (isUniformData(resource))
          values.push(new Uint8Array(resource.buffer, resource.byteOffset, resource.byteLength));
      }
    }
    return values;
  }

  private checkOpen(): void {
    if (this.submitted) throw new Error(`stage "${this.label}" was already submitted; start a new stage`);
  }
}

function settlesWithin<T>(promise: Promise<T>, ms: number): Promise<T | null> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), ms);
    promise.then((value) => {
      clearTimeout(timer);
      resolve(value);
    });
  });
}
