// The SEED loss on the CPU (docs/seed-loss.md): per scored token, the GRPO clip term, the gated
// on-policy distillation term and the k3 KL term, and d total / d l_student split into those three parts.
// This is the reference that the fused WebGPU kernel (shaders/seed_loss.wgsl) is tested against, so both are
// one plain loop over tokens: first the counts N and N_opd, then each token on its own.
//
// Masks are 0/1 weights; N = sum(mask), N_opd = sum(opd_mask), and a mean over an empty mask is 0. Sums are
// accumulated in float64; per-token outputs are stored as float32 like everything else per token.
import type { LossHyper, LossInputs, LossOutput } from '../backend.ts';
import { allocateLossOutput, checkLossInputs, lossCounts, setLossTerms } from '../contract.ts';

/** Numerically safe logistic function: never evaluates exp of a large positive number. */
export function sigmoid(x: number): number {
  if (x >= 0) return 1 / (1 + Math.exp(-x));
  const e = Math.exp(x);
  return e / (1 + e);
}

/** True when min(r A, clip(r) A) takes the clipped term, whose gradient is 0. */
export function grpoClipped(ratio: number, advantage: number, clip: number): boolean {
  return (advantage > 0 && ratio > 1 + clip) || (advantage < 0 && ratio < 1 - clip);
}

/**
 * Loss terms, and per token the probability shift Delta and the gate g. Fills out.lStudent/delta/gate.
 * Under exact distillation (hyper.distil) the OPD term is the weighted divergence that out.divergence holds
 * (distil.ts fills it first); Delta and the gate are still computed, for the page and the metrics.
 */
function seedLossForward(out: LossOutput, lStudent: Float32Array, inputs: LossInputs, hyper: LossHyper): void {
  checkLossInputs(inputs, lStudent.length);
  const { advantage, mask, opdMask, lSkill, lOld, lRef } = inputs;
  let grpo = 0;
  let opd = 0;
  let kl = 0;
  for (let k = 0; k < lStudent.length; k++) {
    const ls = lStudent[k];
    const delta = lSkill[k] - ls;
    const g = hyper.gate ? sigmoid(hyper.beta * delta) : 1;
    out.lStudent[k] = ls;
    out.delta[k] = delta;
    out.gate[k] = g;

    const a = advantage[k];
    const r = Math.exp(ls - lOld[k]);
    const rClipped = Math.min(Math.max(r, 1 - hyper.clip), 1 + hyper.clip);
    grpo += mask[k] * -Math.min(r * a, rClipped * a);
    const refShift = lRef[k] - ls;
    kl += mask[k] * (Math.exp(refShift) - refShift - 1);
    opd += hyper.distil ? opdMask[k] * (inputs.distilWeight?.[k] ?? 1) * out.divergence[k] : opdMask[k] * g * delta;
  }
  setLossTerms(out, { grpo, opd, kl }, lossCounts(inputs), hyper);
}

/**
 * Per token c = d total / d l_student and its parts (coef = grpo + opd + kl):
 *   grpo = -mask A r / N   (0 where the min takes the clipped term)
 *   opd  = -opd_mask lambda g / N_opd    (0 under exact distillation: its gradient is on the whole row, distil.ts)
 *   kl   =  mask klCoef (1 - exp(l_ref - l_student)) / N
 * Needs out.gate from seedLossForward.
 */
function seedLossBackward(out: LossOutput, lStudent: Float32Array, inputs: LossInputs, hyper: LossHyper): void {
  checkLossInputs(inputs, lStudent.length);
  const { advantage, mask, opdMask, lOld, lRef } = inputs;
  const { invN, invNOpd } = lossCounts(inputs);
  for (let k = 0; k < lStudent.length; k++) {
    const ls = lStudent[k];
    const a = advantage[k];
    const r = Math.exp(ls - lOld[k]);
    const cGrpo = grpoClipped(r, a, hyper.clip) ? 0 : mask[k] * -a * r * invN;
    const cOpd = hyper.distil ? 0 : opdMask[k] * hyper.lambda * -out.gate[k] * invNOpd;
    const cKl = mask[k] * hyper.klCoef * (1 - Math.exp(lRef[k] - ls)) * invN;
    out.coefGrpo[k] = cGrpo;
    out.coefOpd[k] = cOpd;
    out.coefKl[k] = cKl;
    out.coef[k] = cGrpo + cOpd + cKl;
  }
}

/** Forward and backward in one call, into a fresh LossOutput (with the exact divergences when given). */
export function seedLoss(
  lStudent: Float32Array,
  inputs: LossInputs,
  hyper: LossHyper,
  divergence?: Float32Array,
): LossOutput {
  const out = allocateLossOutput(lStudent.length);
  if (divergence) out.divergence.set(divergence);
  seedLossForward(out, lStudent, inputs, hyper);
  seedLossBackward(out, lStudent, inputs, hyper);
  return out;
}
