// Stage 5 of an update: the loss call. Every trajectory's plain sequences are scored once more by the current
// weights (l_student), and the backend computes Delta, the gate, the per-token coefficients and the gradient
// in the same pass (Backend.lossBackward; the loss itself: docs/seed-loss.md). The algorithm decides two of
// the loss settings, as its record says (arms.ts): one that distils nothing has lambda 0, one without the gate
// g = 1. What Delta and the gate say about the update is measured in diagnostics.ts.
import type { LossHyper } from '../backend/backend.ts';
import { packBatch } from './batch.ts';
import type { TrainConfig } from './config.ts';
import { ARMS, distils, isExactAlgo, type Algo } from './arms.ts';
import { decisionMask } from './diagnostics.ts';
import type { UpdateContext, UpdateState } from './update_state.ts';

/** The loss settings of an update of `algo` under `config`. */
export function lossHyper(algo: Algo, config: TrainConfig): LossHyper {
  const hyper: LossHyper = {
    lambda: distils(algo) ? config.lambda : 0,
    beta: config.beta,
    clip: config.clip,
    klCoef: config.klCoef,
    gate: ARMS[algo].gate,
  };
  if (isExactAlgo(algo)) hyper.distil = { jsdAlpha: config.jsdAlpha };
  return hyper;
}

/** Euclidean norm, accumulated in float64. */
function norm(xs: Float32Array): number {
  let s = 0;
  for (let i = 0; i < xs.length; i++) s += xs[i] * xs[i];
  return Math.sqrt(s);
}

/**
 * Whether update `st` measures its gradient's two parts: every config.gradShareEvery-th update (the first
 * included) that has an OPD term. The measurement is a pass of its own, and the ratio of mean norms over a
 * run's updates (opd_share.ts) needs only a sample of them.
 */
function measuresGradientParts(st: Pick<UpdateState, 'update' | 'config' | 'lossHyper' | 'inputs'>): boolean {
  const every = st.config.gradShareEvery;
  return every > 0 && st.update % every === 0 && hasOpdTerm(st);
}

/** Whether the update's loss has an OPD term: lambda > 0 and some token under the OPD mask. */
function hasOpdTerm(st: Pick<UpdateState, 'lossHyper' | 'inputs'>): boolean {
  return st.lossHyper.lambda !== 0 && st.inputs !== null && st.inputs.opdMask.some((m) => m !== 0);
}

/**
 * Stage 5: the loss and its gradient (accumulated in the backend, which holds none before it), from st.inputs
 * under st.lossHyper. With `measure` and an OPD term, the OPD part of the gradient is computed first on its own
 * (the same inputs with an empty GRPO/KL mask) and read, then the whole: st.gradParts holds the norms of the
 * two parts, so the scale of lambda is measured, not guessed. It costs one more loss pass, and leaves the
 * gradient the same bits as without it. An update with an OPD term that does not measure says so
 * (st.gradPartsUnmeasured): its metrics hold no norms rather than the whole gradient's as GRPO's.
 */
export async function lossStage(
  run: UpdateContext,
  st: UpdateState,
  measure = measuresGradientParts(st),
): Promise<void> {
  const batch = packBatch(
    st.trajectories.flatMap((t) => t.sequences),
    run.tok.padId,
  );
  const inputs = st.inputs!;
  const { backend } = run;
  const opdTerm = hasOpdTerm(st);
  if (!measure || !opdTerm) {
    if (st.gradParts == null && opdTerm) st.gradPartsUnmeasured = true;
    st.loss = await backend.lossBackward(batch, inputs, st.lossHyper);
    return;
  }
  await backend.lossBackward(batch, { ...inputs, mask: new Float32Array(inputs.mask.length) }, st.lossHyper);
  const opd = await backend.readGradients();
  await backend.zeroGradients();
  st.loss = await backend.lossBackward(batch, inputs, st.lossHyper);
  const whole = await backend.readGradients();
  for (let i = 0; i < whole.length; i++) whole[i] -= opd[i];
  st.gradParts = { grpo: norm(whole), opd: norm(opd) };
}

/**
 * Mean divergence D(student || teacher) of exact distillation over the decision tokens under the OPD mask
 * (diagnostics.ts); null without exact distillation or decision tokens.
 */
export function meanDivergence(st: UpdateState): number | null {
  const { loss } = st;
  const decision = decisionMask(st);
  if (!loss || !decision || !st.lossHyper.distil) return null;
  let sum = 0;
  let n = 0;
  for (let k = 0; k < decision.length; k++) {
    if (!decision[k]) continue;
    sum += loss.divergence[k];
    n++;
  }
  return n ? sum / n : null;
}
