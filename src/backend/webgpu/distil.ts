// Exact distillation on the GPU (shaders/distil.wgsl): the full-vocabulary divergence of the student's
// masked distribution from the teacher's per scored row, and its logit gradient added to dlogits. Twins of
// src/backend/cpu/distil.ts. Each wrapper records one dispatch into a stage; the caller owns the buffers.
import code from '../../../shaders/distil.wgsl?raw';
import { maskWords, type LossHyper, type LossInputs } from '../backend.ts';
import type { LossCounts } from '../contract.ts';
import { kernel, workgroupGrid, type Buf, type KernelSpec } from './kernel.ts';
import { logSoftmaxWorkgroupSize } from './log_softmax.ts';
import type { Stage } from './stage.ts';
import { wgslStruct } from './wgsl_struct.ts';

/** @public: shaders.test.ts reads the module's exports to check each struct against its shader. */
export const DISTIL_SHAPE = wgslStruct('DistilShape', {
  rows: 'u32',
  vocab: 'u32',
  mask_words: 'u32',
  grid_x: 'u32',
  alpha: 'f32',
});

const BINDINGS = ['uniform', 'read', 'read', 'read', 'read', 'write'] as const;

/** A row per workgroup, sized like the masked log-softmax's over the same rows. */
function sized(entryPoint: string, vocab: number): KernelSpec {
  return kernel(code, entryPoint, BINDINGS, { WG: logSoftmaxWorkgroupSize(vocab) });
}

function record(
  stage: Stage,
  entryPoint: string,
  out: Buf,
  student: Buf,
  teacher: Buf,
  masks: Buf,
  rowWeight: Buf,
  rows: number,
  vocab: number,
  alpha: number,
): void {
  if (!Number.isInteger(rows) || rows < 0 || !Number.isInteger(vocab) || vocab < 1) {
    throw new RangeError(
      `${entryPoint}: rows must be an integer >= 0 and vocab a positive integer, got rows ${rows}, vocab ${vocab}`,
    );
  }
  if (!(alpha >= 0 && alpha < 1)) throw new RangeError(`${entryPoint}: alpha must be in [0, 1), got ${alpha}`);
  if (rows === 0) return;
  const grid = workgroupGrid(rows);
  const shape = DISTIL_SHAPE.pack({ rows, vocab, mask_words: maskWords(vocab), grid_x: grid[0], alpha });
  stage.dispatch(sized(entryPoint, vocab), [shape, student, teacher, masks, rowWeight, out], grid);
}

/**
 * divergence[r] = D(p_r || q_r) of student rows (masked log-probs, [rows * vocab]) against teacher rows
 * under the same masks, where rowWeight[r] != 0; 0 for the other rows, whose teacher rows are not read.
 */
export function distilDivergence(
  stage: Stage,
  divergence: Buf,
  student: Buf,
  teacher: Buf,
  masks: Buf,
  rowWeight: Buf,
  rows: number,
  vocab: number,
  alpha: number,
): void {
  record(stage, 'distil_divergence', divergence, student, teacher, masks, rowWeight, rows, vocab, alpha);
}

/** dlogits[r, j] += scale[r] p_j (g_j - sum_i p_i g_i) over row r's allowed tokens; rows with scale 0 untouched. */
export function distilLogitGradient(
  stage: Stage,
  dlogits: Buf,
  student: Buf,
  teacher: Buf,
  masks: Buf,
  scale: Buf,
  rows: number,
  vocab: number,
  alpha: number,
): void {
  record(stage, 'distil_logit_gradient', dlogits, student, teacher, masks, scale, rows, vocab, alpha);
}

/** What exact distillation adds to a loss-backward: whole-batch arrays that each chunk slices. */
export interface DistilRows {
  /** The teacher's masked log-probs, [nScored * vocab]. */
  teacher: Float32Array;
  /** The rows whose divergence is computed (opd_mask != 0). */
  opdMask: Float32Array;
  /** Each token's scale in the total loss, lambda opd_mask w / N_opd, as the CPU backend computes it. */
  scale: Float32Array<ArrayBuffer>;
  alpha: number;
}

/** The rows of exact distillation under hyper.distil (inputs checked by checkDistilInputs), else null. */
export function distilRows(inputs: LossInputs, hyper: LossHyper, counts: LossCounts): DistilRows | null {
  if (!hyper.distil) return null;
  const { opdMask, distilWeight } = inputs;
  const scale = Float32Array.from(opdMask, (opd, k) =>
    opd === 0 ? 0 : hyper.lambda * opd * (distilWeight?.[k] ?? 1) * counts.invNOpd,
  );
  return { teacher: inputs.teacher!, opdMask, scale, alpha: hyper.distil.jsdAlpha };
}
