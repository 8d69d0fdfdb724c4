// The shop's splits. A game's combination is its product type with the attributes its instruction asks for
// ("oxford shirt" + "cotton, long sleeve"). One combination in five, chosen by a hash, is held out:
//   train:  generateShopScene('train', i): targets and goals whose combination is not held out.
//   seen:   the same combinations with their own stream of games (WebShop's and ALFWorld's seen split).
//   unseen: held-out combinations only: every word, type and attribute is known from training, the way they
//           are combined is not, so the split measures whether the procedure (search with the wanted words,
//           open a fitting item, choose its options) carries over rather than memorised queries. Held-out
//           categories would instead put type words that training never showed in front of the policy.
// The fixed evaluation sets use every world's EVAL_SEED. Validation games are drawn with a seed of their own, so
// that no choice scores on the reported evaluation nor on games a training run plays: validation, of the seen
// split (the teacher check's games), and validation-unseen, of the unseen split less every game whose combination
// eval-unseen holds (the sweeps' games: held-out combinations that no eval set holds).
// Every game is one the expert solves: a drawn goal whose search finds no fitting product is drawn again.
import { Rng, hashString } from '../../../common/rng.ts';
import { EVAL_SEED } from '../../../env/environment.ts';
import { DEFAULT_CATALOGUE, catalogueOf, type CatalogueSpec } from './catalogue.ts';
import { planFromSearch } from './expert.ts';
import { drawGoal, type ShopGoal } from './goal.ts';
import type { ShopScene } from './scene.ts';
import { TINY_SHOP, type ShopScale } from './scale.ts';
import { searchEngineOf } from './search.ts';
import { SHOP_FACTS } from './facts.ts';

export type ShopSplit = 'train' | 'seen' | 'unseen';
const SHOP_SPLITS: readonly ShopSplit[] = ['train', 'seen', 'unseen'];
export const SHOP_EVAL_COUNTS = SHOP_FACTS.evalCounts;
const SHOP_VALIDATION_SEED = 2027;
const HELD_OUT_ONE_IN = 5;
const MAX_DRAWS = 1000;

export function combinationOf(goal: Pick<ShopGoal, 'typeName' | 'attributes'>): string {
  return `${goal.typeName}/${[...goal.attributes].sort().join('+')}`;
}

export function isHeldOut(goal: Pick<ShopGoal, 'typeName' | 'attributes'>): boolean {
  return hashString(`shop/held-out/${combinationOf(goal)}`) % HELD_OUT_ONE_IN === 0;
}

/** Game `index` of a split: the same split, index, seed and catalogue give the same scene. */
export function generateShopScene(
  split: ShopSplit,
  index: number,
  seed = 0,
  scale: ShopScale = TINY_SHOP,
  catalogue: CatalogueSpec = DEFAULT_CATALOGUE,
): ShopScene {
  if (!SHOP_SPLITS.includes(split)) throw new RangeError(`unknown shop split "${split}" (${SHOP_SPLITS.join(', ')})`);
  if (!Number.isInteger(index) || index < 0)
    throw new RangeError(`game index must be a non-negative integer, got ${index}`);
  const products = catalogueOf(catalogue);
  const engine = searchEngineOf(products);
  // WebShop's games keep the stream they had before scales existed; the tiny shop's are drawn apart.
  const rng = new Rng(
    hashString(
      scale === TINY_SHOP ? `shop/${scale.name}/game/${split}/${seed}/${index}` : `shop/game/${split}/${seed}/${index}`,
    ),
  );
  for (let draw = 0; draw < MAX_DRAWS; draw++) {
    const target = rng.pick(products);
    const goal = drawGoal(rng, target);
    if (isHeldOut(goal) !== (split === 'unseen')) continue;
    if (planFromSearch(engine, goal, target.title, scale) === null) continue;
    return { catalogue, goal };
  }
  throw new Error(
    `no ${split} game found in ${MAX_DRAWS} draws (catalogue seed ${catalogue.seed}, size ${catalogue.size})`,
  );
}

export function evalShopScenes(
  split: 'seen' | 'unseen',
  count = SHOP_EVAL_COUNTS[split],
  scale: ShopScale = TINY_SHOP,
): ShopScene[] {
  return Array.from({ length: count }, (_, i) => generateShopScene(split, i, EVAL_SEED, scale));
}

export function validationShopScenes(count = SHOP_EVAL_COUNTS.seen, scale: ShopScale = TINY_SHOP): ShopScene[] {
  return Array.from({ length: count }, (_, i) => generateShopScene('seen', i, SHOP_VALIDATION_SEED, scale));
}

const evalUnseenCombinations = new WeakMap<ShopScale, ReadonlySet<string>>();

/** The validation-unseen games: unseen games under the validation seed whose combination no eval-unseen game has. */
export function validationUnseenShopScenes(count = SHOP_EVAL_COUNTS.unseen, scale: ShopScale = TINY_SHOP): ShopScene[] {
  let reported = evalUnseenCombinations.get(scale);
  if (reported === undefined) {
    reported = new Set(evalShopScenes('unseen', SHOP_EVAL_COUNTS.unseen, scale).map((s) => combinationOf(s.goal)));
    evalUnseenCombinations.set(scale, reported);
  }
  const out: ShopScene[] = [];
  for (let i = 0; out.length < count; i++) {
    if (i >= MAX_DRAWS * Math.max(1, count))
      throw new Error(
        `only ${out.length} of ${count} validation-unseen games in ${i} draws: eval-unseen holds the rest`,
      );
    const scene = generateShopScene('unseen', i, SHOP_VALIDATION_SEED, scale);
    if (!reported.has(combinationOf(scene.goal))) out.push(scene);
  }
  return out;
}
