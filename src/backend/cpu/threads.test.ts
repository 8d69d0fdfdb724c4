// The CPU backend on worker threads (worker_threads through thread_node.ts): the same bits on 1, 2 and 3
// threads for scoring, the loss gradient (more sequences than gradient groups, some activations
// recomputed) and decoding; an error in a worker's item reaches the caller, and a sampling step that fails
// moves no stream.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateConfig } from '../../model/config.ts';
import { maskWords, type LossHyper } from '../backend.ts';
import { makeBatch, randomLossInputs } from '../batch_testing.ts';
import { CpuBackend } from './cpu_backend.ts';
import { GRADIENT_GROUPS, gradientGroups } from './sequence_jobs.ts';
import { nodeThreadHost } from './thread_node.ts';
import { cpuThreads, installThreadHost, singleThreadReason } from './threads.ts';

const config = validateConfig({
  vocabSize: 40,
  contextLength: 48,
  dModel: 12,
  nLayer: 2,
  nHead: 3,
  dMlp: 24,
  lnEps: 1e-5,
});
const hyper: LossHyper = { lambda: 0.5, beta: 5, clip: 0.2, klCoef: 0.1, gate: true };
const adam = { lr: 1e-2, beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0.1, gradClip: 1 };

const same = (a: Float32Array, b: Float32Array) =>
  Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));

beforeAll(() => installThreadHost(nodeThreadHost));
afterAll(() => installThreadHost(null));

/** Two updates (score, loss gradient, AdamW step) and a decoding round; everything they return. */
async function run(threads: number, budget?: number): Promise<Float32Array[]> {
  const backend = CpuBackend.fromSeed(config, 9, { threads, activationBudget: budget });
  const out: Float32Array[] = [];
  for (let u = 0; u < 2; u++) {
    const batch = makeBatch(config, 30 + u, GRADIENT_GROUPS + 5, 23);
    const l = await backend.score(batch);
    out.push(l, await backend.score(batch, 'reference'));
    await backend.lossBackward(batch, randomLossInputs(l, 40 + u), hyper);
    out.push(await backend.readGradients());
    await backend.optimizerStep(adam);
  }
  out.push(await backend.readParameters());
  const n = 7;
  const decoder = backend.openDecoder(n);
  const all = Int32Array.from({ length: n }, (_, i) => i);
  const masks = new Uint32Array(n * maskWords(config.vocabSize)).fill(0xffffffff);
  for (let s = 0; s < n; s++)
    await decoder.feed(
      s,
      Int32Array.from({ length: 3 + s }, (_, i) => (i * 7 + s) % config.vocabSize),
    );
  for (let k = 0; k < 4; k++) {
    const { tokens, logprobs } = await decoder.sample(
      all,
      masks,
      1,
      Float32Array.from(all, (i) => ((i + 1) * (k + 2)) / 40),
    );
    out.push(Float32Array.from(tokens), logprobs);
    await decoder.feed(k % n, Int32Array.of(k + 1, k + 2));
  }
  decoder.dispose();
  backend.dispose();
  return out;
}

describe('CPU backend threads', () => {
  it('are available under Node once a host is installed', () => {
    expect(singleThreadReason()).toBeNull();
    expect(cpuThreads()).toBeGreaterThanOrEqual(1);
  });

  it('cut a batch into the same gradient groups whatever the thread count', () => {
    expect(gradientGroups(3)).toEqual([0, 1, 2, 3]);
    const g = gradientGroups(GRADIENT_GROUPS * 2 + 3);
    expect(g).toHaveLength(GRADIENT_GROUPS + 1);
    expect(g[g.length - 1]).toBe(GRADIENT_GROUPS * 2 + 3);
    for (let i = 1; i < g.length; i++) expect(g[i] - g[i - 1]).toBeGreaterThanOrEqual(2);
  });

  it('give the same scores, gradients, weights and samples on 1, 2 and 3 threads, bit for bit', async () => {
    const one = await run(1);
    for (const threads of [2, 3]) {
      const many = await run(threads);
      expect(many).toHaveLength(one.length);
      many.forEach((x, i) => {
        expect(same(x, one[i]), `output ${i} on ${threads} threads`).toBe(true);
      });
    }
    // activations recomputed in the second pass instead of kept: the same bits again
    const recomputed = await run(2, 0);
    recomputed.forEach((x, i) => {
      expect(same(x, one[i]), `output ${i}, recomputed`).toBe(true);
    });
  });

  it("report an error of a worker's item to the caller, and a failed sampling step moves no stream", async () => {
    const backend = CpuBackend.fromSeed(config, 3, { threads: 2 });
    const params = await backend.readParameters();
    await backend.writeParameters(
      params.map((x, i) => (i < config.vocabSize * config.dModel ? 3e38 * (i % 2 ? 1 : -1) : x)),
    );
    const n = 9;
    const decoder = backend.openDecoder(n);
    for (let s = 0; s < n; s++) await decoder.feed(s, Int32Array.of(1, 2, 3));
    const all = Int32Array.from({ length: n }, (_, i) => i);
    const masks = new Uint32Array(n * maskWords(config.vocabSize)).fill(0xffffffff);
    await expect(decoder.sample(all, masks, 1, new Float32Array(n).fill(0.5))).rejects.toThrow(RangeError);
    await expect(decoder.sample(all, masks, 1, new Float32Array(n).fill(0.5))).rejects.toThrow(
      /^cannot sample: the logits are not finite$/,
    );
    for (let s = 0; s < n; s++) expect(decoder.length(s)).toBe(3);
    decoder.dispose();
    backend.dispose();
  });
});
