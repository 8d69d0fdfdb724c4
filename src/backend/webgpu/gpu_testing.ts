// Helpers for the kernel tests: random inputs, upload host arrays, record a stage, read results back, and
// compare with the CPU reference under a written tolerance. Test-only (imported by *.test.ts files).
import type { Rng } from '../../common/rng.ts';
import type { GpuRuntime } from './runtime.ts';
import type { Stage } from './stage.ts';

/** n normal draws times scale. */
export function randn(rng: Rng, n: number, scale = 1): Float32Array<ArrayBuffer> {
  return Float32Array.from({ length: n }, () => rng.normal() * scale);
}

type HostArray = Float32Array<ArrayBuffer> | Int32Array<ArrayBuffer> | Uint32Array<ArrayBuffer>;

/**
 * Uploads `inputs`, gives the recorder the buffers by name, and reads back every buffer named in `outputs`
 * (a float count: a zeroed buffer of that size, or a Float32Array: a buffer starting with those values).
 */
export async function runKernels(
  gpu: GpuRuntime,
  inputs: Record<string, HostArray>,
  outputs: Record<string, number | Float32Array<ArrayBuffer>>,
  record: (stage: Stage, buffers: Record<string, GPUBuffer>) => void,
): Promise<Record<string, Float32Array>> {
  const buffers: Record<string, GPUBuffer> = {};
  for (const [name, data] of Object.entries(inputs)) buffers[name] = gpu.upload(data);
  for (const [name, init] of Object.entries(outputs)) {
    buffers[name] = gpu.upload(typeof init === 'number' ? new Float32Array(Math.max(init, 1)) : init);
  }
  try {
    const stage = gpu.stage('test');
    record(stage, buffers);
    const reads: Record<string, Promise<ArrayBuffer>> = {};
    for (const [name, init] of Object.entries(outputs)) {
      const n = typeof init === 'number' ? init : init.length;
      reads[name] = stage.read(buffers[name], Math.max(n, 1) * 4);
    }
    await stage.submit();
    const result: Record<string, Float32Array> = {};
    for (const [name, p] of Object.entries(reads)) result[name] = new Float32Array(await p);
    return result;
  } finally {
    gpu.release(...Object.values(buffers));
  }
}

/** Largest |got - want| / (abs + rel * |want|) over the arrays: <= 1 passes; Infinity on a NaN or length mismatch. */
export function worstError(got: ArrayLike<number>, want: ArrayLike<number>, abs: number, rel: number): number {
  if (got.length < want.length) return Infinity;
  let worst = 0;
  for (let i = 0; i < want.length; i++) {
    const ratio = Math.abs(got[i] - want[i]) / (abs + rel * Math.abs(want[i]));
    if (!(ratio <= worst)) worst = Number.isNaN(ratio) ? Infinity : ratio;
  }
  return worst;
}
