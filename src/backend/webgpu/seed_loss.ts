// The SEED kernels on the GPU (shaders/seed_loss.wgsl): probability shift (Delta and gate per token, the
// heatmap's numbers), the fused per-token loss coefficient with its GRPO, OPD and KL parts, and the logit
// gradient c (onehot(a) - p). Twins of src/backend/cpu/seed_loss.ts and of the dlogits loop of the CPU
// backend. Per-token inputs and outputs are arrays of structs (TokenIn, TokenOut), so the kernels bind
// the same few storage buffers however many fields a token carries. Under exact distillation the OPD term
// is each token's divergence (distil.ts), read from one more buffer, and its coefficient is 0.
import code from '../../../shaders/seed_loss.wgsl?raw';
import { maskWords, type LossHyper, type LossInputs, type LossOutput } from '../backend.ts';
import { allocateLossOutput, checkLossInputs, lossCounts, setLossTerms, type LossCounts } from '../contract.ts';
import { kernel, threadGrid, type Buf } from './kernel.ts';
import type { GpuRuntime } from './runtime.ts';
import type { Stage } from './stage.ts';
import { wgslStruct } from './wgsl_struct.ts';

/** @public: shaders.test.ts reads the module's exports to check each struct against its shader. */
export const HYPER = wgslStruct('Hyper', {
  n: 'u32',
  inv_n: 'f32',
  inv_n_opd: 'f32',
  lambda: 'f32',
  beta: 'f32',
  clip: 'f32',
  kl_coef: 'f32',
  gate_on: 'u32',
  grid_x: 'u32',
  distil_on: 'u32',
});
/** @public: shaders.test.ts reads the module's exports to check each struct against its shader. */
export const TOKEN_IN = wgslStruct('TokenIn', {
  advantage: 'f32',
  mask: 'f32',
  opd_mask: 'f32',
  l_skill: 'f32',
  l_old: 'f32',
  l_ref: 'f32',
  distil_weight: 'f32',
});
/** @public: shaders.test.ts reads the module's exports to check each struct against its shader. */
export const TOKEN_OUT = wgslStruct('TokenOut', {
  l_student: 'f32',
  delta: 'f32',
  gate: 'f32',
  coef: 'f32',
  coef_grpo: 'f32',
  coef_opd: 'f32',
  coef_kl: 'f32',
  term_grpo: 'f32',
  term_opd: 'f32',
  term_kl: 'f32',
  divergence: 'f32',
});
/** @public: shaders.test.ts reads the module's exports to check each struct against its shader. */
export const LOGIT_SHAPE = wgslStruct('LogitShape', { rows: 'u32', vocab: 'u32', mask_words: 'u32', grid_x: 'u32' });

/** Floats per TokenIn struct. */
export const TOKEN_IN_FLOATS = TOKEN_IN.words;
/** Floats per TokenOut struct. */
export const TOKEN_OUT_FLOATS = TOKEN_OUT.words;

const LOSS_BINDINGS = ['uniform', 'read', 'read', 'write', 'read'] as const;
const PROBABILITY_SHIFT = kernel(code, 'probability_shift', LOSS_BINDINGS);
const COEFFICIENT = kernel(code, 'seed_loss_coefficient', LOSS_BINDINGS);
const LOGIT_GRADIENT = kernel(code, 'seed_logit_gradient', ['uniform', 'read', 'read', 'read', 'read', 'write']);

/** The per-token inputs as TokenIn structs (distil_weight 1 where the inputs give none). */
export function packLossInputs(inputs: LossInputs, n: number): Float32Array<ArrayBuffer> {
  checkLossInputs(inputs, n);
  const { advantage, mask, opdMask, lSkill, lOld, lRef } = inputs;
  const distilWeight = inputs.distilWeight ?? new Float32Array(n).fill(1);
  return TOKEN_IN.packColumns(
    { advantage, mask, opd_mask: opdMask, l_skill: lSkill, l_old: lOld, l_ref: lRef, distil_weight: distilWeight },
    n,
  );
}

/** The Hyper uniform of n tokens. */
function lossHyper(n: number, counts: LossCounts, hyper: LossHyper, gridX: number): Uint32Array<ArrayBuffer> {
  const { lambda, beta, clip, klCoef } = hyper;
  const flags = { gate_on: hyper.gate ? 1 : 0, distil_on: hyper.distil ? 1 : 0 };
  return HYPER.pack({
    n,
    inv_n: counts.invN,
    inv_n_opd: counts.invNOpd,
    lambda,
    beta,
    clip,
    kl_coef: klCoef,
    grid_x: gridX,
    ...flags,
  });
}

/**
 * Records probability_shift then seed_loss_coefficient: out (TokenOut[n]) from inputs (TokenIn[n]) and
 * lStudent (f32[n]). counts are those of the whole batch, so that a batch can run in chunks. Under exact
 * distillation (hyper.distil) divergence (f32[n], distilDivergence) is the OPD term's per-token divergence.
 */
export function seedLoss(
  stage: Stage,
  out: Buf,
  inputs: Buf,
  lStudent: Buf,
  n: number,
  counts: LossCounts,
  hyper: LossHyper,
  divergence: Buf | null = null,
): void {
  if (hyper.distil && !divergence)
    throw new RangeError('seedLoss: exact distillation needs the divergence of each token');
  const g = threadGrid(n);
  if (!g) return;
  const words = lossHyper(n, counts, hyper, g.gridX);
  // Without distillation the coefficient never reads binding 4; lStudent fills it.
  const bindings = [words, inputs, lStudent, out, divergence ?? lStudent];
  stage.dispatch(PROBABILITY_SHIFT, bindings, g.workgroups);
  stage.dispatch(COEFFICIENT, bindings, g.workgroups);
}

/** dlogits [rows, vocab] = c_r (onehot(target_r) - exp(logProbs)) on allowed tokens, 0 elsewhere. */
export function seedLogitGradient(
  stage: Stage,
  dlogits: Buf,
  logProbs: Buf,
  masks: Buf,
  targets: Buf,
  tokens: Buf,
  rows: number,
  vocab: number,
): void {
  const g = threadGrid(rows * vocab);
  if (!g) return;
  const u = LOGIT_SHAPE.pack({ rows, vocab, mask_words: maskWords(vocab), grid_x: g.gridX });
  stage.dispatch(LOGIT_GRADIENT, [u, logProbs, masks, targets, tokens, dlogits], g.workgroups);
}

/** LossOutput from the TokenOut structs read back; the loss terms are summed on the host in float64. */
export function unpackLossOutput(raw: Float32Array, n: number, inputs: LossInputs, hyper: LossHyper): LossOutput {
  const out = allocateLossOutput(n);
  const at = TOKEN_OUT.offsets;
  let grpo = 0;
  let opd = 0;
  let kl = 0;
  for (let k = 0; k < n; k++) {
    const o = k * TOKEN_OUT_FLOATS;
    out.lStudent[k] = raw[o + at.l_student];
    out.delta[k] = raw[o + at.delta];
    out.gate[k] = raw[o + at.gate];
    out.coef[k] = raw[o + at.coef];
    out.coefGrpo[k] = raw[o + at.coef_grpo];
    out.coefOpd[k] = raw[o + at.coef_opd];
    out.coefKl[k] = raw[o + at.coef_kl];
    out.divergence[k] = raw[o + at.divergence];
    grpo += raw[o + at.term_grpo];
    opd += raw[o + at.term_opd];
    kl += raw[o + at.term_kl];
  }
  setLossTerms(out, { grpo, opd, kl }, lossCounts(inputs), hyper);
  return out;
}

/**
 * The loss of given per-token log-probs on the GPU, host arrays in and out (the `loss` CLI, tests). Under
 * exact distillation, divergence holds each token's divergence (0 for every token when absent), as the
 * CPU's seedLoss takes it.
 */
export async function runSeedLoss(
  gpu: GpuRuntime,
  lStudent: Float32Array,
  inputs: LossInputs,
  hyper: LossHyper,
  divergence?: Float32Array,
): Promise<LossOutput> {
  const n = lStudent.length;
  if (n === 0) return unpackLossOutput(new Float32Array(0), 0, inputs, hyper);
  if (divergence && divergence.length !== n)
    throw new RangeError(`runSeedLoss: ${divergence.length} divergences for ${n} tokens`);
  const inputsBuffer = gpu.upload(packLossInputs(inputs, n));
  const studentBuffer = gpu.upload(Float32Array.from(lStudent));
  const divergenceBuffer = gpu.upload(divergence ? Float32Array.from(divergence) : new Float32Array(n));
  const outBuffer = gpu.buffer(n * TOKEN_OUT_FLOATS * 4);
  try {
    const stage = gpu.stage('seed-loss');
    seedLoss(stage, outBuffer, inputsBuffer, studentBuffer, n, lossCounts(inputs), hyper, divergenceBuffer);
    const raw = stage.read(outBuffer, n * TOKEN_OUT_FLOATS * 4);
    await stage.submit();
    return unpackLossOutput(new Float32Array(await raw), n, inputs, hyper);
  } finally {
    gpu.release(inputsBuffer, studentBuffer, divergenceBuffer, outBuffer);
  }
}
