// A training run as two checkpoints: the current weights with their AdamW state and the run's metadata
// (algorithm, seed, update counter, config, seed-static's library, seed-crossgame's pool), and the frozen
// reference weights; a third, the teacher's weights, when the run holds a teacher apart from its policy
// (teacherRefresh > 1: teacher_weights.ts). The update counter is the run's whole Rng state (trainer.ts) and the library and the
// pool are the skills it keeps between updates, so restoring both files resumes a run exactly. A checkpoint
// that names its algorithm by a former name (config.ts, FORMER_ALGO_NAMES) is read as today's algorithm.
import type { Checkpoint } from '../model/checkpoint.ts';
import { configDifference, type PresetName } from '../model/config.ts';
import { copyPool } from './hindsight.ts';
import { checkRunReference, checkRunTeacher, runMetadata, type RunMetadata } from './run_metadata.ts';
import type { Trainer } from './trainer.ts';
import { factsOf, theWorld } from '../worlds/facts.ts';
import { namedWorld, worldOrDefault } from '../worlds/names.ts';

export async function runCheckpoints(
  trainer: Trainer,
  preset: PresetName,
  vocabHash: string,
): Promise<{ current: Checkpoint; reference: Checkpoint; teacher: Checkpoint | null }> {
  const be = trainer.backend;
  const metadata: RunMetadata = {
    stage: 'rl',
    algo: trainer.algo,
    seed: trainer.seed,
    preset,
    ...(namedWorld(trainer.world.env.name) === undefined ? {} : { env: trainer.world.env.name }),
    scale: trainer.world.env.variant,
    updates: trainer.updates,
    episodes: trainer.episodes,
    config: trainer.config,
    staticLibrary: trainer.staticLibrary,
    crossgamePool: copyPool(trainer.crossgamePool),
  };
  return {
    current: {
      config: be.config,
      vocabHash,
      params: await be.readParameters('current'),
      optimizer: await be.readOptimizerState(),
      metadata: { ...metadata },
    },
    reference: {
      config: be.config,
      vocabHash,
      params: await be.readParameters('reference'),
      optimizer: null,
      metadata: { stage: 'reference', algo: trainer.algo, seed: trainer.seed },
    },
    teacher: trainer.teacherParams
      ? {
          config: be.config,
          vocabHash,
          params: trainer.teacherParams.slice(),
          optimizer: null,
          metadata: { stage: 'teacher', algo: trainer.algo, seed: trainer.seed },
        }
      : null,
  };
}

/**
 * Loads the weights, optimizer state, reference, held teacher and counters of a run into a trainer built with the same
 * algorithm, seed, model and scale, once both checkpoints passed the check (run_metadata.ts); throws a
 * RangeError naming what does not fit before the trainer is touched.
 */
export async function restoreRun(
  trainer: Trainer,
  current: Checkpoint,
  reference: Checkpoint,
  teacher: Checkpoint | null = null,
): Promise<void> {
  const meta = runMetadata(current);
  checkRunReference(reference, current, meta);
  checkRunTeacher(teacher, current, meta);
  if (meta.algo !== trainer.algo || meta.seed !== trainer.seed) {
    throw new RangeError(
      `the checkpoint is of ${meta.algo} seed ${meta.seed}, the run is ${trainer.algo} seed ${trainer.seed}`,
    );
  }
  const difference = configDifference(current.config, trainer.backend.config);
  if (difference) throw new RangeError(`the checkpoint's model differs from the run's: ${difference}`);
  const env = trainer.world.env;
  const played = worldOrDefault(meta.env);
  if (played !== env.name)
    throw new RangeError(`the checkpoint's run played ${theWorld(played)}, this run plays ${theWorld(env.name)}`);
  if (meta.scale !== env.variant) {
    const units = factsOf(env.name).words.scaleUnits;
    throw new RangeError(`the checkpoint's run played ${meta.scale} ${units}, this run plays ${env.variant} ${units}`);
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
  trainer.teacherParams = teacher ? teacher.params.slice() : null;
}
