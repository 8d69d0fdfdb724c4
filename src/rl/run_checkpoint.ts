// A training run as two checkpoints: the current weights with their AdamW state and the run's metadata
// (algorithm, seed, update counter, config, seed-static library), and the frozen reference weights. The
// update counter is the run's whole Rng state (trainer.ts), so restoring both files resumes a run exactly.
import type { Checkpoint } from '../model/checkpoint.ts';
import { checkConfig, isAlgo, type TrainConfig } from './config.ts';
import type { SkillLibrary } from './hindsight.ts';
import type { Trainer } from './trainer.ts';

export interface RunMetadata {
  stage: 'rl';
  algo: string;
  seed: number;
  preset: string;
  scale: string;
  updates: number;
  episodes: number;
  config: TrainConfig;
  staticLibrary: SkillLibrary | null;
}

export async function runCheckpoints(trainer: Trainer, preset: string, vocabHash: string): Promise<{ current: Checkpoint; reference: Checkpoint }> {
  const be = trainer.backend;
  const metadata: RunMetadata = {
    stage: 'rl',
    algo: trainer.algo,
    seed: trainer.seed,
    preset,
    scale: trainer.scale.name,
    updates: trainer.updates,
    episodes: trainer.episodes,
    config: trainer.config,
    staticLibrary: trainer.staticLibrary,
  };
  return {
    current: { config: be.config, vocabHash, params: await be.readParameters('current'), optimizer: await be.readOptimizerState(), metadata: { ...metadata } },
    reference: { config: be.config, vocabHash, params: await be.readParameters('reference'), optimizer: null, metadata: { stage: 'reference', algo: trainer.algo, seed: trainer.seed } },
  };
}

/** Reads a run's metadata from its checkpoint; throws a RangeError naming what is wrong. */
export function runMetadata(ck: Checkpoint): RunMetadata {
  const m = ck.metadata as Partial<RunMetadata>;
  if (m.stage !== 'rl') throw new RangeError('not a training-run checkpoint (metadata.stage is not "rl")');
  if (typeof m.algo !== 'string' || !isAlgo(m.algo)) throw new RangeError(`run checkpoint: unknown algorithm ${m.algo}`);
  if (!Number.isInteger(m.updates) || !Number.isInteger(m.seed) || !Number.isInteger(m.episodes)) throw new RangeError('run checkpoint: bad update, episode or seed count');
  if (!m.config || typeof m.config !== 'object') throw new RangeError('run checkpoint: no config');
  checkConfig(m.config);
  if (!ck.optimizer) throw new RangeError('run checkpoint: no optimizer state');
  return m as RunMetadata;
}

/** Loads the weights, optimizer state, reference and counters of a run into a trainer built with the same algorithm and seed. */
export async function restoreRun(trainer: Trainer, current: Checkpoint, reference: Checkpoint): Promise<void> {
  const meta = runMetadata(current);
  if (meta.algo !== trainer.algo || meta.seed !== trainer.seed) {
    throw new RangeError(`the checkpoint is of ${meta.algo} seed ${meta.seed}, the run is ${trainer.algo} seed ${trainer.seed}`);
  }
  const be = trainer.backend;
  await be.writeParameters(reference.params);
  await be.setReferenceFromCurrent();
  await be.writeParameters(current.params);
  await be.writeOptimizerState(current.optimizer!);
  trainer.updates = meta.updates;
  trainer.episodes = meta.episodes;
  trainer.config = { ...meta.config };
  trainer.staticLibrary = meta.staticLibrary;
}
