// Sampling on the GPU from masked, temperature-scaled logits (shaders/sampling.wgsl), twin of
// src/backend/cpu/sampling.ts: a decoding step reads back one token and its log-prob per stream, never a
// row of logits.
import code from '../../../shaders/sampling.wgsl?raw';
import { maskWords } from '../backend.ts';
import { checkTemperature } from '../contract.ts';
import { kernel, threadGrid, type Buf } from './kernel.ts';
import type { Stage } from './stage.ts';
import { wgslStruct } from './wgsl_struct.ts';

/** @public: shaders.test.ts reads the module's exports to check each struct against its shader. */
export const SHAPE = wgslStruct('Shape', {
  rows: 'u32',
  vocab: 'u32',
  mask_words: 'u32',
  grid_x: 'u32',
  temperature: 'f32',
});

const SAMPLE = kernel(code, 'sample_token', ['uniform', 'read', 'read', 'read', 'write', 'write']);

/**
 * tokens (i32[rows]) and logprobs (f32[rows], masked log-softmax at temperature 1) from logits
 * [rows, vocab], masks [rows * ceil(vocab / 32)] and draws (f32[rows] in [0, 1)). A row that allows no
 * token gets token -1.
 */
export function sampleToken(
  stage: Stage,
  tokens: Buf,
  logprobs: Buf,
  logits: Buf,
  masks: Buf,
  draws: Buf,
  rows: number,
  vocab: number,
  temperature: number,
): void {
  checkTemperature(temperature);
  const g = threadGrid(rows);
  if (!g) return;
  const u = SHAPE.pack({ rows, vocab, mask_words: maskWords(vocab), grid_x: g.gridX, temperature });
  stage.dispatch(SAMPLE, [u, logits, masks, draws, tokens, logprobs], g.workgroups);
}
