// What a stretch of GPU work costs the host: dispatches, compute passes, queue submits, host-to-GPU writes,
// readbacks (one mapAsync each) and the bytes they move, and the time the host spends waiting on the GPU
// (inside mapAsync, popErrorScope and onSubmittedWorkDone). Counting is off unless a caller starts it
// (GpuRuntime.startCounting, used by `bench kernels`); off, a stage checks one null field and reads no clock.
export interface GpuCounters {
  dispatches: number;
  passes: number;
  submits: number;
  /** queue.writeBuffer calls and their bytes (uniforms, packed uploads, runtime.write). */
  writes: number;
  bytesWritten: number;
  /** Staging buffers mapped (one mapAsync per stage that reads) and the bytes copied into them. */
  readbacks: number;
  bytesRead: number;
  /**
   * Milliseconds inside popErrorScope after a submit (the stage's validation and out-of-memory check); a
   * stage that reads has asked for its map before, so the two waits overlap.
   */
  scopeWaitMs: number;
  /** Milliseconds waiting for the map after the error scopes settled: the GPU finishing, then the copy. */
  mapWaitMs: number;
  /** Milliseconds inside onSubmittedWorkDone (GpuRuntime.finish). */
  finishWaitMs: number;
}

const COUNTER_NAMES: readonly (keyof GpuCounters)[] = [
  'dispatches',
  'passes',
  'submits',
  'writes',
  'bytesWritten',
  'readbacks',
  'bytesRead',
  'mapWaitMs',
  'scopeWaitMs',
  'finishWaitMs',
];

export function zeroCounters(): GpuCounters {
  return {
    dispatches: 0,
    passes: 0,
    submits: 0,
    writes: 0,
    bytesWritten: 0,
    readbacks: 0,
    bytesRead: 0,
    mapWaitMs: 0,
    scopeWaitMs: 0,
    finishWaitMs: 0,
  };
}

/** a + b, field by field. */
export function addCounters(a: GpuCounters, b: GpuCounters): GpuCounters {
  const out = zeroCounters();
  for (const name of COUNTER_NAMES) out[name] = a[name] + b[name];
  return out;
}

/** Milliseconds the host spent waiting on the GPU. */
export function waitMs(c: GpuCounters): number {
  return c.mapWaitMs + c.scopeWaitMs + c.finishWaitMs;
}
