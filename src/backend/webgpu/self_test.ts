// The kernel self-test the page runs: masked log-softmax and gather on the GPU against the CPU reference,
// on seeded random rows that include the hard cases (logits of +-80, a lone allowed token, equal logits,
// a vocabulary that is not a multiple of the workgroup size).
import { Rng } from '../../common/rng.ts';
import { maskWords } from '../backend.ts';
import { allowToken } from '../contract.ts';
import { gatherLogProbs, maskedLogSoftmax } from '../cpu/log_softmax.ts';
import { runLogSoftmax } from './log_softmax.ts';
import type { GpuRuntime } from './runtime.ts';

/** Passes when every |gpu - cpu| <= ABS + REL * |cpu| (the kernel tests' tolerance). */
export const SELF_TEST_TOLERANCE = { abs: 2e-5, rel: 2e-6 } as const;

export interface SelfTestResult {
  rows: number;
  vocab: number;
  /** Largest |gpu - cpu| over all log-probs and gathered values. */
  maxAbsError: number;
  passed: boolean;
  /** Wall time of the GPU run (upload, one submit, readback). */
  gpuMs: number;
}

export async function runLogSoftmaxSelfTest(
  gpu: GpuRuntime,
  seed = 1,
  rows = 16,
  vocab = 301,
): Promise<SelfTestResult> {
  const rng = new Rng(seed);
  const words = maskWords(vocab);
  const logits = new Float32Array(rows * vocab);
  const masks = new Uint32Array(rows * words);
  const targets = new Int32Array(rows);
  for (let r = 0; r < rows; r++) {
    const kind = r % 4;
    const scale = kind === 1 ? 80 : 8;
    for (let v = 0; v < vocab; v++) {
      logits[r * vocab + v] = kind === 3 ? 1.5 : (rng.float() * 2 - 1) * scale;
      if (kind !== 2 && rng.float() < 0.7) allowToken(masks, r, words, v);
    }
    targets[r] = rng.int(vocab);
    allowToken(masks, r, words, targets[r]);
  }

  const wantLogProbs = new Float32Array(rows * vocab);
  maskedLogSoftmax(wantLogProbs, logits, masks, rows, vocab);
  const wantGathered = new Float32Array(rows);
  gatherLogProbs(wantGathered, wantLogProbs, targets, rows, vocab);

  const start = performance.now();
  const got = await runLogSoftmax(gpu, logits, masks, targets, rows, vocab);
  const gpuMs = performance.now() - start;

  let maxAbsError = 0;
  let passed = true;
  const compare = (a: Float32Array, b: Float32Array) => {
    for (let i = 0; i < b.length; i++) {
      const error = Math.abs(a[i] - b[i]);
      if (!(error <= SELF_TEST_TOLERANCE.abs + SELF_TEST_TOLERANCE.rel * Math.abs(b[i]))) passed = false;
      maxAbsError = Number.isNaN(error) ? Infinity : Math.max(maxAbsError, error);
    }
  };
  compare(got.logProbs, wantLogProbs);
  compare(got.gathered, wantGathered);
  return { rows, vocab, maxAbsError, passed, gpuMs };
}
