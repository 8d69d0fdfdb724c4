// Causal multi-head self-attention on the GPU (shaders/attention.wgsl), twin of src/backend/cpu/attention.ts.
// One kernel serves training (every row of every sequence) and decoding (the new rows of each stream
// against its KV cache): a dispatch lists, per sequence, the cache slot it reads and the rows it computes.
import code from '../../../shaders/attention.wgsl?raw';
import { kernel, threadGrid, type BindingKind, type Buf } from './kernel.ts';
import type { Stage } from './stage.ts';
import { wgslStruct } from './wgsl_struct.ts';

/** @public: shaders.test.ts reads the module's exports to check each struct against its shader. */
export const SHAPE = wgslStruct('Shape', {
  b: 'u32',
  rows: 'u32',
  t_cap: 'u32',
  c: 'u32',
  nh: 'u32',
  grid_x: 'u32',
  att_cap: 'u32',
});
/** @public: shaders.test.ts reads the module's exports to check each struct against its shader. */
export const SEQ_ROWS = wgslStruct('SeqRows', { slot: 'u32', pos0: 'u32', count: 'u32' });

const BACKWARD_BINDINGS: BindingKind[] = ['uniform', 'read', 'read', 'read', 'write', 'write'];
const FORWARD = kernel(code, 'attention_forward', ['uniform', 'read', 'read', 'write', 'write']);
const BACKWARD_SCORES = kernel(code, 'attention_backward_scores', BACKWARD_BINDINGS);
const BACKWARD_QKV = kernel(code, 'attention_backward_qkv', BACKWARD_BINDINGS);

/** Per sequence of an attention dispatch: the cache slot it reads and the positions it computes. */
export interface SeqRows {
  slot: number;
  pos0: number;
  count: number;
}

export function packSeqRows(seqs: readonly SeqRows[]): Uint32Array<ArrayBuffer> {
  return SEQ_ROWS.packArray(seqs.map(({ slot, pos0, count }) => ({ slot, pos0, count })));
}

/**
 * out [B, rows, C] from the cache qkv [slots, tCap, 3C]; att [B, NH, rows, attCap] keeps the softmax
 * (attCap: at least the last computed position + 1; tCap in training). seqs: SeqRows[B] packed by packSeqRows.
 */
export function attentionForward(
  stage: Stage,
  out: Buf,
  att: Buf,
  qkv: Buf,
  seqs: Buf,
  B: number,
  rows: number,
  tCap: number,
  C: number,
  NH: number,
  attCap = tCap,
): void {
  const g = threadGrid(B * NH * rows);
  if (!g) return;
  const u = SHAPE.pack({ b: B, rows, t_cap: tCap, c: C, nh: NH, grid_x: g.gridX, att_cap: attCap });
  stage.dispatch(FORWARD, [u, seqs, qkv, out, att], g.workgroups);
}

/** Writes dqkv [B, T, 3C] from dout [B, T, C] (training layout: every row of every sequence). dpre: [B, NH, T, T] scratch. */
export function attentionBackward(
  stage: Stage,
  dqkv: Buf,
  dpre: Buf,
  dout: Buf,
  qkv: Buf,
  att: Buf,
  B: number,
  T: number,
  C: number,
  NH: number,
): void {
  const gs = threadGrid(B * NH * T);
  const gq = threadGrid(B * T * 3 * C);
  if (!gs || !gq) return;
  const res = (gridX: number) => [
    SHAPE.pack({ b: B, rows: T, t_cap: T, c: C, nh: NH, grid_x: gridX, att_cap: T }),
    qkv,
    att,
    dout,
    dpre,
    dqkv,
  ];
  stage.dispatch(BACKWARD_SCORES, res(gs.gridX), gs.workgroups);
  stage.dispatch(BACKWARD_QKV, res(gq.gridX), gq.workgroups);
}
