// How much of an update the distillation term drives, and how much of what it drives depends on the skill
// (docs/seed-loss.md, "How much the distillation acts"):
//
// - The OPD share of the gradient: opd / (grpo + opd), from the norms of the two parts of the gradient before
//   clipping (loss.ts measures them; the OPD part already carries lambda). Over a run it is the ratio of the mean
//   norms, never a mean of per-update ratios, so that an update with a tiny GRPO part cannot dominate it.
// - The Delta-dependent share of the OPD coefficient: the sampled-token term's coefficient is
//   c_k = -opd_mask lambda g_k / N_opd with g_k = sigmoid(beta Delta_k) (1 with the gate off). Its value at
//   Delta = 0, c0 = -opd_mask lambda g0 / N_opd (g0 = 1/2, or 1 with the gate off), is the part that does not
//   depend on the skill: it raises the sampled token's likelihood whatever the teacher says (self-imitation).
//   c_k - c0 is the part the skill's shift makes. Over the update's decision tokens (the forced tokens carry no
//   gradient whatever their coefficient: diagnostics.ts), the share is
//       sum_k (g_k - g0)^2 / sum_k (g0^2 + (g_k - g0)^2)
//   (lambda and N_opd cancel): 0 when the coefficient ignores Delta (the gate off, or Delta 0 everywhere), near 1
//   when the gate is saturated. Exact distillation has no sampled-token coefficient (its gradient vanishes where
//   the teacher agrees with the student), so the figure is not defined there.
import { decisionMask } from './diagnostics.ts';
import type { UpdateState } from './update_state.ts';

/** opd / (grpo + opd) of two gradient norms (or of their means over updates); null when both are 0. */
export function opdShareOfNorms(grpo: number, opd: number): number | null {
  const whole = grpo + opd;
  return whole > 0 ? opd / whole : null;
}

/** The gate's value at Delta = 0: the coefficient's part that does not depend on the skill. */
export function gateAtNoShift(gate: boolean): number {
  return gate ? 0.5 : 1;
}

/**
 * The Delta-dependent share of the squared OPD coefficient over the gates of some tokens (each g_k as the loss
 * computed it), against the gate at Delta = 0; null over no token.
 */
export function deltaShareOfGates(gates: ArrayLike<number>, atNoShift: number): number | null {
  if (gates.length === 0) return null;
  let shift = 0;
  for (let k = 0; k < gates.length; k++) shift += (gates[k] - atNoShift) ** 2;
  return shift / (gates.length * atNoShift * atNoShift + shift);
}

/**
 * The Delta-dependent share of an update's OPD coefficient over its decision tokens; null without a
 * sampled-token OPD term (lambda 0, exact distillation), before the loss, or without a decision token.
 */
export function opdDeltaShare(
  st: Pick<UpdateState, 'trajectories' | 'tokenOffsets' | 'inputs' | 'loss' | 'lossHyper'>,
): number | null {
  const { loss, lossHyper } = st;
  const decision = decisionMask(st);
  if (!loss || !decision || lossHyper.lambda === 0 || lossHyper.distil) return null;
  const gates: number[] = [];
  for (let k = 0; k < decision.length; k++) if (decision[k]) gates.push(loss.gate[k]);
  return deltaShareOfGates(gates, gateAtNoShift(lossHyper.gate));
}

/** The two shares of a run, from its updates' metrics (the updates a refusal left without figures count nothing). */
export class RunOpdShares {
  private grpo = 0;
  private opd = 0;
  private normed = 0;
  private delta = 0;
  private deltaCount = 0;

  add(m: { gradNormGrpo: number | null; gradNormOpd: number | null; opdDeltaShare: number | null }): void {
    if (m.gradNormGrpo !== null && m.gradNormOpd !== null) {
      this.grpo += m.gradNormGrpo;
      this.opd += m.gradNormOpd;
      this.normed++;
    }
    if (m.opdDeltaShare !== null) {
      this.delta += m.opdDeltaShare;
      this.deltaCount++;
    }
  }

  /**
   * opd_share: the OPD share of the gradient, mean OPD norm / (mean GRPO norm + mean OPD norm) over the updates;
   * opd_delta_share: the mean over updates of the Delta-dependent share of the OPD coefficient. Null where no
   * update defined it.
   */
  result(): { opd_share: number | null; opd_delta_share: number | null } {
    return {
      opd_share: this.normed ? opdShareOfNorms(this.grpo / this.normed, this.opd / this.normed) : null,
      opd_delta_share: this.deltaCount ? this.delta / this.deltaCount : null,
    };
  }
}
