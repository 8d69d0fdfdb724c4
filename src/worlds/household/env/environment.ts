// The household world behind the environment interface: ALFWorld-style rooms at a room scale.
import { type Environment, factsFields, onePerScale } from '../../../env/environment.ts';
import { Game, type StepRecord } from './game.ts';
import { evalScenes, generateScene, layoutId, validationScenes, validationUnseenScenes } from './splits.ts';
import { SCALES, TINY, type RoomScale } from './scale.ts';
import { sceneFromJson, sceneToJson, type Scene } from './scene.ts';
import { allTemplateTexts } from './text.ts';
import { HOUSEHOLD_FACTS } from './facts.ts';
import { environmentWords } from './vocabulary.ts';

export type HouseholdEnvironment = Environment<Scene, StepRecord> & { readonly scale: RoomScale };

const atScale = onePerScale(
  (scale: RoomScale): HouseholdEnvironment => ({
    name: 'household',
    scale,
    variant: scale.name,
    ...factsFields(HOUSEHOLD_FACTS),
    score: null,
    trainScene: (index, seed) => generateScene('train', index, scale, seed),
    sceneOf: (split, index, seed) => generateScene(split, index, scale, seed),
    evalScenes: (split, count) => evalScenes(split, scale, count),
    validationScenes: (count) => validationScenes(scale, count),
    validationUnseenScenes: (count) => validationUnseenScenes(scale, count),
    episode: (scene, maxSteps) => new Game(scene, { maxSteps }),
    goal: (scene) => scene.task.goal,
    taskType: (scene) => scene.task.type,
    clusterOf: (scene) => layoutId(scene, scale),
    sceneToJson,
    sceneFromJson: (text) => sceneFromJson(text),
    texts: () => [...environmentWords(), ...allTemplateTexts()],
    commandRefusal: () => null,
  }),
);

export function householdEnvironment(scale: RoomScale = TINY): HouseholdEnvironment {
  return atScale(scale);
}

/** The household at the scale of that name (one of HOUSEHOLD_FACTS.variants): the registry's entry. */
export function householdAtScale(name: string): HouseholdEnvironment {
  return householdEnvironment(SCALES[name]);
}
