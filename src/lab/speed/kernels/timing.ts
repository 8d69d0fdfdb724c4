// How `bench kernels` times: CPU medians, GPU wall-clock per dispatch and, where the adapter has
// timestamp queries, the GPU's own time of each dispatch; the adapter's FMA peak, and
// tfjs-backend-webgpu's matmul on the same adapter for comparison.
import type { Rng } from '../../../common/rng.ts';
import { fmaPeak as recordFmaPeak, FMA_PEAK_FLOPS } from '../../../backend/webgpu/fma_peak.ts';
import { WG } from '../../../backend/webgpu/prelude.ts';
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

interface GpuTime {
  /** Wall-clock milliseconds per dispatch group: `reps` copies in one stage, submit to completion. */
  wallMs: number;
  /**
   * The GPU's own milliseconds per dispatch group, from timestamps around each dispatch (its own pass);
   * null without the timestamp-query feature. Implementations may coarsen timestamps.
   */
  deviceMs: number | null;
}

/** Times a dispatch group (what `record` records) after a warm-up stage that compiles its pipelines. */
export async function gpuTime(gpu: GpuRuntime, reps: number, record: (stage: Stage) => void): Promise<GpuTime> {
  const warm = gpu.stage('bench warm-up');
  record(warm);
  await warm.submit();
  await gpu.finish();
  const stage = gpu.stage('bench');
  for (let r = 0; r < reps; r++) record(stage);
  const t0 = performance.now();
  await stage.submit();
  await gpu.finish();
  const wallMs = (performance.now() - t0) / reps;
  if (!gpu.device.features.has('timestamp-query')) return { wallMs, deviceMs: null };
  const timed = gpu.stage('bench timed', { timing: true });
  for (let r = 0; r < reps; r++) record(timed);
  await timed.submit();
  const ns = (await timed.timings()).reduce((total, t) => total + t.ns, 0);
  return { wallMs, deviceMs: ns / 1e6 / reps };
}

export function randn(rng: Rng, n: number, scale = 1): Float32Array<ArrayBuffer> {
  return Float32Array.from({ length: n }, () => rng.normal() * scale);
}

/** A dispatch of the FMA microbenchmark should run at least this long, so that launch costs vanish in it. */
const PEAK_MIN_MS = 50;

/**
 * GFLOP/s of the FMA microbenchmark: best of three dispatches, each sized for the adapter: the thread
 * count doubles (up to the most one dispatch of WG-thread workgroups can hold), then the iterations,
 * until a dispatch takes PEAK_MIN_MS, so a GPU with many cores gets enough threads to fill them.
 */
export async function fmaPeak(gpu: GpuRuntime): Promise<number> {
  const maxThreads = 65535 * WG;
  let threads = 16384;
  let iters = 2048;
  const out = gpu.buffer(maxThreads * 4);
  const run = async () => {
    const stage = gpu.stage('fma peak');
    recordFmaPeak(stage, out, iters, threads);
    const t0 = performance.now();
    await stage.submit();
    await gpu.finish();
    return performance.now() - t0;
  };
  try {
    await run();
    for (let ms = await run(); ms < PEAK_MIN_MS && iters < 1 << 20; ms = await run()) {
      if (threads < maxThreads) threads = Math.min(maxThreads, threads * 2);
      else iters *= 2;
    }
    let best = 0;
    for (let i = 0; i < 3; i++) best = Math.max(best, (FMA_PEAK_FLOPS * iters * threads) / ((await run()) * 1e6));
    return best;
  } finally {
    gpu.release(out);
  }
}

export interface TfjsResult {
  ms: Record<string, number>;
  note: string;
}

/** tfjs-backend-webgpu's matMul (transposeB, as our [OC, C] weights) on the same shapes, or why it could not run. */
export async function tfjsMatmuls(
  shapes: Record<string, [number, number, number]>,
  reps: number,
  rng: Rng,
): Promise<TfjsResult> {
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
    return {
      ms,
      note: "tfjs-core + tfjs-backend-webgpu 4.22.0 on the `webgpu` package's navigator.gpu (its own device on the same adapter); time per matMul includes one 4-byte-per-output readback amortised over the reps",
    };
  } catch (err) {
    return { ms, note: `tfjs-backend-webgpu did not run: ${err instanceof Error ? err.message : String(err)}` };
  }
}
