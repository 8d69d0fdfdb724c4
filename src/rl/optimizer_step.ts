// Stage 6 of an update: the optimizer step. One AdamW step on the gradient of stage 5 (Backend.optimizerStep:
// global-norm clip, then AdamW with decoupled weight decay); with epochs > 1, the loss of stage 5 is computed
// again on the same rollouts and inputs, with the weights just updated, and stepped again.
import type { OptimizerHyper } from '../backend/backend.ts';
import type { TrainConfig } from './config.ts';
import { lossStage } from './loss.ts';
import type { UpdateContext, UpdateState } from './update_state.ts';

function optimizerHyper(config: TrainConfig): OptimizerHyper {
  return {
    lr: config.lr,
    beta1: config.beta1,
    beta2: config.beta2,
    eps: config.eps,
    weightDecay: config.weightDecay,
    gradClip: config.gradClip,
  };
}

/** Stage 6: applies the step (or `epochs` of them); st.step holds the last one's statistics. */
export async function optimizerStage(run: UpdateContext, st: UpdateState): Promise<void> {
  const hyper = optimizerHyper(st.config);
  st.step = await run.backend.optimizerStep(hyper);
  for (let e = 1; e < st.config.epochs; e++) {
    await lossStage(run, st, false);
    st.step = await run.backend.optimizerStep(hyper);
  }
}
