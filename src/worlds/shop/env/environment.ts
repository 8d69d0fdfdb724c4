// The shop world behind the environment interface: WebShop-style games over the default catalogue, at a scale.
import { type Environment, factsFields, onePerScale } from '../../../env/environment.ts';
import { ShopGame, shopScore, type ShopStepRecord } from './game.ts';
import { SHOP_SCALES, TINY_SHOP, type ShopScale } from './scale.ts';
import { SHOP_FACTS } from './facts.ts';
import { shopSceneFromJson, shopSceneToJson, type ShopScene } from './scene.ts';
import { MAX_QUERY_PIECES, shopActionRefusal } from './site.ts';
import {
  combinationOf,
  evalShopScenes,
  generateShopScene,
  validationShopScenes,
  validationUnseenShopScenes,
} from './splits.ts';
import { queryTexts, shopTexts } from './vocabulary.ts';

let queryChars = 0;
/** The longest search the policy's bar writes: MAX_QUERY_PIECES of the longest piece a query may hold, spaced. */
function maxQueryChars(): number {
  if (queryChars === 0) {
    const longest = Math.max(...queryTexts().flatMap((t) => t.split(/\s+/).map((w) => w.length)));
    queryChars = MAX_QUERY_PIECES * (longest + 1) - 1;
  }
  return queryChars;
}

export type ShopEnvironment = Environment<ShopScene, ShopStepRecord> & { readonly scale: ShopScale };

const atScale = onePerScale(
  (scale: ShopScale): ShopEnvironment => ({
    name: 'shop',
    scale,
    variant: scale.name,
    ...factsFields(SHOP_FACTS),
    score: shopScore,
    trainScene: (index, seed) => generateShopScene('train', index, seed, scale),
    sceneOf: (split, index, seed) => generateShopScene(split, index, seed, scale),
    evalScenes: (split, count) => evalShopScenes(split, count, scale),
    validationScenes: (count) => validationShopScenes(count, scale),
    validationUnseenScenes: (count) => validationUnseenShopScenes(count, scale),
    episode: (scene, maxSteps) => new ShopGame(scene, { maxSteps, scale }),
    goal: (scene) => scene.goal.instruction,
    taskType: (scene) => scene.goal.query,
    clusterOf: (scene) => combinationOf(scene.goal),
    sceneToJson: shopSceneToJson,
    sceneFromJson: shopSceneFromJson,
    texts: shopTexts,
    commandRefusal: (action) => shopActionRefusal(action, maxQueryChars()),
    sharedResource: (scene) => `${scene.catalogue.seed}/${scene.catalogue.size}`,
  }),
);

export function shopEnvironment(scale: ShopScale = TINY_SHOP): ShopEnvironment {
  return atScale(scale);
}

/** The tiny shop, the one the playground trains in. */
export const SHOP = shopEnvironment(TINY_SHOP);

/** The shop at the scale of that name (one of SHOP_FACTS.variants): the registry's entry. */
export function shopAtScale(name: string): ShopEnvironment {
  return shopEnvironment(SHOP_SCALES[name as ShopScale['name']]);
}
