// Device loss in the middle of an update: the backend reports it (GpuBackendLostError, with the number of
// optimizer steps that completed), and a new backend resumed from the checkpoint of that step reproduces,
// bit for bit, the weights of a run that was never interrupted.
import { describe, expect, it } from 'vitest';
import { validateConfig } from '../../model/config.ts';
import { initParameters } from '../../model/init.ts';
import type { LossHyper, OptimizerHyper } from '../backend.ts';
import { makeBatch, randomLossInputs } from '../batch_testing.ts';
import { createNodeRuntime } from './node_gpu.ts';
import { GpuBackendLostError, WebGpuBackend } from './webgpu_backend.ts';

const config = validateConfig({
  vocabSize: 40,
  contextLength: 24,
  dModel: 16,
  nLayer: 2,
  nHead: 2,
  dMlp: 64,
  lnEps: 1e-5,
});
const hyper: LossHyper = { lambda: 0.5, beta: 5, clip: 0.2, klCoef: 0.1, gate: true };
const adam: OptimizerHyper = { lr: 1e-2, beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0.1, gradClip: 1 };

async function update(web: WebGpuBackend, u: number): Promise<void> {
  const batch = makeBatch(config, u, 2, 12);
  await web.lossBackward(batch, randomLossInputs(await web.score(batch), 100 + u), hyper);
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
    const batch = makeBatch(config, 2, 2, 12);
    const pending = web.lossBackward(batch, randomLossInputs(await web.score(batch), 102), hyper);
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
