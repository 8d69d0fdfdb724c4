// How `bench kernels` times: CPU medians, GPU wall-clock per dispatch, the adapter's FMA peak, and
// tfjs-backend-webgpu's matmul on the same adapter for comparison.
import type { Rng } from '../../../common/rng.ts';
import { fmaPeak as recordFmaPeak, FMA_PEAK_FLOPS } from '../../../backend/webgpu/fma_peak.ts';
import type { GpuRuntime } from '../../../backend/webgpu/runtime.ts';
import type { Stage } from '../../../backend/webgpu/stage.ts';

/** Median milliseconds of `reps` runs after one warm-up run. */
export async function cpuMedian(reps: number, fn: () => unknown): Promise<number> {
  await fn();
  const times: number[] = [];
  for (let r = 0; r < reps; r++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

/** Milliseconds per dispatch group: `reps` copies recorded in one stage, submit to completion. */
export async function gpuTime(gpu: GpuRuntime, reps: number, record: (stage: Stage) => void): Promise<number> {
  const warm = gpu.stage('bench warm-up');
  record(warm);
  await warm.submit();
  await gpu.finish();
  const stage = gpu.stage('bench');
  for (let r = 0; r < reps; r++) record(stage);
  const t0 = performance.now();
  await stage.submit();
  await gpu.finish();
  return (performance.now() - t0) / reps;
}

export function randn(rng: Rng, n: number, scale = 1): Float32Array<ArrayBuffer> {
  return Float32Array.from({ length: n }, () => rng.normal() * scale);
}

/** GFLOP/s of the FMA microbenchmark: best of three dispatches. */
export async function fmaPeak(gpu: GpuRuntime): Promise<number> {
  const threads = 16384;
  const iters = 2048;
  const out = gpu.buffer(threads * 4);
  let best = 0;
  try {
    for (let i = 0; i < 4; i++) {
      const stage = gpu.stage('fma peak');
      recordFmaPeak(stage, out, iters, threads);
      const t0 = performance.now();
      await stage.submit();
      await gpu.finish();
      const ms = performance.now() - t0;
      if (i > 0) best = Math.max(best, (FMA_PEAK_FLOPS * iters * threads) / (ms * 1e6));
    }
  } finally {
    gpu.release(out);
  }
  return best;
}

export interface TfjsResult {
  ms: Record<string, number>;
  note: string;
}

/** tfjs-backend-webgpu's matMul (transposeB, as our [OC, C] weights) on the same shapes, or why it could not run. */
export async function tfjsMatmuls(shapes: Record<string, [number, number, number]>, reps: number, rng: Rng): Promise<TfjsResult> {
  const ms: Record<string, number> = {};
  try {
    const { loadNodeGpu } = await import('../../../backend/webgpu/node_gpu.ts');
    const gpu = await loadNodeGpu();
    if (!(globalThis.navigator as { gpu?: GPU } | undefined)?.gpu) {
      Object.defineProperty(globalThis, 'navigator', { value: { gpu, userAgent: 'node' }, configurable: true });
    }
    const tf = await import('@tensorflow/tfjs-core');
    await import('@tensorflow/tfjs-backend-webgpu');
    if (!(await tf.setBackend('webgpu'))) return { ms, note: 'tf.setBackend("webgpu") returned false' };
    await tf.ready();
    for (const [name, [N, C, OC]] of Object.entries(shapes)) {
      const a = tf.tensor2d(randn(rng, N * C), [N, C]);
      const w = tf.tensor2d(randn(rng, OC * C), [OC, C]);
      const run = async (n: number) => {
        let last: ReturnType<typeof tf.matMul> | null = null;
        for (let i = 0; i < n; i++) {
          last?.dispose();
          last = tf.matMul(a, w, false, true);
        }
        await last!.data();
        last!.dispose();
      };
      await run(1);
      const t0 = performance.now();
      await run(reps);
      ms[name] = (performance.now() - t0) / reps;
      a.dispose();
      w.dispose();
    }
    return { ms, note: 'tfjs-core + tfjs-backend-webgpu 4.22.0 on the `webgpu` package\'s navigator.gpu (its own device on the same adapter); time per matMul includes one 4-byte-per-output readback amortised over the reps' };
  } catch (err) {
    return { ms, note: `tfjs-backend-webgpu did not run: ${err instanceof Error ? err.message : String(err)}` };
  }
}
