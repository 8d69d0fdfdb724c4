// Rehearsal: with the setting `rehearsal` > 0, every optimizer step of a run also takes the token-mean negative
// log-likelihood of `rehearsalBatch` examples of the kind the warm start taught the skill context with (the world's
// warm-start corpus, follow and analyze examples only: an episode that follows the skill in its context, an
// analyzer prompt answered with the annotator's skill), weighted by `rehearsal`. RL trains only plain sequences, so
// without it nothing keeps the context that holds a skill, which the teacher reads, where the warm start left it.
// The corpus is built once per run from the run's seed (explorer episodes: no model involved), so a resumed run
// rehearses what an uncut one would; each step draws its examples from the update's own stream.
import type { TrainConfig } from './config.ts';
import type { UpdateContext, UpdateState } from './update_state.ts';
import { updateRng } from './update_rng.ts';
import { nllBackward, WARMSTART_DEFAULTS, type Corpus } from './warmstart.ts';

/** Explorer episodes the rehearsal corpus is built from. */
const REHEARSAL_EPISODES = 256;

/**
 * The rehearsal corpus of a run: the world's warm-start corpus of follow and analyze examples, from the run's seed,
 * with the run's skill slot.
 */
export function rehearsalCorpus(run: UpdateContext, config: Pick<TrainConfig, 'skillSlot'>): Corpus {
  return run.world.warmStartCorpus(run.tok, run.backend.config.contextLength, {
    ...WARMSTART_DEFAULTS,
    ...run.world.warmStartDefaults,
    skillSlot: config.skillSlot,
    seed: run.seed,
    episodes: REHEARSAL_EPISODES,
    kinds: ['follow', 'analyze'],
  });
}

/**
 * Adds the rehearsal term's gradient to the backend's, before the optimizer step that clips and applies both;
 * `epoch` tells the steps of one update apart.
 */
export async function rehearse(run: UpdateContext, st: UpdateState, corpus: Corpus, epoch: number): Promise<void> {
  const { rehearsal, rehearsalBatch } = st.config;
  if (corpus.sequences.length === 0) throw new Error('the rehearsal corpus holds no example (internal error)');
  const rng = updateRng(run.seed, st.update, `rehearsal/${epoch}`);
  const picked = Array.from({ length: rehearsalBatch }, () => rng.pick(corpus.sequences));
  await nllBackward(run.backend, run.tok, picked, rehearsal);
}
