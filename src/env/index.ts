// The household environment's public face: scenes and their JSON, the generator and splits, episodes, the
// expert, and the vocabulary.
export { Game, DEFAULT_MAX_STEPS, WIN_REWARD, type GameOptions, type StepRecord, type StepResult } from './game.ts';
export { World, normalise } from './world.ts';
export { planFrom } from './expert.ts';
export {
  EVAL_COUNTS, EVAL_SEED, SPLITS, VALIDATION_SEED, evalScenes, generateScene, validationScenes, layoutKey, roomLayout, type LayoutPool, type Split,
} from './generate.ts';
export { ALFWORLD, SCALES, TINY, scaleNamed, type RoomScale } from './scale.ts';
export {
  ROOM_KINDS, SceneError, canonicalScene, checkScene, sceneFromJson, sceneToJson, type RoomKind, type Scene, type Task,
} from './scene.ts';
export { TASK_TYPES, GOAL_TEMPLATES, type TaskType } from './text.ts';
export { OBJECT_KINDS, RECEPTACLE_KINDS, MAX_INSTANCE_NUMBER, LAMP_TYPES } from './knowledge.ts';
export { environmentWords, splitWords } from './vocabulary.ts';
