// What is known of each world without loading it (its rules, catalogue or search engine): its scales, its task
// types and the sizes of its fixed eval sets, for the readers of saved runs and checkpoints that must check them
// on the page's main thread, and for the page's settings.
import type { EnvironmentName } from '../env/environment.ts';
import { SCALES } from './household/env/scale.ts';
import { CATEGORIES } from './shop/env/categories.ts';
import { SHOP_SCALES } from './shop/env/scale.ts';
import { TASK_TYPES } from './household/env/text.ts';

/** The scales each world has (environment.ts `variant`): the household's rooms, the shop's pages. */
export const VARIANTS: Readonly<Record<EnvironmentName, readonly string[]>> = {
  household: Object.keys(SCALES),
  shop: Object.keys(SHOP_SCALES),
};

/** The task types success is reported by: the household's six, the shop's categories. */
export const WORLD_TASK_TYPES: Readonly<Record<EnvironmentName, readonly string[]>> = {
  household: TASK_TYPES,
  shop: CATEGORIES.map((c) => c.query),
};

/**
 * Whether a world grades an episode beyond success (environment.ts `score`): the shop's WebShop score. The
 * page's charts and numbers show a score where this says so.
 */
export const WORLD_SCORED: Readonly<Record<EnvironmentName, boolean>> = {
  household: false,
  shop: true,
};

/** The games of each world's fixed eval sets: the household's as ALFWorld's valid_seen and valid_unseen. */
export const WORLD_EVAL_COUNTS: Readonly<Record<EnvironmentName, Readonly<Record<'seen' | 'unseen', number>>>> = {
  household: { seen: 140, unseen: 134 },
  shop: { seen: 200, unseen: 200 },
};
