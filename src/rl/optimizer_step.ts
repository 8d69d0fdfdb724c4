// Stage 6 of an update: the optimizer step. One AdamW step on the gradient of stage 5 (Backend.optimizerStep:
// global-norm clip, then AdamW with decoupled weight decay); with epochs > 1, the loss of stage 5 is computed
// again on the same rollouts and inputs, with the weights just updated, and stepped again. With rehearsal > 0,
// each step's gradient also holds the rehearsal term's (rehearsal.ts).
import type { OptimizerHyper } from '../backend/backend.ts';
import type { TrainConfig } from './config.ts';
import { lossStage } from './loss.ts';
import { rehearse } from './rehearsal.ts';
import type { UpdateContext, UpdateState } from './update_state.ts';
import type { Corpus } from './warmstart.ts';

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

/**
 * Stage 6: applies the step (or `epochs` of them); st.step holds the last one's statistics. `rehearsalCorpus`
 * gives the run's rehearsal examples, built when a step first needs them.
 */
export async function optimizerStage(
  run: UpdateContext,
  st: UpdateState,
  rehearsalCorpus: () => Corpus,
): Promise<void> {
  const hyper = optimizerHyper(st.config);
  const step = async (epoch: number) => {
    if (st.config.rehearsal > 0) await rehearse(run, st, rehearsalCorpus(), epoch);
    st.step = await run.backend.optimizerStep(hyper);
  };
  await step(0);
  for (let e = 1; e < st.config.epochs; e++) {
    await lossStage(run, st, false);
    await step(e);
  }
}
