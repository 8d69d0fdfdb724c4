// The one check of a training run's checkpoints, which every reader passes before a run goes on from them
// (`seed train --resume`, the page's import of a run checkpoint and its saved runs): each field of the run's
// metadata within the settings table (config.ts) and the preset it names, the weights of that preset's shape,
// and a reference of the same run. A damaged or hand-edited file is refused in one line naming the field,
// rather than found out updates later as a crash or a run that silently does something else.
import { factsOf, theWorld } from '../worlds/facts.ts';
import { DEFAULT_WORLD, isEnvironmentName, namedWorld, unknownWorld, type EnvironmentName } from '../worlds/names.ts';
import type { Checkpoint } from '../model/checkpoint.ts';
import {
  configDifference,
  isPresetName,
  presetConfig,
  presetOfConfig,
  PRESETS,
  type PresetName,
} from '../model/config.ts';
import { quote } from '../common/json.ts';
import { checkConfig, TRAIN_SETTINGS, type TrainConfig } from './config.ts';
import { currentAlgoName, isAlgo, teacherRefreshOf } from './arms.ts';
import { CROSSGAME_POOL_SIZE, type CrossgamePool, type SkillLibrary } from './hindsight.ts';

export interface RunMetadata {
  stage: 'rl';
  algo: string;
  seed: number;
  preset: PresetName;
  /** The world the run played; absent in a household run's checkpoint. */
  env?: EnvironmentName;
  /** The world's variant (environment.ts): the household's room scale, the shop's catalogue. */
  scale: string;
  updates: number;
  episodes: number;
  config: TrainConfig;
  staticLibrary: SkillLibrary | null;
  /** seed-crossgame's pool; absent in checkpoints written before it existed (an empty pool). */
  crossgamePool?: CrossgamePool;
}

/** The most updates a run may claim (a page run does about one a second, a CLI run at most 10^6). */
export const MAX_RUN_UPDATES = 1e9;
/** The most episodes one update plays: every group of every task, in the first round and each resampling round. */
const MAX_EPISODES_PER_UPDATE =
  TRAIN_SETTINGS.groupSize.max * TRAIN_SETTINGS.tasksPerUpdate.max * (1 + TRAIN_SETTINGS.resampleRounds.max);
/** The most optimizer steps a checkpoint may count: every update of the longest run at the most epochs. */
const MAX_OPTIMIZER_STEPS = MAX_RUN_UPDATES * TRAIN_SETTINGS.epochs.max;
/** Seeds are 32-bit unsigned integers (common/rng.ts). */
const MAX_SEED = 0xffffffff;
/** The longest skill text kept: the most skill tokens, each far shorter than this many characters. */
const MAX_SKILL_CHARS = TRAIN_SETTINGS.maxSkillTokens.max * 32;

function refuse(what: string): never {
  throw new RangeError(what);
}

function wholeIn(m: Record<string, unknown>, key: string, min: number, max: number): number {
  const v = m[key];
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max)
    refuse(`metadata.${key} is ${quote(v)}, not a whole number in [${min}, ${max}]`);
  return v;
}

/** seed-static's library and seed-crossgame's pool: skills by task type, at most `most` of each. */
function checkSkills(v: unknown, what: string, most: number, taskTypes: readonly string[]): void {
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    refuse(`${what} is ${quote(v)}, not skills by task type`);
  for (const [type, skills] of Object.entries(v)) {
    if (!taskTypes.includes(type)) refuse(`${what} names ${quote(type)}, not a task type`);
    if (!Array.isArray(skills) || skills.some((s) => typeof s !== 'string' || s.length > MAX_SKILL_CHARS))
      refuse(`${what} of ${type} is not a list of skills`);
    if (skills.length > most) refuse(`${what} of ${type} holds ${skills.length} skills, more than ${most}`);
  }
}

/**
 * A run's metadata from its checkpoint (the current weights), every field checked; `preset`, when given, is
 * the preset the run must be of. Throws a RangeError naming the first field that is wrong.
 */
export function runMetadata(ck: Checkpoint, preset?: PresetName): RunMetadata {
  const m = ck.metadata;
  if (m.stage !== 'rl') refuse('not a training-run checkpoint (metadata.stage is not "rl")');
  if (typeof m.algo !== 'string' || !isAlgo(currentAlgoName(m.algo)))
    refuse(`metadata.algo is ${quote(m.algo)}, not an algorithm`);
  if (typeof m.preset !== 'string' || !isPresetName(m.preset))
    refuse(`metadata.preset is ${quote(m.preset)}, not one of ${Object.keys(PRESETS).join(', ')}`);
  const difference = configDifference(ck.config, presetConfig(m.preset, ck.config.vocabSize));
  if (difference) {
    const of = presetOfConfig(ck.config);
    refuse(
      `its metadata names the ${m.preset} preset, but its weights are ${of ? `of the ${of} preset` : 'of no preset'} (${difference})`,
    );
  }
  if (preset !== undefined && m.preset !== preset) refuse(`it is a run of the ${m.preset} preset, not of ${preset}`);
  // A run's metadata names no world when it played the default one (as every run did before the shop).
  const env = m.env ?? DEFAULT_WORLD;
  if (typeof env !== 'string' || !isEnvironmentName(env)) refuse(`metadata.env: ${unknownWorld(m.env)}`);
  const { variants, taskTypes } = factsOf(env);
  if (typeof m.scale !== 'string' || !variants.includes(m.scale))
    refuse(`metadata.scale is ${quote(m.scale)}, not one of ${variants.join(', ')} (${theWorld(env)}'s)`);
  const seed = wholeIn(m, 'seed', 0, MAX_SEED);
  const updates = wholeIn(m, 'updates', 0, MAX_RUN_UPDATES);
  const episodes = wholeIn(m, 'episodes', 0, updates * MAX_EPISODES_PER_UPDATE);
  if (typeof m.config !== 'object' || m.config === null || Array.isArray(m.config))
    refuse(`metadata.config is ${quote(m.config)}, not the run's settings`);
  let config: TrainConfig;
  try {
    config = checkConfig({ ...(m.config as TrainConfig) });
  } catch (err) {
    refuse(`metadata.config: ${(err as Error).message}`);
  }
  if (m.staticLibrary !== null)
    checkSkills(m.staticLibrary, 'metadata.staticLibrary', TRAIN_SETTINGS.staticTasks.max, taskTypes);
  if (m.crossgamePool !== undefined) checkSkills(m.crossgamePool, 'the crossgame pool', CROSSGAME_POOL_SIZE, taskTypes);
  if (!ck.optimizer) refuse('it holds no optimizer state, which a run checkpoint has');
  if (ck.optimizer.step > MAX_OPTIMIZER_STEPS)
    refuse(`the optimizer's step ${ck.optimizer.step} is more than ${MAX_OPTIMIZER_STEPS}, the most a run takes`);
  if (allZero(ck.params)) refuse('its weights are all zero, not a trained or initialised model');
  return {
    stage: 'rl',
    algo: currentAlgoName(m.algo),
    seed,
    preset: m.preset,
    ...(namedWorld(env) === undefined ? {} : { env }),
    scale: m.scale,
    updates,
    episodes,
    config,
    staticLibrary: (m.staticLibrary as SkillLibrary | null) ?? null,
    crossgamePool: m.crossgamePool as CrossgamePool | undefined,
  };
}

/** Weights that are all zero are no policy's: neither an initialisation nor training gives them. */
function allZero(params: Float32Array): boolean {
  return params.every((x) => x === 0);
}

/** Refuses a reference checkpoint that is not the frozen reference of the run whose metadata is `meta`. */
export function checkRunReference(reference: Checkpoint, current: Checkpoint, meta: RunMetadata): void {
  const m = reference.metadata;
  if (m.stage !== 'reference') refuse('not a run\'s reference (metadata.stage is not "reference")');
  if (typeof m.algo !== 'string' || currentAlgoName(m.algo) !== meta.algo || m.seed !== meta.seed) {
    refuse(`it is of ${quote(m.algo)} seed ${quote(m.seed)}, the run is ${meta.algo} seed ${meta.seed}`);
  }
  const difference = configDifference(reference.config, current.config);
  if (difference) refuse(`its model differs from the run's: ${difference}`);
  if (allZero(reference.params)) refuse('its weights are all zero, not a trained or initialised model');
}

/**
 * Refuses a teacher checkpoint that is not the held teacher of the run whose metadata is `meta` (a run whose
 * config refreshes its teacher every K > 1 updates carries one: rl/teacher_weights.ts), and a run that needs
 * one and has none.
 */
export function checkRunTeacher(teacher: Checkpoint | null, current: Checkpoint, meta: RunMetadata): void {
  const refresh = isAlgo(meta.algo) ? teacherRefreshOf(meta.algo, meta.config) : meta.config.teacherRefresh;
  const needs = refresh > 1;
  if (teacher === null) {
    if (needs) refuse(`the run refreshes its teacher every ${refresh} updates, and its teacher checkpoint is missing`);
    return;
  }
  const m = teacher.metadata;
  if (m.stage !== 'teacher') refuse('not a run\'s teacher (metadata.stage is not "teacher")');
  if (!needs) refuse(`a teacher checkpoint, but the run's teacherRefresh is ${refresh}: it holds none`);
  if (typeof m.algo !== 'string' || currentAlgoName(m.algo) !== meta.algo || m.seed !== meta.seed) {
    refuse(`its teacher is of ${quote(m.algo)} seed ${quote(m.seed)}, the run is ${meta.algo} seed ${meta.seed}`);
  }
  const difference = configDifference(teacher.config, current.config);
  if (difference) refuse(`its teacher's model differs from the run's: ${difference}`);
  if (allZero(teacher.params)) refuse("its teacher's weights are all zero, not a trained or initialised model");
}
