// Stage 5 of an update: the loss call. Every trajectory's plain sequences are scored once more by the current
// weights (l_student), and the backend computes Delta, the gate, the per-token coefficients and the gradient
// in the same pass (Backend.lossBackward; the loss itself: docs/seed-loss.md). The algorithm decides two of
// the loss settings: grpo and opid distil nothing (lambda 0), seed-nogate has no gate (g = 1).
//
// After the loss, `deltaAdvantageCorrelation` measures whether the skill moves credit where the reward puts
// it: the Pearson correlation, over the decision tokens, of Delta with the trajectory's group advantage. A
// skill that carries hindsight raises the tokens of won trajectories (Delta > 0 where A > 0); one that acts
// as uniform self-imitation leaves the correlation near 0.
import { sampleCorrelation } from 'simple-statistics';
import type { LossHyper } from '../backend/backend.ts';
import { packBatch } from './batch.ts';
import { isExactAlgo, type Algo, type TrainConfig } from './config.ts';
import type { UpdateContext, UpdateState } from './update_state.ts';

/** The loss settings of an update of `algo` under `config`. */
export function lossHyper(algo: Algo, config: TrainConfig): LossHyper {
  const distil = algo !== 'grpo' && algo !== 'opid';
  const hyper: LossHyper = { lambda: distil ? config.lambda : 0, beta: config.beta, clip: config.clip, klCoef: config.klCoef, gate: algo !== 'seed-nogate' };
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
 * Stage 5: the loss and its gradient (accumulated in the backend, which holds none before it), from st.inputs
 * under st.lossHyper. With `measure` and an OPD term, the OPD part of the gradient is computed first on its own
 * (the same inputs with an empty GRPO/KL mask) and read, then the whole: st.gradParts holds the norms of the
 * two parts, so the scale of lambda is measured, not guessed. It costs one more loss pass.
 */
export async function lossStage(run: UpdateContext, st: UpdateState, measure = true): Promise<void> {
  const batch = packBatch(st.trajectories.flatMap((t) => t.sequences), run.tok.padId);
  const inputs = st.inputs!;
  const { backend } = run;
  if (!measure || st.lossHyper.lambda === 0 || inputs.opdMask.every((m) => m === 0)) {
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
 * (see deltaAdvantageCorrelation); null without exact distillation or decision tokens.
 */
export function meanDivergence(st: UpdateState): number | null {
  const { loss, inputs } = st;
  if (!loss || !inputs || !st.lossHyper.distil) return null;
  let sum = 0;
  let n = 0;
  st.trajectories.forEach((t, i) => {
    let k = st.tokenOffsets[i];
    for (const seq of t.sequences) {
      const words = seq.positions.length ? seq.masks.length / seq.positions.length : 0;
      for (let j = 0; j < seq.positions.length; j++, k++) {
        if (inputs.opdMask[k] && hadChoice(seq.masks, j, words)) {
          sum += loss.divergence[k];
          n++;
        }
      }
    }
  });
  return n ? sum / n : null;
}

/** Whether scored token j of a sequence had a choice: its mask (`words` 32-bit words) allows more than one token. */
function hadChoice(masks: Uint32Array, j: number, words: number): boolean {
  let allowed = 0;
  for (let w = j * words; w < (j + 1) * words; w++) {
    // Clearing the lowest set bit twice tells "at least two" without a full count.
    let bits = masks[w];
    while (bits !== 0) {
      if (++allowed > 1) return true;
      bits &= bits - 1;
    }
  }
  return false;
}

/**
 * Pearson correlation of Delta (l_skill - l_student, as the loss computed it) with the group advantage A_i of
 * each token's trajectory, over the decision tokens: command tokens with a usable skill (opd_mask 1) at which
 * the decoding mask allowed more than one token (where it allowed one, the token has probability 1 with or
 * without the skill, and Delta says nothing). Null before the loss, or with fewer than 2 decision tokens, or
 * when Delta or the advantage is the same on all of them.
 */
export function deltaAdvantageCorrelation(st: UpdateState): number | null {
  const { loss, inputs } = st;
  if (!loss || !inputs) return null;
  const deltas: number[] = [];
  const advantages: number[] = [];
  st.trajectories.forEach((t, i) => {
    let k = st.tokenOffsets[i];
    for (const seq of t.sequences) {
      const words = seq.positions.length ? seq.masks.length / seq.positions.length : 0;
      for (let j = 0; j < seq.positions.length; j++, k++) {
        if (inputs.opdMask[k] && hadChoice(seq.masks, j, words)) {
          deltas.push(loss.delta[k]);
          advantages.push(st.advantages[i]);
        }
      }
    }
  });
  const constant = (xs: number[]) => xs.every((x) => x === xs[0]);
  if (deltas.length < 2 || constant(deltas) || constant(advantages)) return null;
  return sampleCorrelation(deltas, advantages);
}
