// The SEED kernels on the GPU (shaders/seed_loss.wgsl): probability shift (Delta and gate per token, the
// heatmap's numbers), the fused per-token loss coefficient with its GRPO, OPD and KL parts, and the logit
// gradient c (onehot(a) - p). Twins of src/backend/cpu/seed_loss.ts and of the dlogits loop of the CPU
// backend. Per-token inputs and outputs are arrays of structs (TokenIn, TokenOut), so the kernels bind
// four storage buffers however many fields a token carries.
import code from '../../../shaders/seed_loss.wgsl?raw';
import { maskWords, type LossHyper, type LossInputs, type LossOutput } from '../backend.ts';
import { allocateLossOutput, checkLossInputs, lossCounts, setLossTerms, type LossCounts } from '../contract.ts';
import { threadGrid, uniformWords } from './dispatch.ts';
import type { BufferSlice, KernelSpec } from './kernel.ts';
import type { GpuRuntime } from './runtime.ts';
import type { Stage } from './stage.ts';

type Buf = GPUBuffer | BufferSlice;

/** Floats per TokenIn struct: advantage, mask, opd_mask, l_skill, l_old, l_ref, 2 pad. */
export const TOKEN_IN_FLOATS = 8;
/** Floats per TokenOut struct: l_student, delta, gate, coef, coef_grpo, coef_opd, coef_kl, term_grpo, term_opd, term_kl, 2 pad. */
export const TOKEN_OUT_FLOATS = 12;

const LOSS_BINDINGS = ['uniform', 'read', 'read', 'write'] as const;
const PROBABILITY_SHIFT: KernelSpec = { entryPoint: 'probability_shift', code, bindings: LOSS_BINDINGS };
const COEFFICIENT: KernelSpec = { entryPoint: 'seed_loss_coefficient', code, bindings: LOSS_BINDINGS };
const LOGIT_GRADIENT: KernelSpec = { entryPoint: 'seed_logit_gradient', code, bindings: ['uniform', 'read', 'read', 'read', 'read', 'write'] };

/** The per-token inputs as TokenIn structs. */
export function packLossInputs(inputs: LossInputs, n: number): Float32Array<ArrayBuffer> {
  checkLossInputs(inputs, n);
  const out = new Float32Array(Math.max(n, 1) * TOKEN_IN_FLOATS);
  for (let k = 0; k < n; k++) {
    const o = k * TOKEN_IN_FLOATS;
    out[o] = inputs.advantage[k];
    out[o + 1] = inputs.mask[k];
    out[o + 2] = inputs.opdMask[k];
    out[o + 3] = inputs.lSkill[k];
    out[o + 4] = inputs.lOld[k];
    out[o + 5] = inputs.lRef[k];
  }
  return out;
}

/** The Hyper uniform of n tokens. */
export function lossHyperWords(n: number, counts: LossCounts, hyper: LossHyper, gridX: number): Uint32Array<ArrayBuffer> {
  return uniformWords('ufffffffuu', [
    n,
    counts.invN,
    counts.invNOpd,
    hyper.lambda,
    hyper.beta,
    hyper.clip,
    hyper.klCoef,
    hyper.gate ? 1 : 0,
    gridX,
    0,
  ]);
}

/**
 * Records probability_shift then seed_loss_coefficient: out (TokenOut[n]) from inputs (TokenIn[n]) and
 * lStudent (f32[n]). counts are those of the whole batch, so that a batch can run in chunks.
 */
export function seedLoss(stage: Stage, out: Buf, inputs: Buf, lStudent: Buf, n: number, counts: LossCounts, hyper: LossHyper): void {
  const g = threadGrid(n);
  if (!g) return;
  const words = lossHyperWords(n, counts, hyper, g.gridX);
  stage.dispatch(PROBABILITY_SHIFT, [words, inputs, lStudent, out], g.workgroups);
  stage.dispatch(COEFFICIENT, [words, inputs, lStudent, out], g.workgroups);
}

/** dlogits [rows, vocab] = c_r (onehot(target_r) - exp(logProbs)) on allowed tokens, 0 elsewhere. */
export function seedLogitGradient(stage: Stage, dlogits: Buf, logProbs: Buf, masks: Buf, targets: Buf, tokens: Buf, rows: number, vocab: number): void {
  const g = threadGrid(rows * vocab);
  if (!g) return;
  const u = uniformWords('uuuu', [rows, vocab, maskWords(vocab), g.gridX]);
  stage.dispatch(LOGIT_GRADIENT, [u, logProbs, masks, targets, tokens, dlogits], g.workgroups);
}

/** LossOutput from the TokenOut structs read back; the loss terms are summed on the host in float64. */
export function unpackLossOutput(raw: Float32Array, n: number, inputs: LossInputs, hyper: LossHyper): LossOutput {
  const out = allocateLossOutput(n);
  let grpo = 0;
  let opd = 0;
  let kl = 0;
  for (let k = 0; k < n; k++) {
    const o = k * TOKEN_OUT_FLOATS;
    out.lStudent[k] = raw[o];
    out.delta[k] = raw[o + 1];
    out.gate[k] = raw[o + 2];
    out.coef[k] = raw[o + 3];
    out.coefGrpo[k] = raw[o + 4];
    out.coefOpd[k] = raw[o + 5];
    out.coefKl[k] = raw[o + 6];
    grpo += raw[o + 7];
    opd += raw[o + 8];
    kl += raw[o + 9];
  }
  setLossTerms(out, { grpo, opd, kl }, lossCounts(inputs), hyper);
  return out;
}

/** The loss of given per-token log-probs on the GPU, host arrays in and out (the `loss` CLI, tests). */
export async function runSeedLoss(gpu: GpuRuntime, lStudent: Float32Array, inputs: LossInputs, hyper: LossHyper): Promise<LossOutput> {
  const n = lStudent.length;
  if (n === 0) return unpackLossOutput(new Float32Array(0), 0, inputs, hyper);
  const inputsBuffer = gpu.upload(packLossInputs(inputs, n));
  const studentBuffer = gpu.upload(Float32Array.from(lStudent));
  const outBuffer = gpu.buffer(n * TOKEN_OUT_FLOATS * 4);
  try {
    const stage = gpu.stage('seed-loss');
    seedLoss(stage, outBuffer, inputsBuffer, studentBuffer, n, lossCounts(inputs), hyper);
    const raw = stage.read(outBuffer, n * TOKEN_OUT_FLOATS * 4);
    await stage.submit();
    return unpackLossOutput(new Float32Array(await raw), n, inputs, hyper);
  } finally {
    gpu.release(inputsBuffer, studentBuffer, outBuffer);
  }
}
