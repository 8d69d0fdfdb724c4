// The counter world behind the worlds' interface: a world of the tests, which they register (src/worlds/names.ts
// registerWorldName and each registry's register) and then reach through the registries alone, as any world.
import { type Environment, factsFields } from '../../../../env/environment.ts';
import type { EnvironmentName } from '../../../names.ts';
import { COUNTER_FACTS } from './facts.ts';
import { CounterGame, type CounterStepRecord } from './game.ts';
import { type CounterScene, counterSceneFromJson, counterSceneToJson } from './scene.ts';
import {
  counterCluster,
  counterScene,
  counterTaskType,
  evalCounterScenes,
  validationCounterScenes,
  validationUnseenCounterScenes,
} from './splits.ts';
import { counterTexts, goalOf } from './vocabulary.ts';

/** Its name: no shipped world's, so an EnvironmentName only once the tests register it. */
export const COUNTER_NAME = 'test-counter' as EnvironmentName;

export const COUNTER: Environment<CounterScene, CounterStepRecord> = {
  name: COUNTER_NAME,
  variant: 'tiny',
  ...factsFields(COUNTER_FACTS),
  score: null,
  trainScene: (index, seed) => counterScene('train', index, seed),
  sceneOf: counterScene,
  evalScenes: evalCounterScenes,
  validationScenes: validationCounterScenes,
  validationUnseenScenes: validationUnseenCounterScenes,
  episode: (scene, maxSteps) => new CounterGame(scene, maxSteps),
  goal: (scene) => goalOf(scene.target),
  taskType: counterTaskType,
  clusterOf: counterCluster,
  sceneToJson: counterSceneToJson,
  sceneFromJson: counterSceneFromJson,
  texts: counterTexts,
  commandRefusal: () => null,
};

/** The world at its one scale, 'tiny' (the registry has checked the name against its facts). */
export function counterAtScale(_variant: string): Environment {
  return COUNTER as Environment;
}
