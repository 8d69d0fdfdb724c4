// The shop world behind the environment interface: WebShop-style games over the default catalogue.
import type { Environment } from '../environment.ts';
import { ShopGame, SHOP_MAX_STEPS, type ShopStepRecord } from './game.ts';
import { CATEGORIES } from './categories.ts';
import { shopSceneFromJson, shopSceneToJson, type ShopScene } from './scene.ts';
import { combinationOf, evalShopScenes, generateShopScene, SHOP_EVAL_COUNTS, validationShopScenes } from './splits.ts';
import { shopTexts } from './vocabulary.ts';

export type ShopEnvironment = Environment<ShopScene, ShopStepRecord>;

export const SHOP: ShopEnvironment = {
  name: 'shop',
  variant: 'default',
  defaultMaxSteps: SHOP_MAX_STEPS,
  taskTypes: CATEGORIES.map((c) => c.query),
  evalCounts: SHOP_EVAL_COUNTS,
  trainScene: (index, seed) => generateShopScene('train', index, seed),
  sceneOf: (split, index, seed) => generateShopScene(split, index, seed),
  evalScenes: (split, count) => evalShopScenes(split, count),
  validationScenes: (count) => validationShopScenes(count),
  episode: (scene, maxSteps) => new ShopGame(scene, { maxSteps }),
  goal: (scene) => scene.goal.instruction,
  taskType: (scene) => scene.goal.query,
  clusterOf: (scene) => combinationOf(scene.goal),
  sceneToJson: shopSceneToJson,
  sceneFromJson: shopSceneFromJson,
  texts: shopTexts,
};
