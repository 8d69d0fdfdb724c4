// The whole update of `bench kernels`: loss-backward then the optimizer step on the CPU backend and on the
// WebGPU backend with each matmul variant.
import type { TokenBatch } from '../../../backend/backend.ts';
import { CpuBackend } from '../../../backend/cpu/cpu_backend.ts';
import type { GpuRuntime } from '../../../backend/webgpu/runtime.ts';
import { WebGpuBackend } from '../../../backend/webgpu/webgpu_backend.ts';
import { forwardFlopsPerToken, type ModelConfig } from '../../../model/config.ts';
import { MATMUL_VARIANTS, type Row } from './cases.ts';
import { BENCH_LOSS } from '../bench_loss.ts';
import { ADAM, type HostData, type Shapes } from './host_data.ts';
import { cpuMedian } from './timing.ts';

/**
 * One whole update, loss-backward on the batch then the optimizer step, on the CPU and on WebGPU with each
 * matmul variant: which variant trains fastest is measured on the adapter at hand.
 */
export async function timeWholeUpdates(
  gpu: GpuRuntime,
  config: ModelConfig,
  s: Shapes,
  h: HostData,
  reps: number,
): Promise<Row[]> {
  const { B, T, N, R, words } = s;
  const batch: TokenBatch = {
    nSeq: B,
    seqLen: T,
    tokens: h.tokens,
    targets: new Int32Array(N).fill(-1),
    masks: new Uint32Array(R * words),
  };
  const scoredAt = Array.from({ length: N }, (_, i) => i)
    .filter((i) => i % 4 === 3)
    .slice(0, R);
  scoredAt.forEach((i, r) => {
    batch.targets[i] = h.targets[r];
  });
  batch.masks.set(h.masks);
  const update = async (backend: WebGpuBackend | CpuBackend) => {
    await backend.lossBackward(batch, h.lossInputs, BENCH_LOSS);
    await backend.optimizerStep(ADAM);
  };
  const flop = 3 * N * forwardFlopsPerToken(config, (T + 1) / 2, R / N);
  const runs = Math.min(reps, 3);
  process.stderr.write('  whole update\n');
  const cpuBackend = new CpuBackend(config, h.params);
  const cpuMs = await cpuMedian(runs, () => update(cpuBackend));
  const rows: Row[] = [];
  for (const variant of MATMUL_VARIANTS) {
    const web = new WebGpuBackend(gpu, config, h.params, { matmul: variant });
    try {
      rows.push({
        name: `whole update (loss-backward + AdamW, matmul ${variant})`,
        flop,
        gpuMs: await cpuMedian(runs, () => update(web)),
        gpuDeviceMs: null,
        cpuMs,
      });
    } finally {
      web.dispose();
    }
  }
  return rows;
}
