// What the conformance tests (conformance.test.ts, decoder_conformance.test.ts) share: a small model, the two
// backends that open on it, and a fresh backend for each case.
import { validateConfig } from '../model/config.ts';
import { type Backend, maskWords } from './backend.ts';
import { CpuBackend } from './cpu/cpu_backend.ts';
import type { GpuRuntime } from './webgpu/runtime.ts';
import { WebGpuBackend } from './webgpu/webgpu_backend.ts';

export const config = validateConfig({
  vocabSize: 40,
  contextLength: 32,
  dModel: 16,
  nLayer: 2,
  nHead: 2,
  dMlp: 64,
  lnEps: 1e-5,
});
export const V = config.vocabSize;
export const words = maskWords(V);

type Subject = Backend & { readGradients(): Float32Array | Promise<Float32Array> };

/** Both backends on `config`; the WebGPU one on the runtime `gpu()` gives once the test file has opened it. */
export function backendsUnderTest(gpu: () => GpuRuntime): { kind: Backend['kind']; open: (seed: number) => Subject }[] {
  return [
    { kind: 'cpu', open: (seed) => CpuBackend.fromSeed(config, seed) },
    { kind: 'webgpu', open: (seed) => WebGpuBackend.fromSeed(gpu(), config, seed) },
  ];
}

/** Runs `body` on a fresh backend and disposes it. */
export async function withBackend(
  open: (seed: number) => Subject,
  seed: number,
  body: (b: Subject) => Promise<void>,
): Promise<void> {
  const backend = open(seed);
  try {
    await body(backend);
  } finally {
    backend.dispose();
  }
}
