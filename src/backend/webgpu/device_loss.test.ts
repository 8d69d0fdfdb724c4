// Device loss in the middle of an update: the backend reports it (GpuBackendLostError, with the number of
// optimizer steps that completed), and a new backend resumed from the checkpoint of that step reproduces,
// bit for bit, the weights of a run that was never interrupted.
import { describe, expect, it } from 'vitest';
import { Rng } from '../../common/rng.ts';
import { validateConfig } from '../../model/config.ts';
import { initParameters } from '../../model/init.ts';
import { maskWords, type LossHyper, type LossInputs, type OptimizerHyper, type TokenBatch } from '../backend.ts';
import { allowToken } from '../cpu/log_softmax.ts';
import { createNodeRuntime } from './node_gpu.ts';
import { GpuBackendLostError, WebGpuBackend } from './webgpu_backend.ts';

const config = validateConfig({ vocabSize: 40, contextLength: 24, dModel: 16, nLayer: 2, nHead: 2, dMlp: 64, lnEps: 1e-5 });
const hyper: LossHyper = { lambda: 0.5, beta: 5, clip: 0.2, klCoef: 0.1, gate: true };
const adam: OptimizerHyper = { lr: 1e-2, beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0.1, gradClip: 1 };

function batchOf(seed: number): TokenBatch {
  const rng = new Rng(seed);
  const V = config.vocabSize;
  const words = maskWords(V);
  const seqLen = 12;
  const tokens = Int32Array.from({ length: 2 * seqLen }, () => rng.int(V));
  const targets = Int32Array.from({ length: 2 * seqLen }, (_, i) => (i % 3 === 1 ? rng.int(V) : -1));
  const scored = targets.filter((t) => t >= 0);
  const masks = new Uint32Array(scored.length * words).fill(0xffffffff);
  scored.forEach((t, r) => allowToken(masks, r, words, t));
  return { nSeq: 2, seqLen, tokens, targets, masks };
}

function inputsOf(n: number, seed: number): LossInputs {
  const rng = new Rng(seed);
  const f = (g: () => number) => Float32Array.from({ length: n }, g);
  return { advantage: f(() => rng.normal()), mask: f(() => 1), opdMask: f(() => 1), lSkill: f(() => -2 * rng.float()), lOld: f(() => -3), lRef: f(() => -3) };
}

async function update(web: WebGpuBackend, u: number): Promise<void> {
  const batch = batchOf(u);
  await web.lossBackward(batch, inputsOf(batch.targets.filter((t) => t >= 0).length, 100 + u), hyper);
  await web.optimizerStep(adam);
}

describe('device loss during an update', () => {
  it('is reported with the completed step count, and a resume from the checkpoint reproduces the run', async () => {
    const params = initParameters(config, 5);

    const reference = await createNodeRuntime();
    const steady = new WebGpuBackend(reference, config, params);
    for (let u = 0; u < 3; u++) await update(steady, u);
    const want = await steady.readParameters();

    const doomed = await createNodeRuntime();
    const web = new WebGpuBackend(doomed, config, params);
    await update(web, 0);
    await update(web, 1);
    const checkpoint = { params: await web.readParameters(), ...(await web.readOptimizerState()) };
    const batch = batchOf(2);
    const pending = web.lossBackward(batch, inputsOf(batch.targets.filter((t) => t >= 0).length, 102), hyper);
    doomed.device.destroy();
    const err = await pending.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(GpuBackendLostError);
    const lost = err as GpuBackendLostError;
    expect(lost.completedSteps).toBe(2);
    expect(lost.operation).toBe('lossBackward');
    expect(lost.message).toMatch(/resume from the last checkpoint \(step <= 2\)/);
    await expect(web.optimizerStep(adam)).rejects.toBeInstanceOf(GpuBackendLostError);

    const resumed = new WebGpuBackend(reference, config, checkpoint.params);
    await resumed.writeOptimizerState(checkpoint);
    await update(resumed, 2);
    expect(resumed.completedSteps).toBe(3);
    expect(Buffer.from((await resumed.readParameters()).buffer).equals(Buffer.from(want.buffer))).toBe(true);
    steady.dispose();
    resumed.dispose();
    reference.dispose();
  });
});
