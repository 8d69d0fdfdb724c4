// Whole-model checks: the float64 gradient of a scored-token loss against finite differences over every
// parameter, and incremental (KV cache) decoding against the full forward, bit for bit.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Rng } from '../../common/rng.ts';
import { validateConfig, type ModelConfig } from '../../model/config.ts';
import { initParameters } from '../../model/init.ts';
import { parameterLayout } from '../../model/layout.ts';
import { CpuBackend } from './cpu_backend.ts';
import { allocActivations, allocBackwardScratch, gptBackward, gptForward, headBackward, headForward } from './gpt.ts';
import { bindWeights } from './weights.ts';

const config: ModelConfig = validateConfig({
  vocabSize: 11,
  contextLength: 8,
  dModel: 8,
  nLayer: 2,
  nHead: 2,
  dMlp: 16,
  lnEps: 1e-5,
});

/** Masked log-softmax of one float64 row; -Infinity where not allowed. */
function logSoftmax64(row: Float64Array, allowed: boolean[]): Float64Array {
  let max = -Infinity;
  for (let v = 0; v < row.length; v++) if (allowed[v]) max = Math.max(max, row[v]);
  let sum = 0;
  for (let v = 0; v < row.length; v++) if (allowed[v]) sum += Math.exp(row[v] - max);
  const lse = max + Math.log(sum);
  return row.map((x, v) => (allowed[v] ? x - lse : -Infinity));
}

describe('GPT forward/backward (float64)', () => {
  it('matches central differences on every parameter for loss = sum_r c_r log p(target_r)', () => {
    const rng = new Rng(99);
    const layout = parameterLayout(config);
    const params = Float64Array.from(initParameters(config, 5, layout));
    // Larger weights than at init, and non-trivial LayerNorm gains/biases, so every path carries gradient.
    for (const view of layout.list) for (let i = 0; i < view.size; i++) params[view.offset + i] += 0.3 * rng.normal();
    const V = config.vocabSize;
    const C = config.dModel;
    const T = 6;
    const tokens = new Int32Array([3, 1, 4, 1, 5, 9]);
    const rows = new Int32Array([1, 3, 4, 5]);
    const targets = new Int32Array([2, 7, 0, 10]);
    const coef = [0.7, -1.3, 0.25, 2];
    const allowed = Array.from(rows, (_, r) =>
      Array.from({ length: V }, (_, v) => v === targets[r] || rng.float() < 0.6),
    );

    const w = bindWeights(params, config, layout);
    const acts = allocActivations(Float64Array, config, T);
    const logits = new Float64Array(rows.length * V);
    const gathered = new Float64Array(rows.length * C);
    const loss = () => {
      gptForward(acts, w, config, tokens);
      headForward(logits, gathered, acts.lnf, rows, w.wte, V, C);
      let L = 0;
      for (let r = 0; r < rows.length; r++)
        L += coef[r] * logSoftmax64(logits.subarray(r * V, (r + 1) * V), allowed[r])[targets[r]];
      return L;
    };
    loss();
    const dlogits = new Float64Array(rows.length * V);
    for (let r = 0; r < rows.length; r++) {
      const lp = logSoftmax64(logits.subarray(r * V, (r + 1) * V), allowed[r]);
      for (let v = 0; v < V; v++)
        dlogits[r * V + v] = allowed[r][v] ? coef[r] * ((v === targets[r] ? 1 : 0) - Math.exp(lp[v])) : 0;
    }
    const grads = new Float64Array(layout.totalFloats);
    const g = bindWeights(grads, config, layout);
    const dlnf = new Float64Array(T * C);
    headBackward(dlnf, g.wte, dlogits, gathered, rows, w.wte, V, C, new Float64Array(rows.length * C));
    gptBackward(
      g,
      w,
      acts,
      dlnf,
      config,
      tokens,
      allocBackwardScratch((n) => new Float64Array(n), config, T),
    );

    const h = 1e-5;
    let worst = 0;
    let worstAt = '';
    let nonZero = 0;
    for (const view of layout.list) {
      for (let i = view.offset; i < view.offset + view.size; i++) {
        const keep = params[i];
        params[i] = keep + h;
        const up = loss();
        params[i] = keep - h;
        const down = loss();
        params[i] = keep;
        const numeric = (up - down) / (2 * h);
        const err = Math.abs(grads[i] - numeric) / Math.max(1, Math.abs(numeric));
        if (Math.abs(numeric) > 1e-6) nonZero++;
        if (err > worst) {
          worst = err;
          worstAt = `${view.name}[${i - view.offset}]`;
        }
      }
    }
    expect(worst, worstAt).toBeLessThan(1e-6);
    // Rows of wte for tokens neither read nor allowed anywhere and positions >= T get none; most do.
    expect(nonZero).toBeGreaterThan(layout.totalFloats * 0.5);
  });
});

describe('incremental decoding', () => {
  const micro = validateConfig({
    vocabSize: 40,
    contextLength: 160,
    dModel: 16,
    nLayer: 2,
    nHead: 2,
    dMlp: 64,
    lnEps: 1e-5,
  });
  const words = Math.ceil(micro.vocabSize / 32);

  async function rollout(backend: CpuBackend, seed: number, temperature: number) {
    const rng = new Rng(seed);
    const nStreams = 3;
    const dec = backend.openDecoder(nStreams);
    const seqs: number[][] = [];
    const logprobs: number[][] = [];
    const masksOf: number[][][] = [];
    for (let s = 0; s < nStreams; s++) {
      // Prompts of 70+ tokens cross the decoder's 64-row feed chunk.
      const prompt = Int32Array.from({ length: 20 + 30 * s }, () => rng.int(micro.vocabSize));
      await dec.feed(s, prompt);
      seqs.push(Array.from(prompt));
      logprobs.push([]);
      masksOf.push([]);
    }
    for (let step = 0; step < 12; step++) {
      const streams = Int32Array.from({ length: nStreams }, (_, i) => i);
      const masks = new Uint32Array(nStreams * words);
      for (let i = 0; i < masks.length; i++) masks[i] = rng.nextU32() | 1;
      const uniforms = Float32Array.from({ length: nStreams }, () => rng.float());
      const out = await dec.sample(streams, masks, temperature, uniforms);
      for (let s = 0; s < nStreams; s++) {
        seqs[s].push(out.tokens[s]);
        logprobs[s].push(out.logprobs[s]);
        masksOf[s].push(Array.from(masks.subarray(s * words, (s + 1) * words)));
        expect(dec.length(s)).toBe(seqs[s].length);
      }
      if (step === 5) await dec.feed(1, Int32Array.from([1, 2, 3]));
      if (step === 5) seqs[1].push(1, 2, 3);
    }
    return { seqs, logprobs, masksOf };
  }

  it('gives the masked log-probs of the full forward, bit for bit, across chunked feeds', async () => {
    const backend = CpuBackend.fromSeed(micro, 3);
    const { seqs, logprobs, masksOf } = await rollout(backend, 17, 1);
    for (let s = 0; s < seqs.length; s++) {
      const seq = seqs[s];
      const T = seq.length;
      const tokens = new Int32Array(T);
      const targets = new Int32Array(T).fill(-1);
      tokens.set(seq);
      // The sampled tokens sit at the last 12 positions of stream 0 and 2; stream 1 has 3 fed tokens inside.
      const sampledAt: number[] = [];
      let k = T - 1;
      const fedAfter = s === 1 ? 6 : -1;
      for (let j = 11; j >= 0; j--) {
        sampledAt.unshift(k);
        k -= 1;
        if (j === fedAfter) k -= 3;
      }
      for (const p of sampledAt) targets[p - 1] = tokens[p];
      const masks = new Uint32Array(sampledAt.length * words);
      masksOf[s].forEach((m, i) => {
        masks.set(m, i * words);
      });
      const scored = await backend.score({ nSeq: 1, seqLen: T, tokens, targets, masks });
      expect(Array.from(scored)).toEqual(logprobs[s]);
    }
  });

  it('samples the same tokens for the same seed, and greedy decoding picks the arg-max', async () => {
    const a = await rollout(CpuBackend.fromSeed(micro, 3), 5, 0.7);
    const b = await rollout(CpuBackend.fromSeed(micro, 3), 5, 0.7);
    expect(b).toEqual(a);
    const c = await rollout(CpuBackend.fromSeed(micro, 4), 5, 0.7);
    expect(c.seqs).not.toEqual(a.seqs);
    const greedy = await rollout(CpuBackend.fromSeed(micro, 3), 5, 0);
    // With temperature 0 the chosen token is the most likely allowed one: its log-prob is the row maximum,
    // so it is at least log(1 / allowed count) > log(1 / 40).
    for (const lps of greedy.logprobs) for (const lp of lps) expect(lp).toBeGreaterThan(Math.log(1 / 40));
  });

  it('refuses an empty stream, an out-of-range token and a context overflow', async () => {
    const dec = CpuBackend.fromSeed(micro, 1).openDecoder(2);
    const mask = new Uint32Array(words).fill(0xffffffff);
    await expect(dec.sample(Int32Array.of(0), mask, 1, Float32Array.of(0.5))).rejects.toThrow(/empty/);
    await expect(dec.feed(0, Int32Array.of(40))).rejects.toThrow(/outside/);
    await expect(dec.feed(1, new Int32Array(161))).rejects.toThrow(/context length/);
    await dec.feed(0, Int32Array.of(1, 2));
    await expect(dec.sample(Int32Array.of(0), new Uint32Array(words), 1, Float32Array.of(0.5))).rejects.toThrow(
      /allows no token/,
    );
    dec.reset(0);
    expect(dec.length(0)).toBe(0);
  });

  // At most 158 tokens and one sampled: within the 160-token context; a feed of 65+ crosses the 64-row chunk.
  it('matches the full forward for any split of the tokens into feeds (property)', async () => {
    const backend = CpuBackend.fromSeed(micro, 12);
    const mask = new Uint32Array(words).fill(0xffffffff);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 79 }), { minLength: 1, maxLength: 2 }),
        fc.nat(1000),
        async (sizes, salt) => {
          const total = sizes.reduce((a, b) => a + b, 0);
          const seq = Int32Array.from({ length: total }, (_, i) => (i * 13 + salt) % micro.vocabSize);
          const dec = backend.openDecoder(1);
          let at = 0;
          for (const n of sizes) {
            await dec.feed(0, seq.subarray(at, at + n));
            at += n;
          }
          const { tokens, logprobs } = await dec.sample(Int32Array.of(0), mask, 1, Float32Array.of((salt % 97) / 97));
          const all = new Int32Array(total + 1);
          all.set(seq);
          all[total] = tokens[0];
          const targets = new Int32Array(total + 1).fill(-1);
          targets[total - 1] = tokens[0];
          const scored = await backend.score({ nSeq: 1, seqLen: total + 1, tokens: all, targets, masks: mask });
          return scored[0] === logprobs[0];
        },
      ),
      { numRuns: 25 },
    );
  });

  it('gives a reset stream the same log-probs as a fresh decoder', async () => {
    const backend = CpuBackend.fromSeed(micro, 8);
    const prompt = Int32Array.from({ length: 30 }, (_, i) => (i * 7) % micro.vocabSize);
    const mask = new Uint32Array(words).fill(0xffffffff);
    const used = backend.openDecoder(1);
    await used.feed(
      0,
      Int32Array.from({ length: 90 }, (_, i) => (i * 3) % micro.vocabSize),
    );
    used.reset(0);
    await used.feed(0, prompt);
    const fresh = backend.openDecoder(1);
    await fresh.feed(0, prompt);
    for (let k = 0; k < 4; k++) {
      const a = await used.sample(Int32Array.of(0), mask, 0.8, Float32Array.of(0.3));
      const b = await fresh.sample(Int32Array.of(0), mask, 0.8, Float32Array.of(0.3));
      expect(a).toEqual(b);
    }
  });
});
