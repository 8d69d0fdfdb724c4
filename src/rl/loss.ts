// Stage 5 of an update: the loss call. Every trajectory's plain sequences are scored once more by the current
// weights (l_student), and the backend computes Delta, the gate, the per-token coefficients and the gradient
// in the same pass (Backend.lossBackward; the loss itself: docs/seed-loss.md). The algorithm decides two of
// the loss settings: grpo and opid distil nothing (lambda 0), seed-nogate has no gate (g = 1). What Delta and
// the gate say about the update is measured in diagnostics.ts.
import type { LossHyper } from '../backend/backend.ts';
import { packBatch } from './batch.ts';
import type { Algo, TrainConfig } from './config.ts';
import type { UpdateContext, UpdateState } from './update_state.ts';

/** The loss settings of an update of `algo` under `config`. */
export function lossHyper(algo: Algo, config: TrainConfig): LossHyper {
  const distil = algo !== 'grpo' && algo !== 'opid';
  return { lambda: distil ? config.lambda : 0, beta: config.beta, clip: config.clip, klCoef: config.klCoef, gate: algo !== 'seed-nogate' };
}

/** Stage 5: the loss and its gradient (accumulated in the backend), from st.inputs under st.lossHyper. */
export async function lossStage(run: UpdateContext, st: UpdateState): Promise<void> {
  const batch = packBatch(st.trajectories.flatMap((t) => t.sequences), run.tok.padId);
  st.loss = await run.backend.lossBackward(batch, st.inputs!, st.lossHyper);
}
