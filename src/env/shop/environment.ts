// The shop world behind the environment interface: WebShop-style games over the default catalogue, at a scale.
import type { Environment } from '../environment.ts';
import { ShopGame, SHOP_MAX_STEPS, shopScore, type ShopStepRecord } from './game.ts';
import { TINY_SHOP, type ShopScale } from './scale.ts';
import { shopSceneFromJson, shopSceneToJson, type ShopScene } from './scene.ts';
import { shopActionRefusal } from './site.ts';
import { combinationOf, evalShopScenes, generateShopScene, SHOP_EVAL_COUNTS, validationShopScenes } from './splits.ts';
import { shopTexts } from './vocabulary.ts';
import { WORLD_TASK_TYPES } from '../world_facts.ts';

export type ShopEnvironment = Environment<ShopScene, ShopStepRecord> & { readonly scale: ShopScale };

const cache = new Map<ShopScale, ShopEnvironment>();

export function shopEnvironment(scale: ShopScale = TINY_SHOP): ShopEnvironment {
  let env = cache.get(scale);
  if (!env) {
    env = {
      name: 'shop',
      scale,
      variant: scale.name,
      defaultMaxSteps: SHOP_MAX_STEPS,
      taskTypes: WORLD_TASK_TYPES.shop,
      score: shopScore,
      evalCounts: SHOP_EVAL_COUNTS,
      trainScene: (index, seed) => generateShopScene('train', index, seed, scale),
      sceneOf: (split, index, seed) => generateShopScene(split, index, seed, scale),
      evalScenes: (split, count) => evalShopScenes(split, count, scale),
      validationScenes: (count) => validationShopScenes(count, scale),
      episode: (scene, maxSteps) => new ShopGame(scene, { maxSteps, scale }),
      goal: (scene) => scene.goal.instruction,
      taskType: (scene) => scene.goal.query,
      clusterOf: (scene) => combinationOf(scene.goal),
      sceneToJson: shopSceneToJson,
      sceneFromJson: shopSceneFromJson,
      texts: shopTexts,
      commandRefusal: shopActionRefusal,
    };
    cache.set(scale, env);
  }
  return env;
}

/** The tiny shop, the one the playground trains in. */
export const SHOP = shopEnvironment(TINY_SHOP);
