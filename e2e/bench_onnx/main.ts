// The benchmark page (built by e2e/bench_onnx.ts, never shipped): in one page and on the same exported
// model and token ids, times the playground's WebGPU forward (WebGpuBackend.score with every position
// scored: forward, tied head, masked log-softmax, gather) against onnxruntime-web's WebGPU execution
// provider (logits of every position, read back) and its WebAssembly backend, and checks that all three
// agree with the CPU forward. The driver calls window.benchOnnx and reads its JSON.
import * as ort from 'onnxruntime-web/webgpu';
import { maskWords, type TokenBatch } from '../../src/backend/backend.ts';
import { maskedLogSoftmax } from '../../src/backend/cpu/log_softmax.ts';
import { createBrowserRuntime, type GpuRuntime } from '../../src/backend/webgpu/runtime.ts';
import { WebGpuBackend } from '../../src/backend/webgpu/webgpu_backend.ts';
import { Rng } from '../../src/common/rng.ts';
import { presetConfig, type PresetName } from '../../src/model/config.ts';
import { cpuLogits } from '../../src/onnx/cpu_logits.ts';
import { exportPolicyOnnx } from '../../src/onnx/export.ts';
import { trainedLikeParameters } from '../../src/onnx/testing/fixtures.ts';
import { maxAbsDiff } from '../../src/onnx/verify.ts';
import { defaultTokenizer } from '../../src/text/tokenizer.ts';

export interface BenchCase {
  preset: PresetName;
  batch: number;
  seqLen: number;
}

export interface BenchRow extends BenchCase {
  oursMs: number;
  ortWebGpuMs: number | null;
  ortWasmMs: number;
  /** max |log-prob| difference of ours against the CPU forward's masked log-softmax. */
  oursDiff: number;
  /** max |logit| difference of onnxruntime-web's WebGPU EP against the CPU forward. */
  ortWebGpuDiff: number | null;
  ortWasmDiff: number;
}

export interface BenchResult {
  adapter: string;
  ortVersion: string;
  crossOriginIsolated: boolean;
  /** Why onnxruntime-web's WebGPU execution provider could not run, when it could not. */
  ortWebGpuError: string | null;
  /** The adapter of the device that onnxruntime-web's WebGPU execution provider created for itself. */
  ortAdapter: string | null;
  rows: BenchRow[];
}

declare global {
  interface Window {
    benchOnnx(cases: BenchCase[], reps: number): Promise<BenchResult>;
  }
}

/** Best times of each function over `reps` rounds that run them one after another (a, b, c, a, b, c, ...), after a warm-up run of each (pipelines, shader compilation). */
async function roundsBest(reps: number, fns: (() => Promise<unknown>)[]): Promise<number[]> {
  for (const fn of fns) await fn();
  const best = fns.map(() => Infinity);
  for (let r = 0; r < reps; r++) {
    for (const [i, fn] of fns.entries()) {
      const t0 = performance.now();
      await fn();
      best[i] = Math.min(best[i], performance.now() - t0);
    }
  }
  return best;
}

function allPositionsBatch(ids: Int32Array, batch: number, seqLen: number, vocab: number): TokenBatch {
  // Position t predicts token t + 1; the last position predicts token 0 (any id will do: it is only timed).
  const targets = Int32Array.from(ids, (_, i) => ids[(i + 1) % ids.length]);
  const masks = new Uint32Array(batch * seqLen * maskWords(vocab)).fill(0xffffffff);
  return { nSeq: batch, seqLen, tokens: ids, targets, masks };
}

interface OrtWebGpuState {
  error: string | null;
  adapter: string | null;
}

function describeAdapter(a: { vendor: string; architecture: string; description: string }, fallback: boolean): string {
  return [a.vendor, a.architecture, a.description, fallback ? '(fallback adapter)' : '']
    .filter((x) => x !== '')
    .join(' ');
}

async function benchCase(gpu: GpuRuntime, c: BenchCase, reps: number, webgpuOk: OrtWebGpuState): Promise<BenchRow> {
  const tok = defaultTokenizer();
  const config = presetConfig(c.preset, tok.vocabSize);
  const params = trainedLikeParameters(config, 1);
  const bytes = exportPolicyOnnx({
    config,
    params,
    vocabulary: [...tok.tokens],
    vocabularyHash: tok.hash,
    card: { algorithm: 'bench', updates: 0, seed: 1, success: {} },
  });
  const rng = new Rng(7).fork(`${c.preset}/${c.batch}/${c.seqLen}`);
  const ids = Int32Array.from({ length: c.batch * c.seqLen }, () => rng.int(config.vocabSize));
  const V = config.vocabSize;
  const want = await cpuLogits(config, params)(ids, c.batch, c.seqLen);
  const wantLogp = new Float32Array(want.length);
  maskedLogSoftmax(
    wantLogp,
    want,
    new Uint32Array(c.batch * c.seqLen * maskWords(V)).fill(0xffffffff),
    c.batch * c.seqLen,
    V,
  );
  const batch = allPositionsBatch(ids, c.batch, c.seqLen, V);
  const wantScored = Float32Array.from(batch.targets, (t, i) => wantLogp[i * V + t]);

  const ours = new WebGpuBackend(gpu, config, params);
  const input = new ort.Tensor(
    'int64',
    BigInt64Array.from(ids, (x) => BigInt(x)),
    [c.batch, c.seqLen],
  );
  const wasm = await ort.InferenceSession.create(bytes, { executionProviders: ['wasm'] });
  let webgpu: ort.InferenceSession | null = null;
  if (webgpuOk.error === null) {
    try {
      webgpu = await ort.InferenceSession.create(bytes, { executionProviders: ['webgpu'] });
      const info = (await ort.env.webgpu.device).adapterInfo;
      webgpuOk.adapter ??= describeAdapter(info, info.isFallbackAdapter);
    } catch (err) {
      webgpuOk.error = `session creation failed: ${(err as Error).message}`;
    }
  }
  try {
    const run = async (s: ort.InferenceSession) => (await s.run({ input_ids: input })).logits.data as Float32Array;
    const oursDiff = maxAbsDiff(await ours.score(batch), wantScored);
    const ortWasmDiff = maxAbsDiff(await run(wasm), want);
    let ortWebGpuDiff: number | null = null;
    if (webgpu) {
      try {
        ortWebGpuDiff = maxAbsDiff(await run(webgpu), want);
      } catch (err) {
        webgpuOk.error = `run failed: ${(err as Error).message}`;
        await webgpu.release();
        webgpu = null;
      }
    }
    const fns = [() => ours.score(batch), () => run(wasm)];
    if (webgpu) fns.push(() => run(webgpu!));
    const [oursMs, ortWasmMs, ortWebGpuMs] = await roundsBest(reps, fns);
    return { ...c, oursMs, ortWasmMs, ortWebGpuMs: webgpu ? ortWebGpuMs : null, oursDiff, ortWasmDiff, ortWebGpuDiff };
  } finally {
    ours.dispose();
    await wasm.release();
    await webgpu?.release();
  }
}

window.benchOnnx = async (cases, reps) => {
  // One thread: no cross-origin isolation here, as on a static host.
  ort.env.wasm.numThreads = 1;
  const gpu = await createBrowserRuntime();
  const a = gpu.adapter;
  const state: OrtWebGpuState = { error: null, adapter: null };
  const rows: BenchRow[] = [];
  for (const c of cases) {
    rows.push(await benchCase(gpu, c, reps, state));
    document.getElementById('status')!.textContent = `${rows.length} of ${cases.length}`;
  }
  return {
    adapter: describeAdapter(a, a.isFallback),
    ortVersion: ort.env.versions.web ?? 'unknown',
    crossOriginIsolated: globalThis.crossOriginIsolated,
    ortWebGpuError: state.error,
    ortAdapter: state.adapter,
    rows,
  };
};
document.getElementById('status')!.textContent = 'ready';
