// The WebGPU backend against the CPU backend on the micro preset's shape (small vocabulary and context so
// that software WebGPU stays fast): scoring (the target's log-prob and whole rows), one loss-backward
// (per-token numbers and the gradient), three whole training steps, exact distillation, float32 overflows
// of the loss, the decoder, the read budget of decoding, and buffer hygiene. What every backend must refuse and keep is in ../conformance.test.ts.
// Tolerances (float32 GPU sums against the CPU's float64 sums, written per check):
// - log-probs and per-token numbers: 2e-5 + 1e-4 |cpu|;
// - gradient: 1e-5 + 2e-3 |cpu| (sums over every scored token and vocabulary entry);
// - parameters after 3 AdamW steps at lr 1e-3: 2e-5 absolute. An AdamW step moves a parameter by about
//   lr * m / sqrt(v), so a relative gradient difference e moves it by ~lr * e per step.
import { beforeAll, describe, expect, it } from 'vitest';
import { Rng } from '../../common/rng.ts';
import { presetConfig } from '../../model/config.ts';
import { defaultTokenizer } from '../../text/tokenizer.ts';
import { initParameters } from '../../model/init.ts';
import { NonFiniteError, maskWords, type LossHyper, type OptimizerHyper } from '../backend.ts';
import { makeBatch, randomLossInputs, randomTeacherRows } from '../batch_testing.ts';
import { CpuBackend } from '../cpu/cpu_backend.ts';
import { chunkFloats, splitBatch } from './batch.ts';
import { worstError } from './gpu_testing.ts';
import type { GpuRuntime } from './runtime.ts';
import { testRuntime } from './test_device.ts';
import type { MatmulVariant } from './matmul.ts';
import { preferredMatmul, WebGpuBackend } from './webgpu_backend.ts';

// The micro preset with the playground tokenizer's vocabulary.
const config = presetConfig('micro', defaultTokenizer().vocabSize);
const V = config.vocabSize;
const words = maskWords(V);
const hyper: LossHyper = { lambda: 0.5, beta: 5, clip: 0.2, klCoef: 0.1, gate: true };
const adam: OptimizerHyper = { lr: 1e-3, beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0.1, gradClip: 1 };

describe('WebGpuBackend against CpuBackend', () => {
  let gpu: GpuRuntime;
  beforeAll(async () => {
    gpu = await testRuntime();
  });

  it('scores like the CPU with the current and the reference parameters', async () => {
    const params = initParameters(config, 1);
    const cpu = new CpuBackend(config, params);
    const web = new WebGpuBackend(gpu, config, params);
    try {
      const batch = makeBatch(config, 2);
      expect(worstError(await web.score(batch), await cpu.score(batch), 2e-5, 1e-4)).toBeLessThanOrEqual(1);
      const other = initParameters(config, 9);
      await cpu.writeParameters(other);
      await web.writeParameters(other);
      expect(worstError(await web.score(batch), await cpu.score(batch), 2e-5, 1e-4)).toBeLessThanOrEqual(1);
      expect(
        worstError(await web.score(batch, 'reference'), await cpu.score(batch, 'reference'), 2e-5, 1e-4),
      ).toBeLessThanOrEqual(1);
      await web.setReferenceFromCurrent();
      expect(Array.from(await web.readParameters('reference'))).toEqual(Array.from(other));
    } finally {
      web.dispose();
    }
  });

  it.each(['vec4', 'naive', 'tiled'] as MatmulVariant[])(
    'gives the CPU loss, per-token numbers and gradient, then equal parameters after 3 training steps (matmul %s)',
    async (matmul) => {
      const params = initParameters(config, 3);
      const cpu = new CpuBackend(config, params);
      const web = new WebGpuBackend(gpu, config, params, { matmul });
      try {
        for (let step = 0; step < 3; step++) {
          const batch = makeBatch(config, 10 + step);
          const inputs = randomLossInputs(await cpu.score(batch), 20 + step);
          const want = await cpu.lossBackward(batch, inputs, hyper);
          const got = await web.lossBackward(batch, inputs, hyper);
          for (const key of ['lStudent', 'delta', 'gate', 'coef', 'coefGrpo', 'coefOpd', 'coefKl'] as const) {
            expect(worstError(got[key], want[key], 2e-5, 1e-4), `${key} step ${step}`).toBeLessThanOrEqual(1);
          }
          for (const key of ['L_GRPO', 'L_OPD', 'KL', 'total'] as const) {
            expect(worstError([got[key]], [want[key]], 2e-5, 1e-4), `${key} step ${step}`).toBeLessThanOrEqual(1);
          }
          if (step === 0)
            expect(
              worstError(await web.readGradients(), await cpu.readGradients(), 1e-5, 2e-3),
              'gradient',
            ).toBeLessThanOrEqual(1);
          const a = await cpu.optimizerStep(adam);
          const b = await web.optimizerStep(adam);
          expect(b.step).toBe(a.step);
          expect(worstError([b.gradNorm], [a.gradNorm], 0, 1e-3)).toBeLessThanOrEqual(1);
        }
        const moved = await cpu.readParameters();
        expect(worstError(moved, params, 1e-4, 0)).toBeGreaterThan(1); // the steps did move the weights
        expect(worstError(await web.readParameters(), moved, 2e-5, 0)).toBeLessThanOrEqual(1);
        const cs = await cpu.readOptimizerState();
        const ws = await web.readOptimizerState();
        expect(ws.step).toBe(3);
        expect(worstError(ws.m, cs.m, 1e-7, 2e-3)).toBeLessThanOrEqual(1);
        expect(Array.from(await web.readGradients()).every((x) => x === 0)).toBe(true);
      } finally {
        web.dispose();
      }
    },
  );

  it.each([0, 0.3])(
    'gives the CPU rows, divergences, loss and gradient under exact distillation (alpha %d), whole and in chunks',
    async (jsdAlpha) => {
      const params = initParameters(config, 21);
      const cpu = new CpuBackend(config, params);
      const web = new WebGpuBackend(gpu, config, params);
      const chunked = new WebGpuBackend(gpu, config, params, { activationBudget: chunkFloats(config, 1, 19) });
      try {
        const batch = makeBatch(config, 22);
        const rows = await web.scoreRows(batch);
        expect(worstError(rows, await cpu.scoreRows(batch), 2e-5, 1e-4), 'scoreRows').toBeLessThanOrEqual(1);
        expect(Array.from(await chunked.scoreRows(batch))).toEqual(Array.from(rows));
        const teacher = randomTeacherRows(batch, V, 23);
        const base = randomLossInputs(await cpu.score(batch), 24);
        const inputs = { ...base, teacher, distilWeight: Float32Array.from(base.mask, (_, k) => 0.5 + (k % 3) / 2) };
        const distilHyper: LossHyper = { ...hyper, distil: { jsdAlpha } };
        const want = await cpu.lossBackward(batch, inputs, distilHyper);
        const got = await web.lossBackward(batch, inputs, distilHyper);
        for (const key of [
          'lStudent',
          'delta',
          'gate',
          'coef',
          'coefGrpo',
          'coefOpd',
          'coefKl',
          'divergence',
        ] as const) {
          expect(worstError(got[key], want[key], 2e-5, 1e-4), key).toBeLessThanOrEqual(1);
        }
        for (const key of ['L_GRPO', 'L_OPD', 'KL', 'total'] as const) {
          expect(worstError([got[key]], [want[key]], 2e-5, 1e-4), key).toBeLessThanOrEqual(1);
        }
        expect(got.divergence.some((d, k) => inputs.opdMask[k] === 0 && d !== 0)).toBe(false);
        expect(got.L_OPD).toBeGreaterThan(0.1);
        const gradient = await web.readGradients();
        expect(worstError(gradient, await cpu.readGradients(), 1e-5, 2e-3), 'gradient').toBeLessThanOrEqual(1);
        // The distillation's part of the gradient is there: the paper's term gives another one.
        await web.zeroGradients();
        await web.lossBackward(batch, inputs, hyper);
        expect(worstError(await web.readGradients(), gradient, 1e-4, 1e-2)).toBeGreaterThan(1);
        const split = await chunked.lossBackward(batch, inputs, distilHyper);
        expect(Array.from(split.divergence)).toEqual(Array.from(got.divergence));
        expect(split.total).toBe(got.total);
        expect(worstError(await chunked.readGradients(), gradient, 1e-6, 1e-4), 'chunked gradient').toBeLessThanOrEqual(
          1,
        );
      } finally {
        web.dispose();
        chunked.dispose();
      }
    },
  );

  it('refuses a divergence term that overflows float32 (distil weight 1e38) before touching the gradient, and goes on', async () => {
    const web = new WebGpuBackend(gpu, config, initParameters(config, 25));
    try {
      const batch = makeBatch(config, 26);
      const good = {
        ...randomLossInputs(await web.score(batch), 27),
        teacher: await web.scoreRows(batch, 'reference'),
      };
      const distilHyper: LossHyper = { ...hyper, distil: { jsdAlpha: 0 } };
      await web.lossBackward(batch, good, distilHyper);
      const before = await web.readGradients();
      const k = good.opdMask.indexOf(1);
      const bad = {
        ...good,
        teacher: good.teacher.map((x, i) => (x > -1e29 && Math.floor(i / V) === k ? -1e3 : x)),
        distilWeight: good.mask.map((_, j) => (j === k ? 1e38 : 1)),
      };
      await expect(web.lossBackward(batch, bad, distilHyper)).rejects.toThrow(/^non-finite L_OPD \(value Infinity\)/);
      expect(Array.from(await web.readGradients())).toEqual(Array.from(before));
      await expect(web.lossBackward(batch, good, distilHyper)).resolves.toBeDefined();
    } finally {
      web.dispose();
    }
  });

  it('runs a batch over the activation budget in chunks of sequences with the same numbers', async () => {
    const params = initParameters(config, 15);
    const whole = new WebGpuBackend(gpu, config, params);
    const chunked = new WebGpuBackend(gpu, config, params, { activationBudget: chunkFloats(config, 1, 19) });
    try {
      const batch = makeBatch(config, 16);
      expect(splitBatch(batch, config, chunkFloats(config, 1, 19)).length).toBe(3);
      const scores = await whole.score(batch);
      expect(Array.from(await chunked.score(batch))).toEqual(Array.from(scores));
      const inputs = randomLossInputs(scores, 17);
      const a = await whole.lossBackward(batch, inputs, hyper);
      const b = await chunked.lossBackward(batch, inputs, hyper);
      expect(Array.from(b.coef)).toEqual(Array.from(a.coef));
      expect(b.total).toBe(a.total);
      // Weight gradients sum the chunks separately: the same up to float32 reassociation.
      expect(worstError(await chunked.readGradients(), await whole.readGradients(), 1e-6, 1e-4)).toBeLessThanOrEqual(1);
    } finally {
      whole.dispose();
      chunked.dispose();
    }
  });

  it('refuses a loss term that overflows float32 (exp(200) in KL) before touching the gradient, and goes on', async () => {
    const params = initParameters(config, 4);
    const web = new WebGpuBackend(gpu, config, params);
    try {
      const batch = makeBatch(config, 5);
      const good = randomLossInputs(await web.score(batch), 6);
      await web.lossBackward(batch, good, hyper);
      const before = await web.readGradients();
      const bad = { ...good, lRef: good.lRef.map((x, k) => (k === 2 ? 200 : x)) };
      await expect(web.lossBackward(batch, bad, hyper)).rejects.toThrow(NonFiniteError);
      expect(Array.from(await web.readGradients())).toEqual(Array.from(before));
      await expect(web.lossBackward(batch, good, hyper)).resolves.toBeDefined();
    } finally {
      web.dispose();
    }
  });

  it('decodes like the CPU decoder: same tokens and log-probs, ragged feeds, streams in lockstep', async () => {
    const params = initParameters(config, 7);
    const cpu = new CpuBackend(config, params).openDecoder(3);
    // A small attention budget makes the first feed run as several batches.
    const web = new WebGpuBackend(gpu, config, params, { decodeAttentionBudget: 2 * config.nHead * 9 * 9 });
    const dec = web.openDecoder(3);
    try {
      const rng = new Rng(8);
      const prompts = [5, 1, 9].map((n) => Int32Array.from({ length: n }, () => rng.int(V)));
      for (let s = 0; s < 3; s++) {
        await cpu.feed(s, prompts[s]);
        await dec.feed(s, prompts[s]);
      }
      for (let step = 0; step < 6; step++) {
        const streams = step % 2 === 0 ? Int32Array.of(0, 1, 2) : Int32Array.of(2, 0);
        const masks = new Uint32Array(streams.length * words);
        for (let i = 0; i < masks.length; i++) masks[i] = rng.nextU32();
        const uniforms = Float32Array.from(streams, () => rng.float());
        const temperature = step === 3 ? 0 : 1;
        const want = await cpu.sample(streams, masks, temperature, uniforms);
        const got = await dec.sample(streams, masks, temperature, uniforms);
        expect(Array.from(got.tokens), `step ${step}`).toEqual(Array.from(want.tokens));
        expect(worstError(got.logprobs, want.logprobs, 2e-5, 1e-4)).toBeLessThanOrEqual(1);
        if (step === 2) {
          const obs = Int32Array.from({ length: 4 }, () => rng.int(V));
          await cpu.feed(1, obs);
          await dec.feed(1, obs);
        }
      }
      for (let s = 0; s < 3; s++) expect(dec.length(s)).toBe(cpu.length(s));
      expect(() => web.openDecoder(1 << 20)).toThrow(/use at most \d+ streams/);
    } finally {
      dec.dispose();
      web.dispose();
    }
  });

  it('reads back 8 bytes per stream per decoding position, never a row of logits, and uploads one small packed write', async () => {
    const web = new WebGpuBackend(gpu, config, initParameters(config, 11));
    const streams = 8;
    const dec = web.openDecoder(streams);
    try {
      const rng = new Rng(12);
      for (let s = 0; s < streams; s++) await dec.feed(s, Int32Array.of(rng.int(V), rng.int(V)));
      const positions = 5;
      // The first sample also runs the queued prompts; count the steps after it.
      await dec.sample(
        Int32Array.from({ length: streams }, (_, i) => i),
        new Uint32Array(streams * words).fill(0xffffffff),
        1,
        new Float32Array(streams).fill(0.5),
      );
      const before = web.bytesRead;
      const writtenBefore = web.bytesWritten;
      for (let p = 0; p < positions; p++) {
        const ids = Int32Array.from({ length: streams }, (_, i) => i);
        await dec.sample(
          ids,
          new Uint32Array(streams * words).fill(0xffffffff),
          1,
          Float32Array.from(ids, () => rng.float()),
        );
      }
      const perPosition = (web.bytesRead - before) / positions;
      // Budget: a token (i32) and a log-prob (f32) per stream; one logit row would already be 4 V bytes.
      expect(perPosition).toBeLessThanOrEqual(8 * streams);
      // Up: one packed write of the masks, draws and row indices, 256-byte aligned parts (a few KB).
      const upPerPosition = (web.bytesWritten - writtenBefore) / positions;
      expect(upPerPosition).toBeGreaterThan(0);
      expect(upPerPosition).toBeLessThanOrEqual(8 * 256 + streams * words * 4);
    } finally {
      dec.dispose();
      web.dispose();
    }
  });

  it('picks the vec4 matmul on software adapters and the tiled one on hardware', () => {
    const report = {
      environment: 'node' as const,
      vendor: 'google',
      architecture: 'swiftshader',
      device: '',
      description: 'SwiftShader driver',
      isFallback: true,
    };
    expect(preferredMatmul(report)).toBe('vec4');
    expect(
      preferredMatmul({
        ...report,
        vendor: 'nvidia',
        architecture: 'hopper',
        description: 'NVIDIA H200',
        isFallback: false,
      }),
    ).toBe('tiled');
    expect(
      preferredMatmul({
        ...report,
        vendor: 'mesa',
        architecture: '',
        description: 'llvmpipe (LLVM 15.0.6, 256 bits)',
        isFallback: false,
      }),
    ).toBe('vec4');
  });

  it('keeps the number of live GPU buffers constant across updates', async () => {
    const web = new WebGpuBackend(gpu, config, initParameters(config, 13));
    try {
      const counts: number[] = [];
      for (let u = 0; u < 4; u++) {
        const batch = makeBatch(config, 30 + u);
        const inputs = randomLossInputs(await web.score(batch), 40 + u);
        await web.lossBackward(batch, inputs, hyper);
        await web.optimizerStep(adam);
        counts.push(gpu.stats().live);
      }
      expect(counts.slice(1)).toEqual([counts[1], counts[1], counts[1]]);
    } finally {
      web.dispose();
    }
  });
});
