// The CPU backend's numbers: its gradient against a float64 chain rule, recomputed activations against
// kept ones, and AdamW with clipping against hand-computed steps. What every backend must refuse and keep
// is in ../conformance.test.ts.
import { describe, expect, it } from 'vitest';
import { validateConfig } from '../../model/config.ts';
import { parameterLayout } from '../../model/layout.ts';
import { NonFiniteError, type LossHyper, type OptimizerHyper, type TokenBatch } from '../backend.ts';
import { makeBatch, randomLossInputs, scoredCount } from '../batch_testing.ts';
import { describeScored } from '../contract.ts';
import { adamwUpdate, clipScale } from './adamw.ts';
import { CpuBackend } from './cpu_backend.ts';
import {
  activationFloats,
  allocActivations,
  allocBackwardScratch,
  gptBackward,
  gptForward,
  headBackward,
  headForward,
} from './gpt.ts';
import { bindWeights } from './weights.ts';

const config = validateConfig({
  vocabSize: 40,
  contextLength: 32,
  dModel: 16,
  nLayer: 2,
  nHead: 2,
  dMlp: 64,
  lnEps: 1e-5,
});
const V = config.vocabSize;
const words = Math.ceil(V / 32);
const hyper: LossHyper = { lambda: 0.5, beta: 5, clip: 0.2, klCoef: 0.1, gate: true };
const adam: OptimizerHyper = { lr: 1e-2, beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0.1, gradClip: 1 };

/** The float64 gradient of sum_k coef_k l_student_k: the reference for the backend's float32 gradient. */
function referenceGradient(params: Float32Array, batch: TokenBatch, coef: Float32Array): Float64Array {
  const layout = parameterLayout(config);
  const p64 = Float64Array.from(params);
  const g64 = new Float64Array(layout.totalFloats);
  const w = bindWeights(p64, config, layout);
  const g = bindWeights(g64, config, layout);
  const C = config.dModel;
  let k = 0;
  for (let s = 0; s < batch.nSeq; s++) {
    const rows: number[] = [];
    for (let t = 0; t < batch.seqLen; t++) if (batch.targets[s * batch.seqLen + t] >= 0) rows.push(t);
    if (rows.length === 0) continue;
    const T = batch.seqLen;
    const tokens = batch.tokens.subarray(s * T, (s + 1) * T);
    const acts = allocActivations(Float64Array, config, T);
    gptForward(acts, w, config, tokens);
    const R = rows.length;
    const rowIdx = Int32Array.from(rows);
    const logits = new Float64Array(R * V);
    const gathered = new Float64Array(R * C);
    headForward(logits, gathered, acts.lnf, rowIdx, w.wte, V, C);
    const dlogits = new Float64Array(R * V);
    for (let r = 0; r < R; r++, k++) {
      const allowed = (v: number) => ((batch.masks[k * words + (v >> 5)] >>> (v & 31)) & 1) === 1;
      let max = -Infinity;
      for (let v = 0; v < V; v++) if (allowed(v)) max = Math.max(max, logits[r * V + v]);
      let sum = 0;
      for (let v = 0; v < V; v++) if (allowed(v)) sum += Math.exp(logits[r * V + v] - max);
      const target = batch.targets[s * T + rows[r]];
      for (let v = 0; v < V; v++) {
        const p = allowed(v) ? Math.exp(logits[r * V + v] - max) / sum : 0;
        dlogits[r * V + v] = coef[k] * ((v === target ? 1 : 0) - p);
      }
    }
    const dlnf = new Float64Array(T * C);
    headBackward(dlnf, g.wte, dlogits, gathered, rowIdx, w.wte, V, C, new Float64Array(R * C));
    gptBackward(
      g,
      w,
      acts,
      dlnf,
      config,
      tokens,
      allocBackwardScratch((n) => new Float64Array(n), config, T),
    );
  }
  return g64;
}

describe('CpuBackend.lossBackward', () => {
  it('scores l_student like score(), and its gradient is the float64 chain rule through coef', async () => {
    const backend = CpuBackend.fromSeed(config, 11);
    const batch = makeBatch(config, 1);
    const scored = await backend.score(batch);
    expect(scored.length).toBe(scoredCount(batch));
    const inputs = randomLossInputs(scored, 2);
    const out = await backend.lossBackward(batch, inputs, hyper);
    expect(Array.from(out.lStudent)).toEqual(Array.from(scored));
    expect(Number.isFinite(out.total)).toBe(true);
    const grads = await backend.readGradients();
    const ref = referenceGradient(await backend.readParameters(), batch, out.coef);
    let maxRef = 0;
    let maxErr = 0;
    for (let i = 0; i < ref.length; i++) {
      maxRef = Math.max(maxRef, Math.abs(ref[i]));
      maxErr = Math.max(maxErr, Math.abs(grads[i] - ref[i]));
    }
    expect(maxRef).toBeGreaterThan(1e-3);
    expect(maxErr).toBeLessThan(1e-4 * maxRef);
  });

  it('gives the same gradient, bit for bit, when activations are recomputed instead of kept', async () => {
    const batch = makeBatch(config, 3);
    const a = CpuBackend.fromSeed(config, 4);
    const b = CpuBackend.fromSeed(config, 4, { activationBudget: 0 });
    const inputs = randomLossInputs(await a.score(batch), 5);
    await a.lossBackward(batch, inputs, hyper);
    await b.lossBackward(batch, inputs, hyper);
    expect(Buffer.from((await b.readGradients()).buffer).equals(Buffer.from((await a.readGradients()).buffer))).toBe(
      true,
    );
  });

  it("disposes and trains again when only a later sequence's activations fit the budget", async () => {
    const batch = makeBatch(config, 3);
    // Each sequence with a scored token runs to its last one; the budget holds the shortest alone, not the first.
    const lengths: number[] = [];
    for (let s = 0; s < batch.nSeq; s++) {
      let last = -1;
      for (let t = 0; t < batch.seqLen; t++) if (batch.targets[s * batch.seqLen + t] >= 0) last = t;
      if (last >= 0) lengths.push(last + 1);
    }
    const shortest = lengths.indexOf(Math.min(...lengths));
    expect(shortest).toBeGreaterThan(0);
    const a = CpuBackend.fromSeed(config, 4);
    const b = CpuBackend.fromSeed(config, 4, { activationBudget: activationFloats(config, lengths[shortest]) });
    const inputs = randomLossInputs(await a.score(batch), 5);
    await a.lossBackward(batch, inputs, hyper);
    await b.lossBackward(batch, inputs, hyper);
    b.dispose();
    await b.zeroGradients();
    await b.lossBackward(batch, inputs, hyper);
    expect(Array.from(await b.readGradients())).toEqual(Array.from(await a.readGradients()));
  });

  it('refuses log-probs that overflow (weights of 3e38), naming the first such token, before touching the gradient', async () => {
    // The GPU may assume that no infinity occurs inside a kernel, so this is the CPU's own promise.
    const backend = CpuBackend.fromSeed(config, 16);
    const batch = makeBatch(config, 14);
    const inputs = randomLossInputs(await backend.score(batch), 15);
    const huge = await backend.readParameters();
    const wte = parameterLayout(config).views.wte;
    for (let i = 0; i < wte.size; i++) huge[wte.offset + i] = i % 2 ? 3e38 : -3e38;
    await backend.writeParameters(huge);
    const err = await backend.lossBackward(batch, inputs, hyper).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NonFiniteError);
    expect((err as NonFiniteError).term).toBe('l_student');
    expect((err as NonFiniteError).where).toBe(describeScored(batch, 0));
    expect((await backend.readGradients()).every((x) => x === 0)).toBe(true);
  });

  it('raises the log-likelihood of tokens with positive advantage over a few updates', async () => {
    const backend = CpuBackend.fromSeed(config, 21);
    const batch = makeBatch(config, 9);
    const start = await backend.score(batch);
    for (let step = 0; step < 5; step++) {
      const ls = await backend.score(batch);
      const inputs = { ...randomLossInputs(ls, 1), advantage: new Float32Array(ls.length).fill(1), lOld: ls, lRef: ls };
      await backend.lossBackward(batch, inputs, { ...hyper, lambda: 0, klCoef: 0 });
      await backend.optimizerStep(adam);
    }
    const end = await backend.score(batch);
    const mean = (a: Float32Array) => a.reduce((s, x) => s + x, 0) / a.length;
    expect(mean(end)).toBeGreaterThan(mean(start) + 0.1);
  });
});

describe('AdamW and clipping', () => {
  it('matches a hand-computed two-step update, with decay only on matrices', () => {
    const layout = parameterLayout(config);
    const n = layout.totalFloats;
    const p = new Float32Array(n);
    const g = new Float32Array(n);
    const m = new Float32Array(n);
    const v = new Float32Array(n);
    const wIdx = layout.views['h0.attn.qkv.w'].offset;
    const bIdx = layout.views['h0.attn.qkv.b'].offset;
    p[wIdx] = 0.5;
    p[bIdx] = 0.5;
    g[wIdx] = 0.2;
    g[bIdx] = 0.2;
    const h = { lr: 0.1, beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0.1, gradClip: 0 };
    adamwUpdate(p, g, m, v, layout, h, 1, 1);
    // step 1: mhat = g, vhat = g^2 -> update = lr (g / (|g| + eps) + wd p)
    expect(p[wIdx]).toBeCloseTo(0.5 - 0.1 * (0.2 / (0.2 + 1e-8) + 0.1 * 0.5), 6); // 0.395
    expect(p[bIdx]).toBeCloseTo(0.5 - 0.1 * (0.2 / (0.2 + 1e-8)), 6); // 0.4
    expect(m[wIdx]).toBeCloseTo(0.02, 7);
    expect(v[wIdx]).toBeCloseTo(0.00004, 9);
    g[bIdx] = -0.4;
    adamwUpdate(p, g, m, v, layout, h, 2, 1);
    // step 2: m = 0.9*0.02 - 0.1*0.4 = -0.022; v = 0.999*4e-5 + 0.001*0.16 = 1.9996e-4
    // mhat = -0.022 / 0.19 = -0.115789; vhat = 1.9996e-4 / 0.001999 = 0.100030; sqrt = 0.316275
    expect(p[bIdx]).toBeCloseTo(0.4 - 0.1 * (-0.115789 / 0.316275), 5); // 0.436610
  });

  it('a second loss pass on the same batch and weights gives the bits of a pass from scratch, and one on changed weights or tokens is not taken for it', async () => {
    /** The loss and gradient of one pass on a fresh backend holding `params`. */
    const fresh = async (params: Float32Array, batch: TokenBatch, inputs: ReturnType<typeof randomLossInputs>) => {
      const b = new CpuBackend(config, params);
      const loss = await b.lossBackward(batch, inputs, hyper);
      return { loss, grads: await b.readGradients() };
    };
    const backend = CpuBackend.fromSeed(config, 6);
    const batch = makeBatch(config, 8);
    const first = randomLossInputs(await backend.score(batch), 1);
    const second = randomLossInputs(first.lOld, 2);
    const other = makeBatch(config, 9);
    const otherInputs = randomLossInputs(await backend.score(other), 3);
    // The same batch twice (its log-probs in between overwritten by another scoring pass), then another batch,
    // then the first with a token changed in place.
    await backend.lossBackward(batch, first, hyper);
    await backend.zeroGradients();
    await backend.scoreRows(other);
    const again = await backend.lossBackward(batch, second, hyper);
    const want = await fresh(await backend.readParameters(), batch, second);
    expect(Array.from(again.coef)).toEqual(Array.from(want.loss.coef));
    expect(Array.from(await backend.readGradients())).toEqual(Array.from(want.grads));
    await backend.zeroGradients();
    await backend.lossBackward(other, otherInputs, hyper);
    await backend.zeroGradients();
    batch.tokens[0] = (batch.tokens[0] + 1) % V;
    await backend.lossBackward(batch, first, hyper);
    expect(Array.from(await backend.readGradients())).toEqual(
      Array.from((await fresh(await backend.readParameters(), batch, first)).grads),
    );
    // After a step the weights differ: the pass on the same batch runs its forward again.
    await backend.optimizerStep(adam);
    await backend.lossBackward(batch, first, hyper);
    expect(Array.from(await backend.readGradients())).toEqual(
      Array.from((await fresh(await backend.readParameters(), batch, first)).grads),
    );
  });

  it('clips the global gradient norm and reports the norm before clipping', async () => {
    expect(clipScale(5, 1)).toBe(0.2);
    expect(clipScale(0.5, 1)).toBe(1);
    expect(clipScale(5, 0)).toBe(1);
    const backend = CpuBackend.fromSeed(config, 2);
    const batch = makeBatch(config, 4);
    const inputs = randomLossInputs(await backend.score(batch), 3);
    await backend.lossBackward(batch, inputs, hyper);
    const grads = await backend.readGradients();
    let s = 0;
    for (const x of grads) s += x * x;
    const norm = Math.sqrt(s);
    const clip = norm / 4;
    const stats = await backend.optimizerStep({ ...adam, gradClip: clip });
    expect(stats.step).toBe(1);
    expect(stats.gradNorm).toBeCloseTo(norm, 5);
    const { m } = await backend.readOptimizerState();
    // m = (1 - beta1) * g * clip / norm = 0.1 * g / 4
    let worst = 0;
    for (let i = 0; i < m.length; i++) worst = Math.max(worst, Math.abs(m[i] - 0.025 * grads[i]));
    expect(worst).toBeLessThan(1e-7 * norm);
    expect((await backend.readGradients()).every((x) => x === 0)).toBe(true);
  });
});
