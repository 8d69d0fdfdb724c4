// The runtime's counters (gpu_counters.ts) and what they hold the backend to: per call of an update, one
// queue submit, one host-to-GPU write and at most one readback, a batch over the activation budget too. A
// decoding step reads back only the sampled tokens and their log-probs; loss-backward keeps its terms on
// the GPU until its one readback; the optimizer step clips on the device and reads back its 16-byte state.
import { beforeAll, describe, expect, it } from 'vitest';
import { Rng } from '../../common/rng.ts';
import { presetConfig } from '../../model/config.ts';
import { initParameters } from '../../model/init.ts';
import { defaultTokenizer } from '../../text/tokenizer.ts';
import { maskWords, type LossHyper, type OptimizerHyper } from '../backend.ts';
import { makeBatch, randomLossInputs, randomTeacherRows } from '../batch_testing.ts';
import { NORM_STATE_FLOATS } from './adamw.ts';
import { chunkFloats, splitBatch } from './batch.ts';
import { zeroCounters } from './gpu_counters.ts';
import { copyRows, fill } from './rows.ts';
import type { GpuRuntime } from './runtime.ts';
import { TOKEN_OUT_FLOATS } from './seed_loss.ts';
import { testRuntime } from './test_device.ts';
import { WebGpuBackend } from './webgpu_backend.ts';

const config = presetConfig('micro', defaultTokenizer().vocabSize);
const hyper: LossHyper = { lambda: 0.5, beta: 5, clip: 0.2, klCoef: 0.1, gate: true };
const adam: OptimizerHyper = { lr: 1e-3, beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0.1, gradClip: 1 };

describe('GPU counters', () => {
  let gpu: GpuRuntime;
  beforeAll(async () => {
    gpu = await testRuntime();
  });

  it('count a stage: dispatches, passes (a copy ends one), one submit, one write, one readback, bytes; nothing when off', async () => {
    const a = gpu.buffer(64 * 4);
    const b = gpu.buffer(64 * 4);
    try {
      const counters = gpu.startCounting();
      const stage = gpu.stage('counted');
      fill(stage, a, 64, 1);
      fill(stage, b, 64, 2);
      stage.copy(a, b, 16 * 4);
      copyRows(stage, a, b, stage.upload(Uint32Array.of(0, 1)), 1, 16);
      const reads = [stage.read(a, 64 * 4), stage.read(b, 8 * 4)];
      await stage.submit();
      await Promise.all(reads);
      gpu.stopCounting();
      expect(counters).toMatchObject({
        dispatches: 3,
        passes: 2,
        submits: 1,
        writes: 1,
        readbacks: 1,
        bytesRead: 72 * 4,
      });
      expect(counters.bytesWritten).toBeGreaterThanOrEqual(8);
      expect(counters.mapWaitMs).toBeGreaterThanOrEqual(0);
      const snapshot = { ...counters };
      const off = gpu.stage('not counted');
      fill(off, a, 64, 3);
      const read = off.read(a, 4);
      await off.submit();
      await read;
      await gpu.finish();
      expect(counters).toEqual(snapshot);
      expect(gpu.counters).toBeNull();
      const fresh = gpu.startCounting();
      await gpu.finish();
      gpu.stopCounting();
      expect({ ...fresh, finishWaitMs: 0 }).toEqual(zeroCounters());
    } finally {
      gpu.stopCounting();
      gpu.release(a, b);
    }
  });

  it('uploads a copy taken when asked, sent with the uniforms; a written binding refuses an upload', async () => {
    const src = gpu.upload(Float32Array.of(10, 11, 12, 13));
    const out = gpu.buffer(16);
    try {
      const stage = gpu.stage('upload');
      const pairs = Uint32Array.of(3, 0);
      copyRows(stage, out, src, stage.upload(pairs), 1, 1);
      pairs[0] = 1;
      expect(stage.uploadedBytes).toBe(256);
      expect(() => fill(stage, stage.upload(new Float32Array(4)), 4, 0)).toThrow(/an upload is read-only/);
      const read = stage.read(out, 4);
      await stage.submit();
      expect(new Float32Array(await read)[0]).toBe(13);
    } finally {
      gpu.release(src, out);
    }
  });

  it('hold each backend call of an update to one submit and one write, and read back only what the host decides on', async () => {
    const web = new WebGpuBackend(gpu, config, initParameters(config, 5));
    const streams = 4;
    const dec = web.openDecoder(streams);
    const counted = async (call: () => Promise<unknown>) => {
      const counters = gpu.startCounting();
      try {
        await call();
      } finally {
        gpu.stopCounting();
      }
      return counters;
    };
    try {
      const rng = new Rng(6);
      const ids = Int32Array.from({ length: streams }, (_, i) => i);
      const allowAll = new Uint32Array(streams * maskWords(config.vocabSize)).fill(0xffffffff);
      for (let s = 0; s < streams; s++)
        await dec.feed(s, Int32Array.of(rng.int(config.vocabSize), rng.int(config.vocabSize)));
      const first = await counted(() => dec.sample(ids, allowAll, 1, new Float32Array(streams).fill(0.5)));
      expect(first).toMatchObject({ submits: 1, writes: 1, readbacks: 1, bytesRead: 8 * streams });
      const step = await counted(() => dec.sample(ids, allowAll, 1, new Float32Array(streams).fill(0.25)));
      expect(step).toMatchObject({ submits: 1, writes: 1, readbacks: 1, bytesRead: 8 * streams });
      // The head (row gather, matmul, sampler), then the sampled tokens' forward: the embedding, 9
      // dispatches per layer (the residuals are added by the projections' matmuls), the final LayerNorm
      // and the move of each stream's row to its slot.
      expect(step.dispatches).toBe(3 + 1 + 9 * config.nLayer + 2);

      const batch = makeBatch(config, 7);
      let R = 0;
      const score = await counted(async () => (R = (await web.score(batch)).length));
      expect(score).toMatchObject({ submits: 1, writes: 1, readbacks: 1, bytesRead: 4 * R });
      const inputs = randomLossInputs(await web.score(batch), 8);
      const loss = await counted(() => web.lossBackward(batch, inputs, hyper));
      expect(loss).toMatchObject({ submits: 1, writes: 1, readbacks: 1, bytesRead: 4 * (R * TOKEN_OUT_FLOATS + 1) });
      // Exact distillation sends the teacher's rows with the stage's one write and reads back no more.
      const distil = await counted(() =>
        web.lossBackward(
          batch,
          { ...inputs, teacher: randomTeacherRows(batch, config.vocabSize, 9) },
          { ...hyper, distil: { jsdAlpha: 0 } },
        ),
      );
      expect(distil).toMatchObject({
        submits: 1,
        writes: 1,
        readbacks: 1,
        bytesRead: 4 * (R * TOKEN_OUT_FLOATS + 1),
        dispatches: loss.dispatches + 2,
      });
      expect(distil.bytesWritten).toBeGreaterThanOrEqual(loss.bytesWritten + 4 * R * config.vocabSize);
      const rows = await counted(() => web.scoreRows(batch));
      expect(rows).toMatchObject({ submits: 1, writes: 1, readbacks: 1, bytesRead: 4 * R * config.vocabSize });
      const step6 = await counted(() => web.optimizerStep(adam));
      expect(step6).toMatchObject({ submits: 1, writes: 1, readbacks: 1, bytesRead: 4 * NORM_STATE_FLOATS });
    } finally {
      dec.dispose();
      web.dispose();
    }
  });

  it('keep a batch over the activation budget to one submit and one readback, its chunks run one after the other', async () => {
    const budget = chunkFloats(config, 1, 19);
    const web = new WebGpuBackend(gpu, config, initParameters(config, 9), { activationBudget: budget });
    try {
      const batch = makeBatch(config, 16);
      expect(splitBatch(batch, config, budget).length).toBe(3);
      const counters = gpu.startCounting();
      const scores = await web.score(batch);
      await web.lossBackward(batch, randomLossInputs(scores, 17), hyper);
      gpu.stopCounting();
      expect(counters).toMatchObject({ submits: 2, writes: 2, readbacks: 2 });
    } finally {
      gpu.stopCounting();
      web.dispose();
    }
  });
});
