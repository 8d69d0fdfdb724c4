// A training run as two checkpoints: the current weights with their AdamW state and the run's metadata
// (algorithm, seed, update counter, config, seed-static's library, seed-crossgame's pool), and the frozen
// reference weights. The update counter is the run's whole Rng state (trainer.ts) and the library and the
// pool are the skills it keeps between updates, so restoring both files resumes a run exactly. A checkpoint
// that names its algorithm by a former name (config.ts, FORMER_ALGO_NAMES) is read as today's algorithm.
import type { Checkpoint } from '../model/checkpoint.ts';
import { checkConfig, currentAlgoName, isAlgo, type TrainConfig } from './config.ts';
import { CROSSGAME_POOL_SIZE, copyPool, type CrossgamePool, type SkillLibrary } from './hindsight.ts';
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
  /** seed-crossgame's pool; absent in checkpoints written before it existed (an empty pool). */
  crossgamePool?: CrossgamePool;
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
    crossgamePool: copyPool(trainer.crossgamePool),
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
  if (typeof m.algo !== 'string' || !isAlgo(currentAlgoName(m.algo))) throw new RangeError(`run checkpoint: unknown algorithm ${m.algo}`);
  if (!Number.isInteger(m.updates) || !Number.isInteger(m.seed) || !Number.isInteger(m.episodes)) throw new RangeError('run checkpoint: bad update, episode or seed count');
  if (!m.config || typeof m.config !== 'object') throw new RangeError('run checkpoint: no config');
  checkConfig(m.config);
  if (!ck.optimizer) throw new RangeError('run checkpoint: no optimizer state');
  if (m.crossgamePool !== undefined) checkPool(m.crossgamePool);
  return { ...(m as RunMetadata), algo: currentAlgoName(m.algo) };
}

function checkPool(pool: unknown): void {
  const bad = (why: string) => new RangeError(`run checkpoint: the crossgame pool ${why}`);
  if (typeof pool !== 'object' || pool === null || Array.isArray(pool)) throw bad('is not an object');
  for (const [type, skills] of Object.entries(pool)) {
    if (!Array.isArray(skills) || skills.some((s) => typeof s !== 'string')) throw bad(`of ${type} is not a list of skills`);
    if (skills.length > CROSSGAME_POOL_SIZE) throw bad(`of ${type} holds ${skills.length} skills, more than ${CROSSGAME_POOL_SIZE}`);
  }
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
  trainer.crossgamePool = copyPool(meta.crossgamePool ?? {});
}
