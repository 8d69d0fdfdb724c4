// The household world behind the environment interface: ALFWorld-style rooms at a room scale.
import type { Environment } from '../../../env/environment.ts';
import { Game, type StepRecord } from './game.ts';
import { evalScenes, generateScene, layoutId, validationScenes } from './splits.ts';
import { SCALES, TINY, type RoomScale } from './scale.ts';
import { sceneFromJson, sceneToJson, type Scene } from './scene.ts';
import { allTemplateTexts } from './text.ts';
import { HOUSEHOLD_FACTS } from './facts.ts';
import { environmentWords } from './vocabulary.ts';

export type HouseholdEnvironment = Environment<Scene, StepRecord> & { readonly scale: RoomScale };

const cache = new Map<RoomScale, HouseholdEnvironment>();

export function householdEnvironment(scale: RoomScale = TINY): HouseholdEnvironment {
  let env = cache.get(scale);
  if (!env) {
    env = {
      name: 'household',
      scale,
      variant: scale.name,
      defaultMaxSteps: HOUSEHOLD_FACTS.maxSteps,
      taskTypes: HOUSEHOLD_FACTS.taskTypes,
      score: null,
      evalCounts: HOUSEHOLD_FACTS.evalCounts,
      trainScene: (index, seed) => generateScene('train', index, scale, seed),
      sceneOf: (split, index, seed) => generateScene(split, index, scale, seed),
      evalScenes: (split, count) => evalScenes(split, scale, count),
      validationScenes: (count) => validationScenes(scale, count),
      episode: (scene, maxSteps) => new Game(scene, { maxSteps }),
      goal: (scene) => scene.task.goal,
      taskType: (scene) => scene.task.type,
      clusterOf: (scene) => layoutId(scene, scale),
      sceneToJson,
      sceneFromJson: (text) => sceneFromJson(text),
      texts: () => [...environmentWords(), ...allTemplateTexts()],
      commandRefusal: () => null,
    };
    cache.set(scale, env);
  }
  return env;
}

/** The household at the scale of that name (one of HOUSEHOLD_FACTS.variants): the registry's entry. */
export function householdAtScale(name: string): HouseholdEnvironment {
  return householdEnvironment(SCALES[name]);
}
