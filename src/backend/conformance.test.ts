// The Backend contract (backend.ts, contract.ts) run against both backends: the same cases, and the same
// words for every refusal, on the CPU reference and on WebGPU (Node's Dawn); the decoder's are in
// decoder_conformance.test.ts. Numbers are compared between the backends in webgpu/webgpu_backend.test.ts;
// here each backend answers for itself.
import { beforeAll, describe, expect, it } from 'vitest';
import { initParameters } from '../model/init.ts';
import { parameterLayout } from '../model/layout.ts';
import { NonFiniteError, type LossHyper, type OptimizerHyper, type TokenBatch } from './backend.ts';
import { makeBatch, randomLossInputs, randomTeacherRows, scoredCount } from './batch_testing.ts';
import { backendsUnderTest, config, V, withBackend, words } from './conformance_testing.ts';
import { describeScored, isAllowed, MASKED_LOG_PROB } from './contract.ts';
import { distilDivergence } from './cpu/distil.ts';
import type { GpuRuntime } from './webgpu/runtime.ts';
import { testRuntime } from './webgpu/test_device.ts';

const n = parameterLayout(config).totalFloats;
const hyper: LossHyper = { lambda: 0.5, beta: 5, clip: 0.2, klCoef: 0.1, gate: true };
const distilHyper: LossHyper = { ...hyper, distil: { jsdAlpha: 0.3 } };
const adam: OptimizerHyper = { lr: 1e-2, beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0.1, gradClip: 1 };

let gpu: GpuRuntime;
beforeAll(async () => {
  gpu = await testRuntime();
});

function bytes(a: Float32Array): Buffer {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength);
}

const BAD_BATCHES: [string, (b: TokenBatch) => TokenBatch, RegExp][] = [
  ['a negative shape', (b) => ({ ...b, nSeq: -1 }), /^batch: bad shape -1 x 19$/],
  [
    'sequences over the context',
    (b) => ({
      ...b,
      seqLen: 33,
      tokens: new Int32Array(4 * 33),
      targets: new Int32Array(4 * 33).fill(-1),
      masks: new Uint32Array(0),
    }),
    /^batch: sequences of 33 tokens exceed the context length 32$/,
  ],
  [
    'tokens of the wrong length',
    (b) => ({ ...b, tokens: b.tokens.subarray(1) }),
    /^batch: tokens \(75\) and targets \(76\) must hold nSeq \* seqLen = 76$/,
  ],
  [
    'masks of the wrong length',
    (b) => ({ ...b, masks: b.masks.subarray(1) }),
    /^batch: masks hold \d+ words, expected \d+ scored x 2$/,
  ],
  [
    'a token outside the vocabulary',
    (b) => ({ ...b, tokens: b.tokens.map((t, i) => (i === 5 ? V : t)) }),
    /^batch: token 40 at sequence 0, position 5 is outside \[0, 40\)$/,
  ],
  [
    'a target outside the vocabulary',
    (b) => ({ ...b, targets: b.targets.map((t, i) => (i === 6 ? V : t)) }),
    /^batch: target 40 at sequence 0, position 6 is outside \[0, 40\)$/,
  ],
  [
    'a target its mask disallows',
    (b) => ({ ...b, masks: new Uint32Array(b.masks.length) }),
    /^batch: target \d+ at sequence 0, position 6 is not allowed by its mask$/,
  ],
];

describe.each(backendsUnderTest(() => gpu))('the $kind backend keeps the Backend contract', ({ kind, open }) => {
  it('is the kind it says', async () => {
    await withBackend(open, 1, async (b) => expect(b.kind).toBe(kind));
  });

  it.each(BAD_BATCHES)(
    'refuses a batch with %s, in score and lossBackward, leaving the gradient alone',
    async (_, spoil, message) => {
      await withBackend(open, 2, async (b) => {
        const batch = makeBatch(config, 3);
        // The batch's first scored position is position 6 of sequence 0 (what the messages above name).
        expect(describeScored(batch, 0)).toBe('scored token 0: sequence 0, position 6 of 19');
        const inputs = randomLossInputs(await b.score(batch), 4);
        await b.lossBackward(batch, inputs, hyper);
        const before = await b.readGradients();
        const bad = spoil(batch);
        await expect(b.score(bad)).rejects.toThrow(message);
        await expect(b.lossBackward(bad, inputs, hyper)).rejects.toThrow(message);
        expect(bytes(await b.readGradients()).equals(bytes(before))).toBe(true);
      });
    },
  );

  it('refuses bad parameters and optimizer state, keeping the weights and the step', async () => {
    await withBackend(open, 5, async (b) => {
      const before = await b.readParameters();
      await expect(b.writeParameters(before.map((x, i) => (i === 3 ? NaN : x)))).rejects.toThrow(
        /^parameters\[3\] = NaN is not finite$/,
      );
      await expect(b.writeParameters(before.subarray(1))).rejects.toThrow(
        `parameters hold ${n - 1} floats, the model needs ${n}`,
      );
      await expect(b.writeParameters(Array.from(before) as unknown as Float32Array)).rejects.toThrow(
        /^parameters must be a Float32Array$/,
      );
      const zeros = new Float32Array(n);
      const negative = zeros.map((_, i) => (i === 7 ? -1 : 0));
      await expect(b.writeOptimizerState({ m: zeros, v: negative, step: 1 })).rejects.toThrow(
        /^optimizer v\[7\] = -1 is negative$/,
      );
      await expect(b.writeOptimizerState({ m: zeros, v: zeros, step: 1.5 })).rejects.toThrow(
        /^optimizer step must be an integer >= 0, got 1.5$/,
      );
      await expect(b.writeOptimizerState({ m: zeros.subarray(2), v: zeros, step: 1 })).rejects.toThrow(
        /^optimizer m hold/,
      );
      for (const [key, value, message] of [
        ['lr', NaN, /^optimizer: lr must be a finite number, got NaN$/],
        ['eps', 0, /^optimizer: lr and weightDecay must be >= 0, eps > 0$/],
        ['beta2', 1, /^optimizer: beta1 and beta2 must be in \[0, 1\)$/],
      ] as const) {
        await expect(b.optimizerStep({ ...adam, [key]: value })).rejects.toThrow(message);
      }
      expect(bytes(await b.readParameters()).equals(bytes(before))).toBe(true);
      expect((await b.readOptimizerState()).step).toBe(0);
    });
  });

  it('keeps what it is given: parameters, the reference, the optimizer state', async () => {
    await withBackend(open, 6, async (b) => {
      const params = initParameters(config, 7);
      await b.writeParameters(params);
      expect(bytes(await b.readParameters()).equals(bytes(params))).toBe(true);
      expect(bytes(await b.readParameters('reference')).equals(bytes(params))).toBe(false);
      await b.setReferenceFromCurrent();
      expect(bytes(await b.readParameters('reference')).equals(bytes(params))).toBe(true);
      const m = params.map((x) => x / 2);
      const v = params.map((x) => x * x);
      await b.writeOptimizerState({ m, v, step: 4 });
      const state = await b.readOptimizerState();
      expect([bytes(state.m).equals(bytes(m)), bytes(state.v).equals(bytes(v)), state.step]).toEqual([true, true, 4]);
    });
  });

  it('scores l_student as lossBackward sees it, accumulates gradients until the step, and zeroes them', async () => {
    await withBackend(open, 8, async (b) => {
      const batch = makeBatch(config, 9);
      const scored = await b.score(batch);
      expect(scored.length).toBe(scoredCount(batch));
      const inputs = randomLossInputs(scored, 10);
      const out = await b.lossBackward(batch, inputs, hyper);
      expect(bytes(out.lStudent).equals(bytes(scored))).toBe(true);
      for (const key of ['delta', 'gate', 'coef', 'coefGrpo', 'coefOpd', 'coefKl'] as const)
        expect(out[key].length).toBe(scored.length);
      expect(out.total).toBeCloseTo(out.L_GRPO + hyper.lambda * out.L_OPD + hyper.klCoef * out.KL, 6);
      await expect(b.lossBackward(batch, { ...inputs, lRef: inputs.lRef.subarray(1) }, hyper)).rejects.toThrow(
        `loss input lRef has ${scored.length - 1} tokens, l_student has ${scored.length}`,
      );
      const once = await b.readGradients();
      expect(once.some((x) => x !== 0)).toBe(true);
      await b.lossBackward(batch, inputs, hyper);
      const twice = await b.readGradients();
      expect(twice.every((x, i) => x === 2 * once[i])).toBe(true);
      await b.zeroGradients();
      expect((await b.readGradients()).every((x) => x === 0)).toBe(true);
      await b.lossBackward(batch, inputs, hyper);
      const stats = await b.optimizerStep(adam);
      expect(stats.step).toBe(1);
      expect(stats.gradNorm).toBeGreaterThan(0);
      expect((await b.readGradients()).every((x) => x === 0)).toBe(true);
      expect((await b.readOptimizerState()).step).toBe(1);
    });
  });

  it('scores whole rows: the masked log-softmax of each scored position, its target entry the score', async () => {
    await withBackend(open, 30, async (b) => {
      const batch = makeBatch(config, 31);
      const scored = await b.score(batch);
      const rows = await b.scoreRows(batch);
      expect(rows.length).toBe(scored.length * V);
      let k = 0;
      for (const target of batch.targets) {
        if (target < 0) continue;
        expect(rows[k * V + target]).toBe(scored[k]);
        let mass = 0;
        for (let v = 0; v < V; v++) {
          if (isAllowed(batch.masks, k, words, v)) mass += Math.exp(rows[k * V + v]);
          else expect(rows[k * V + v]).toBe(Math.fround(MASKED_LOG_PROB));
        }
        expect(mass).toBeCloseTo(1, 5);
        k++;
      }
      const empty: TokenBatch = {
        nSeq: 1,
        seqLen: 2,
        tokens: new Int32Array(2),
        targets: Int32Array.of(-1, -1),
        masks: new Uint32Array(0),
      };
      expect((await b.scoreRows(empty)).length).toBe(0);
    });
  });

  it("trains under exact distillation: each OPD token's divergence, L_OPD their weighted mean, no OPD coefficient", async () => {
    await withBackend(open, 32, async (b) => {
      const batch = makeBatch(config, 33);
      const student = await b.scoreRows(batch);
      const base = randomLossInputs(await b.score(batch), 34);
      const inputs = {
        ...base,
        teacher: randomTeacherRows(batch, V, 35),
        distilWeight: Float32Array.from(base.mask, (_, k) => 1 + (k % 2)),
      };
      const out = await b.lossBackward(batch, inputs, distilHyper);
      const divergence = new Float32Array(out.lStudent.length);
      distilDivergence(divergence, student, inputs.teacher, batch.masks, divergence.length, V, 0.3);
      let sum = 0;
      let count = 0;
      for (let k = 0; k < divergence.length; k++) {
        expect(out.divergence[k]).toBeCloseTo(inputs.opdMask[k] ? divergence[k] : 0, 5);
        if (inputs.opdMask[k]) {
          sum += inputs.distilWeight[k] * divergence[k];
          count++;
        }
      }
      expect(out.L_OPD).toBeCloseTo(sum / count, 5);
      expect(out.L_OPD).toBeGreaterThan(0.1);
      expect(out.total).toBeCloseTo(out.L_GRPO + hyper.lambda * out.L_OPD + hyper.klCoef * out.KL, 6);
      expect(out.coefOpd.every((c) => c === 0)).toBe(true);
      expect((await b.readGradients()).some((x) => x !== 0)).toBe(true);
    });
  });

  it('refuses exact distillation without teacher rows, with rows of the wrong size or a bad alpha, leaving the gradient alone', async () => {
    await withBackend(open, 36, async (b) => {
      const batch = makeBatch(config, 37);
      const inputs = randomLossInputs(await b.score(batch), 38);
      const nScored = inputs.mask.length;
      await expect(b.lossBackward(batch, inputs, distilHyper)).rejects.toThrow(
        /^loss: exact distillation needs the teacher's log-probs \(inputs.teacher\)$/,
      );
      await expect(b.lossBackward(batch, { ...inputs, teacher: new Float32Array(3) }, distilHyper)).rejects.toThrow(
        `loss input teacher has 3 floats, expected ${nScored} tokens x ${V}`,
      );
      const teacher = randomTeacherRows(batch, V, 39);
      await expect(
        b.lossBackward(batch, { ...inputs, teacher }, { ...hyper, distil: { jsdAlpha: 1 } }),
      ).rejects.toThrow(/^loss: jsdAlpha must be in \[0, 1\), got 1$/);
      await expect(
        b.lossBackward(batch, { ...inputs, teacher, distilWeight: inputs.mask.subarray(1) }, distilHyper),
      ).rejects.toThrow(`loss input distilWeight has ${nScored - 1} tokens, l_student has ${nScored}`);
      expect((await b.readGradients()).every((x) => x === 0)).toBe(true);
    });
  });

  it.each([
    ['teacher', NaN],
    ['distilWeight', Infinity],
  ] as const)(
    'refuses a distillation input %s of %d as a non-finite L_OPD before touching the gradient',
    async (name, value) => {
      await withBackend(open, 40, async (b) => {
        const batch = makeBatch(config, 41);
        const base = randomLossInputs(await b.score(batch), 42);
        const inputs = {
          ...base,
          teacher: randomTeacherRows(batch, V, 43),
          distilWeight: new Float32Array(base.mask.length).fill(1),
        };
        await b.lossBackward(batch, inputs, distilHyper);
        const before = await b.readGradients();
        const poisoned = { ...inputs, [name]: inputs[name].map((x, k) => (k === 4 ? value : x)) };
        await expect(b.lossBackward(batch, poisoned, distilHyper)).rejects.toThrow(
          `non-finite L_OPD (value ${value}); the update was skipped and the weights are unchanged`,
        );
        expect(bytes(await b.readGradients()).equals(bytes(before))).toBe(true);
      });
    },
  );

  it('answers a batch with nothing scored with nothing, and leaves the gradient alone', async () => {
    await withBackend(open, 11, async (b) => {
      const batch: TokenBatch = {
        nSeq: 2,
        seqLen: 3,
        tokens: new Int32Array(6),
        targets: new Int32Array(6).fill(-1),
        masks: new Uint32Array(0),
      };
      expect((await b.score(batch)).length).toBe(0);
      const out = await b.lossBackward(batch, randomLossInputs(new Float32Array(0), 12), hyper);
      expect([out.lStudent.length, out.total]).toEqual([0, 0]);
      expect((await b.readGradients()).every((x) => x === 0)).toBe(true);
    });
  });

  it.each([
    ['advantage', NaN, 'L_GRPO'],
    ['mask', NaN, 'L_GRPO'],
    ['lOld', -Infinity, 'L_GRPO'],
    ['opdMask', NaN, 'L_OPD'],
    ['lSkill', NaN, 'L_OPD'],
    ['lRef', Infinity, 'KL'],
  ] as const)(
    'refuses a loss input %s of %d as a non-finite %s before touching the gradient, then goes on',
    async (name, value, term) => {
      await withBackend(open, 13, async (b) => {
        const batch = makeBatch(config, 14);
        const inputs = randomLossInputs(await b.score(batch), 15);
        await b.lossBackward(batch, inputs, hyper);
        const before = await b.readGradients();
        const poisoned = { ...inputs, [name]: inputs[name].map((x, k) => (k === 4 ? value : x)) };
        const err = await b.lossBackward(batch, poisoned, hyper).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(NonFiniteError);
        expect((err as Error).message).toBe(
          `non-finite ${term} (value ${value}); the update was skipped and the weights are unchanged`,
        );
        expect(bytes(await b.readGradients()).equals(bytes(before))).toBe(true);
        await b.lossBackward(batch, inputs, hyper);
        expect((await b.readGradients()).every((x, i) => x === 2 * before[i])).toBe(true);
      });
    },
  );

  it.each([
    ['lambda', -50, 'setting lambda is outside [0, 100], got -50'],
    ['beta', -3, 'setting beta is outside [0, 100], got -3'],
    ['clip', 7, 'setting clip is outside [0, 1), got 7'],
    ['klCoef', -1, 'setting klCoef is outside [0, 10], got -1'],
    ['beta', NaN, 'setting beta is not a finite number, got NaN'],
  ] as const)(
    'refuses a loss setting %s of %d with the words of --set, before touching the gradient',
    async (key, value, message) => {
      await withBackend(open, 16, async (b) => {
        const batch = makeBatch(config, 17);
        const inputs = randomLossInputs(await b.score(batch), 18);
        await b.lossBackward(batch, inputs, hyper);
        const before = await b.readGradients();
        await expect(b.lossBackward(batch, inputs, { ...hyper, [key]: value })).rejects.toThrow(
          new RangeError(message),
        );
        expect(bytes(await b.readGradients()).equals(bytes(before))).toBe(true);
      });
    },
  );
});
