// Token + position embedding and its deterministic gradient on the GPU (shaders/encoder.wgsl), twins of
// src/backend/cpu/encoder.ts. Weights are read from, and gradients accumulated into, flat buffers of the
// parameter layout at float offsets (model/layout.ts).
import code from '../../../shaders/encoder.wgsl?raw';
import { kernel, threadGrid, type Buf } from './kernel.ts';
import type { Stage } from './stage.ts';
import { wgslStruct } from './wgsl_struct.ts';

/** @public: shaders.test.ts reads the module's exports to check each struct against its shader. */
export const SHAPE = wgslStruct('Shape', {
  n: 'u32',
  c: 'u32',
  vocab: 'u32',
  seq_len: 'u32',
  wte_off: 'u32',
  wpe_off: 'u32',
  grid_x: 'u32',
});

const BINDINGS = ['uniform', 'read', 'read', 'read', 'write'] as const;
const FORWARD = kernel(code, 'encoder_forward', BINDINGS);
const BACKWARD_WTE = kernel(code, 'encoder_backward_wte', BINDINGS);
const BACKWARD_WPE = kernel(code, 'encoder_backward_wpe', BINDINGS);

/** out[n] = wte[tokens[n]] + wpe[positions[n]]: out [n, C]; tokens, positions: i32[n]. */
export function encoderForward(
  stage: Stage,
  out: Buf,
  params: Buf,
  tokens: Buf,
  positions: Buf,
  n: number,
  C: number,
  wteOff: number,
  wpeOff: number,
): void {
  const g = threadGrid(n * C);
  if (!g) return;
  const u = SHAPE.pack({ n, c: C, vocab: 0, seq_len: 0, wte_off: wteOff, wpe_off: wpeOff, grid_x: g.gridX });
  stage.dispatch(FORWARD, [u, params, tokens, positions, out], g.workgroups);
}

/**
 * Rows of each token id in ascending order, for the deterministic embedding gradient: the rows of token v
 * are order[starts[v] .. starts[v + 1]).
 */
export function tokenRowIndex(
  tokens: Int32Array,
  V: number,
): { starts: Uint32Array<ArrayBuffer>; order: Uint32Array<ArrayBuffer> } {
  const starts = new Uint32Array(V + 1);
  for (let i = 0; i < tokens.length; i++) starts[tokens[i] + 1]++;
  for (let v = 0; v < V; v++) starts[v + 1] += starts[v];
  const next = starts.slice(0, V);
  const order = new Uint32Array(Math.max(tokens.length, 1));
  for (let i = 0; i < tokens.length; i++) order[next[tokens[i]]++] = i;
  return { starts, order };
}

/**
 * Accumulates dwte (per vocabulary row, over its own positions) and dwpe (rows 0 .. seqLen-1, over the
 * n / seqLen sequences) from dout [n, C]; row b * seqLen + t sits at position t.
 */
export function encoderBackward(
  stage: Stage,
  grads: Buf,
  dout: Buf,
  starts: Buf,
  order: Buf,
  n: number,
  seqLen: number,
  C: number,
  V: number,
  wteOff: number,
  wpeOff: number,
): void {
  const gw = threadGrid(V * C);
  const gp = threadGrid(seqLen * C);
  if (!gw || !gp) return;
  const shape = (gridX: number) =>
    SHAPE.pack({ n, c: C, vocab: V, seq_len: seqLen, wte_off: wteOff, wpe_off: wpeOff, grid_x: gridX });
  stage.dispatch(BACKWARD_WTE, [shape(gw.gridX), dout, starts, order, grads], gw.workgroups);
  stage.dispatch(BACKWARD_WPE, [shape(gp.gridX), dout, starts, order, grads], gp.workgroups);
}
