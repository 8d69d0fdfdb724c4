// A page that is not cross-origin isolated has no SharedArrayBuffer: the CPU heap is then a plain memory used
// only to stage each kernel's operands, and the backend runs on one thread. Its scores, gradients, weights
// and samples must be the same bits as on the shared heap.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { validateConfig } from '../../model/config.ts';
import { maskWords, type LossHyper } from '../backend.ts';
import { makeBatch, randomLossInputs } from '../batch_testing.ts';

const config = validateConfig({
  vocabSize: 37,
  contextLength: 40,
  dModel: 12,
  nLayer: 2,
  nHead: 2,
  dMlp: 20,
  lnEps: 1e-5,
});
const hyper: LossHyper = { lambda: 0.5, beta: 5, clip: 0.2, klCoef: 0.1, gate: true };
const adam = { lr: 1e-2, beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0.1, gradClip: 1 };

async function run(): Promise<{ shared: boolean; out: Float32Array[] }> {
  const { heapIsShared } = await import('./heap.ts');
  const { CpuBackend } = await import('./cpu_backend.ts');
  const backend = CpuBackend.fromSeed(config, 4);
  const batch = makeBatch(config, 8, 5, 21);
  const l = await backend.score(batch);
  await backend.lossBackward(batch, randomLossInputs(l, 9), hyper);
  const out = [l, await backend.readGradients()];
  await backend.optimizerStep(adam);
  out.push(await backend.readParameters());
  const decoder = backend.openDecoder(3);
  const masks = new Uint32Array(3 * maskWords(config.vocabSize)).fill(0xffffffff);
  for (let s = 0; s < 3; s++) await decoder.feed(s, Int32Array.of(1, 2 + s, 3));
  for (let k = 0; k < 3; k++) {
    const { tokens, logprobs } = await decoder.sample(Int32Array.of(0, 1, 2), masks, 1, Float32Array.of(0.2, 0.5, 0.8));
    out.push(Float32Array.from(tokens), logprobs);
  }
  return { shared: heapIsShared, out };
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

describe('CPU backend without a shared heap', () => {
  it('gives the same scores, gradient, weights and samples as on the shared heap, bit for bit', async () => {
    const shared = await run();
    expect(shared.shared).toBe(true);
    vi.resetModules();
    vi.stubGlobal('crossOriginIsolated', false);
    const plain = await run();
    expect(plain.shared).toBe(false);
    expect(plain.out).toHaveLength(shared.out.length);
    plain.out.forEach((x, i) => {
      expect(
        Buffer.from(x.buffer, x.byteOffset, x.byteLength).equals(
          Buffer.from(shared.out[i].buffer, shared.out[i].byteOffset, shared.out[i].byteLength),
        ),
        `output ${i}`,
      ).toBe(true);
    });
  });
});
