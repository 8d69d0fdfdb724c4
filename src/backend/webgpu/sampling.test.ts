// GPU sampling against the CPU's rule (src/backend/cpu/sampling.ts), on Node's WebGPU: the same tokens
// from the same draws, and log-probs within 2e-5 + 2e-6 |cpu|.
import { beforeAll, describe, expect, it } from 'vitest';
import { Rng } from '../../common/rng.ts';
import { maskWords } from '../backend.ts';
import { allowToken } from '../contract.ts';
import { allocSampleScratch, sampleToken as sampleCpu } from '../cpu/sampling.ts';
import { runKernels, worstError } from './gpu_testing.ts';
import type { GpuRuntime } from './runtime.ts';
import { testRuntime } from './test_device.ts';
import { sampleToken } from './sampling.ts';

describe('sampling kernel on WebGPU against the CPU reference', () => {
  let gpu: GpuRuntime;
  beforeAll(async () => {
    gpu = await testRuntime();
  });

  it('samples the same tokens as the CPU: greedy, temperatures 0.4 and 1, lone allowed token, extreme logits', async () => {
    const rng = new Rng(14);
    const rows = 40;
    const vocab = 45;
    const words = maskWords(vocab);
    const logits = Float32Array.from({ length: rows * vocab }, () => rng.normal() * 3);
    for (let i = 0; i < rows; i += 7) logits[i * vocab + 4] = 80;
    const masks = new Uint32Array(rows * words);
    for (let r = 0; r < rows; r++) {
      if (r % 9 === 0) allowToken(masks, r, words, rng.int(vocab));
      else for (let v = 0; v < vocab; v++) if (rng.float() < 0.6) allowToken(masks, r, words, v);
      allowToken(masks, r, words, 4);
    }
    const draws = Float32Array.from({ length: rows }, () => rng.float());
    for (const temperature of [0, 0.4, 1]) {
      const got = await runKernels(gpu, { logits, masks, draws }, { tokens: rows, logprobs: rows }, (s, b) => {
        sampleToken(s, b.tokens, b.logprobs, b.logits, b.masks, b.draws, rows, vocab, temperature);
      });
      const tokens = new Int32Array(got.tokens.buffer);
      const scratch = allocSampleScratch(vocab);
      for (let r = 0; r < rows; r++) {
        const [token, logp] = sampleCpu(
          logits.subarray(r * vocab, (r + 1) * vocab),
          masks.subarray(r * words, (r + 1) * words),
          vocab,
          temperature,
          draws[r],
          scratch,
        );
        expect(tokens[r], `row ${r} at temperature ${temperature}`).toBe(token);
        expect(worstError([got.logprobs[r]], [logp], 2e-5, 2e-6)).toBeLessThanOrEqual(1);
      }
    }
  });
});
