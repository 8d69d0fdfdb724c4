// Sampling on the GPU from masked, temperature-scaled logits (shaders/sampling.wgsl), twin of
// src/backend/cpu/sampling.ts: a decoding step reads back one token and its log-prob per stream, never a
// row of logits.
import code from '../../../shaders/sampling.wgsl?raw';
import { maskWords } from '../backend.ts';
import { threadGrid, uniformWords } from './dispatch.ts';
import type { BufferSlice, KernelSpec } from './kernel.ts';
import type { Stage } from './stage.ts';

type Buf = GPUBuffer | BufferSlice;

const SAMPLE: KernelSpec = { entryPoint: 'sample_token', code, bindings: ['uniform', 'read', 'read', 'read', 'write', 'write'] };

/**
 * tokens (i32[rows]) and logprobs (f32[rows], masked log-softmax at temperature 1) from logits
 * [rows, vocab], masks [rows * ceil(vocab / 32)] and draws (f32[rows] in [0, 1)). A row that allows no
 * token gets token -1.
 */
export function sampleToken(stage: Stage, tokens: Buf, logprobs: Buf, logits: Buf, masks: Buf, draws: Buf, rows: number, vocab: number, temperature: number): void {
  if (!(temperature >= 0) || !Number.isFinite(temperature)) throw new RangeError(`temperature must be >= 0, got ${temperature}`);
  const g = threadGrid(rows);
  if (!g) return;
  const u = uniformWords('uuuuf', [rows, vocab, maskWords(vocab), g.gridX, temperature]);
  stage.dispatch(SAMPLE, [u, logits, masks, draws, tokens, logprobs], g.workgroups);
}
