// The model's layers on the GPU, llm.c style: one forward/backward pair per layer, named after the CPU
// twins in src/backend/cpu (kernels in shaders/). Each wrapper records its dispatches into a stage; the
// caller owns the buffers. Weights are read from ONE flat parameter buffer at float offsets (model/layout.ts)
// and weight gradients accumulate into one flat gradient buffer of the same layout, so no kernel binds more
// than a few storage buffers.
//
// Conventions: activation gradients are written (=), except layernormBackward's dinp, which accumulates
// into the residual stream's gradient; parameter gradients always accumulate (+=), as on the CPU.
import attentionCode from '../../../shaders/attention.wgsl?raw';
import encoderCode from '../../../shaders/encoder.wgsl?raw';
import geluCode from '../../../shaders/gelu.wgsl?raw';
import layernormCode from '../../../shaders/layernorm.wgsl?raw';
import matmulCode from '../../../shaders/matmul.wgsl?raw';
import rowsCode from '../../../shaders/rows.wgsl?raw';
import { threadGrid, uniformWords } from './dispatch.ts';
import type { BindingKind, BufferSlice, KernelSpec } from './kernel.ts';
import type { Stage } from './stage.ts';

type Buf = GPUBuffer | BufferSlice;

function spec(code: string, entryPoint: string, bindings: BindingKind[]): KernelSpec {
  return { entryPoint, code, bindings };
}

const K = {
  encoderForward: spec(encoderCode, 'encoder_forward', ['uniform', 'read', 'read', 'read', 'write']),
  encoderBackwardWte: spec(encoderCode, 'encoder_backward_wte', ['uniform', 'read', 'read', 'read', 'write']),
  encoderBackwardWpe: spec(encoderCode, 'encoder_backward_wpe', ['uniform', 'read', 'read', 'read', 'write']),
  layernormForward: spec(layernormCode, 'layernorm_forward', ['uniform', 'read', 'read', 'write', 'write']),
  layernormBackwardInput: spec(layernormCode, 'layernorm_backward_input', ['uniform', 'read', 'read', 'read', 'read', 'write', 'write']),
  layernormBackwardParams: spec(layernormCode, 'layernorm_backward_params', ['uniform', 'read', 'read', 'read', 'read', 'write', 'write']),
  matmulForward: spec(matmulCode, 'matmul_forward', ['uniform', 'read', 'read', 'write']),
  matmulForwardTiled: spec(matmulCode, 'matmul_forward_tiled', ['uniform', 'read', 'read', 'write']),
  matmulBackwardInput: spec(matmulCode, 'matmul_backward_input', ['uniform', 'read', 'read', 'read', 'write', 'write']),
  matmulBackwardWeight: spec(matmulCode, 'matmul_backward_weight', ['uniform', 'read', 'read', 'read', 'write', 'write']),
  matmulBackwardBias: spec(matmulCode, 'matmul_backward_bias', ['uniform', 'read', 'read', 'read', 'write', 'write']),
  matmulForwardVec4: spec(matmulCode, 'matmul_forward_vec4', ['uniform', 'read', 'read', 'write']),
  matmulBackwardInputVec4: spec(matmulCode, 'matmul_backward_input_vec4', ['uniform', 'read', 'read', 'read', 'write', 'write']),
  matmulBackwardWeightVec4: spec(matmulCode, 'matmul_backward_weight_vec4', ['uniform', 'read', 'read', 'read', 'write', 'write']),
  attentionForward: spec(attentionCode, 'attention_forward', ['uniform', 'read', 'read', 'write', 'write']),
  attentionBackwardScores: spec(attentionCode, 'attention_backward_scores', ['uniform', 'read', 'read', 'read', 'write', 'write']),
  attentionBackwardQkv: spec(attentionCode, 'attention_backward_qkv', ['uniform', 'read', 'read', 'read', 'write', 'write']),
  geluForward: spec(geluCode, 'gelu_forward', ['uniform', 'read', 'write']),
  geluBackward: spec(geluCode, 'gelu_backward', ['uniform', 'read', 'read', 'write']),
  residualForward: spec(geluCode, 'residual_forward', ['uniform', 'read', 'read', 'write']),
  copyRows: spec(rowsCode, 'copy_rows', ['uniform', 'read', 'read', 'write']),
  fill: spec(rowsCode, 'fill', ['uniform', 'write']),
} as const;

/**
 * Which matmul kernels run: one thread per output ('naive'); the same reading the inner dimension four
 * floats at a time ('vec4', when C % 4 == 0, else the scalar kernels); or 16 x 16 tiles in workgroup
 * memory for the forward ('tiled', whose backward is the vec4 one).
 */
export type MatmulVariant = 'naive' | 'vec4' | 'tiled';

function checkAligned(name: string, ...offsets: number[]): void {
  for (const off of offsets) if (off % 4 !== 0) throw new RangeError(`${name}: vec4 kernels need offsets that are multiples of 4 floats, got ${off}`);
}

/** out[n] = wte[tokens[n]] + wpe[positions[n]]: out [n, C]; tokens, positions: i32[n]. */
export function encoderForward(stage: Stage, out: Buf, params: Buf, tokens: Buf, positions: Buf, n: number, C: number, wteOff: number, wpeOff: number): void {
  const g = threadGrid(n * C);
  if (!g) return;
  const u = uniformWords('uuuuuuu', [n, C, 0, 0, wteOff, wpeOff, g.gridX]);
  stage.dispatch(K.encoderForward, [u, params, tokens, positions, out], g.workgroups);
}

/**
 * Rows of each token id in ascending order, for the deterministic embedding gradient: the rows of token v
 * are order[starts[v] .. starts[v + 1]).
 */
export function tokenRowIndex(tokens: Int32Array, V: number): { starts: Uint32Array<ArrayBuffer>; order: Uint32Array<ArrayBuffer> } {
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
export function encoderBackward(stage: Stage, grads: Buf, dout: Buf, starts: Buf, order: Buf, n: number, seqLen: number, C: number, V: number, wteOff: number, wpeOff: number): void {
  const gw = threadGrid(V * C);
  const gp = threadGrid(seqLen * C);
  if (!gw || !gp) return;
  stage.dispatch(K.encoderBackwardWte, [uniformWords('uuuuuuu', [n, C, V, seqLen, wteOff, wpeOff, gw.gridX]), dout, starts, order, grads], gw.workgroups);
  stage.dispatch(K.encoderBackwardWpe, [uniformWords('uuuuuuu', [n, C, V, seqLen, wteOff, wpeOff, gp.gridX]), dout, starts, order, grads], gp.workgroups);
}

/** out [N, C], stats [N, 2] (mean, rstd) from inp [N, C]. */
export function layernormForward(stage: Stage, out: Buf, stats: Buf, inp: Buf, params: Buf, wOff: number, bOff: number, N: number, C: number, eps: number): void {
  const g = threadGrid(N);
  if (!g) return;
  const u = uniformWords('uufuuu', [N, C, eps, wOff, bOff, g.gridX]);
  stage.dispatch(K.layernormForward, [u, params, inp, out, stats], g.workgroups);
}

/** Accumulates into dinp [N, C] and the weight and bias gradients. */
export function layernormBackward(stage: Stage, dinp: Buf, grads: Buf, dout: Buf, inp: Buf, stats: Buf, params: Buf, wOff: number, bOff: number, N: number, C: number): void {
  const gr = threadGrid(N);
  const gc = threadGrid(C);
  if (!gr || !gc) return;
  const res = (gridX: number) => [uniformWords('uufuuu', [N, C, 0, wOff, bOff, gridX]), params, inp, stats, dout, dinp, grads];
  stage.dispatch(K.layernormBackwardInput, res(gr.gridX), gr.workgroups);
  stage.dispatch(K.layernormBackwardParams, res(gc.gridX), gc.workgroups);
}

/** out [N, OC] = inp [N, C] @ weight^T + bias; bOff null = no bias. */
export function matmulForward(stage: Stage, out: Buf, inp: Buf, params: Buf, wOff: number, bOff: number | null, N: number, C: number, OC: number, variant: MatmulVariant = 'naive'): void {
  if (N === 0 || OC === 0) return;
  if (variant === 'tiled') {
    const wx = Math.ceil(OC / 16);
    const wy = Math.ceil(N / 16);
    if (wx > 65535 || wy > 65535) throw new RangeError(`matmulForward: ${N} x ${OC} is too large for the tiled kernel`);
    const u = uniformWords('uuuuuuu', [N, C, OC, wOff, bOff ?? 0, bOff === null ? 0 : 1, wx]);
    stage.dispatch(K.matmulForwardTiled, [u, params, inp, out], [wx, wy, 1]);
    return;
  }
  const g = threadGrid(N * OC)!;
  const u = uniformWords('uuuuuuu', [N, C, OC, wOff, bOff ?? 0, bOff === null ? 0 : 1, g.gridX]);
  const vec4 = variant === 'vec4' && C % 4 === 0;
  if (vec4) checkAligned('matmulForward', wOff, bOff ?? 0);
  stage.dispatch(vec4 ? K.matmulForwardVec4 : K.matmulForward, [u, params, inp, out], g.workgroups);
}

/** Writes dinp [N, C] = dout @ weight and accumulates dweight, dbias into grads. */
export function matmulBackward(
  stage: Stage,
  dinp: Buf,
  grads: Buf,
  dout: Buf,
  inp: Buf,
  params: Buf,
  wOff: number,
  bOff: number | null,
  N: number,
  C: number,
  OC: number,
  variant: MatmulVariant = 'naive',
): void {
  const res = (gridX: number) => [uniformWords('uuuuuuu', [N, C, OC, wOff, bOff ?? 0, bOff === null ? 0 : 1, gridX]), params, inp, dout, dinp, grads];
  const vec4 = variant !== 'naive' && C % 4 === 0;
  if (vec4) checkAligned('matmulBackward', wOff);
  const width = vec4 ? C / 4 : C;
  const gi = threadGrid(N * width);
  if (gi) stage.dispatch(vec4 ? K.matmulBackwardInputVec4 : K.matmulBackwardInput, res(gi.gridX), gi.workgroups);
  if (N === 0) return;
  const gw = threadGrid(OC * width);
  if (gw) stage.dispatch(vec4 ? K.matmulBackwardWeightVec4 : K.matmulBackwardWeight, res(gw.gridX), gw.workgroups);
  const gb = threadGrid(OC);
  if (gb && bOff !== null) stage.dispatch(K.matmulBackwardBias, res(gb.gridX), gb.workgroups);
}

/** Per sequence of an attention dispatch: the cache slot it reads and the positions it computes. */
export interface SeqRows {
  slot: number;
  pos0: number;
  count: number;
}

export function packSeqRows(seqs: readonly SeqRows[]): Uint32Array<ArrayBuffer> {
  const out = new Uint32Array(seqs.length * 4);
  seqs.forEach((s, i) => out.set([s.slot, s.pos0, s.count, 0], i * 4));
  return out;
}

/**
 * out [B, rows, C] from the cache qkv [slots, tCap, 3C]; att [B, NH, rows, attCap] keeps the softmax
 * (attCap: at least the last computed position + 1; tCap in training). seqs: SeqRows[B] packed by packSeqRows.
 */
export function attentionForward(stage: Stage, out: Buf, att: Buf, qkv: Buf, seqs: Buf, B: number, rows: number, tCap: number, C: number, NH: number, attCap = tCap): void {
  const g = threadGrid(B * NH * rows);
  if (!g) return;
  const u = uniformWords('uuuuuuu', [B, rows, tCap, C, NH, g.gridX, attCap]);
  stage.dispatch(K.attentionForward, [u, seqs, qkv, out, att], g.workgroups);
}

/** Writes dqkv [B, T, 3C] from dout [B, T, C] (training layout: every row of every sequence). dpre: [B, NH, T, T] scratch. */
export function attentionBackward(stage: Stage, dqkv: Buf, dpre: Buf, dout: Buf, qkv: Buf, att: Buf, B: number, T: number, C: number, NH: number): void {
  const gs = threadGrid(B * NH * T);
  const gq = threadGrid(B * T * 3 * C);
  if (!gs || !gq) return;
  const res = (gridX: number) => [uniformWords('uuuuuuu', [B, T, T, C, NH, gridX, T]), qkv, att, dout, dpre, dqkv];
  stage.dispatch(K.attentionBackwardScores, res(gs.gridX), gs.workgroups);
  stage.dispatch(K.attentionBackwardQkv, res(gq.gridX), gq.workgroups);
}

export function geluForward(stage: Stage, out: Buf, inp: Buf, n: number): void {
  const g = threadGrid(n);
  if (g) stage.dispatch(K.geluForward, [uniformWords('uu', [n, g.gridX]), inp, out], g.workgroups);
}

/** Writes dinp = gelu'(inp) * dout. */
export function geluBackward(stage: Stage, dinp: Buf, inp: Buf, dout: Buf, n: number): void {
  const g = threadGrid(n);
  if (g) stage.dispatch(K.geluBackward, [uniformWords('uu', [n, g.gridX]), inp, dout, dinp], g.workgroups);
}

export function residualForward(stage: Stage, out: Buf, a: Buf, b: Buf, n: number): void {
  const g = threadGrid(n);
  if (g) stage.dispatch(K.residualForward, [uniformWords('uu', [n, g.gridX]), a, b, out], g.workgroups);
}

/** out[pairs[2i + 1]] = inp[pairs[2i]] for rows of `width` floats; pairs: u32[rows * 2]. */
export function copyRows(stage: Stage, out: Buf, inp: Buf, pairs: Buf, rows: number, width: number): void {
  const g = threadGrid(rows * width);
  if (g) stage.dispatch(K.copyRows, [uniformWords('uufu', [rows, width, 0, g.gridX]), pairs, inp, out], g.workgroups);
}

/** out[0 .. n) = value. */
export function fill(stage: Stage, out: Buf, n: number, value = 0): void {
  const g = threadGrid(n);
  if (g) stage.dispatch(K.fill, [uniformWords('uufu', [n, 1, value, g.gridX]), out], g.workgroups);
}
