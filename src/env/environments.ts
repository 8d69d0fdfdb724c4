// The worlds by name, for the command line, the page and the worker.
import { ENVIRONMENT_NAMES, type Environment, type EnvironmentName } from './environment.ts';
import { householdEnvironment } from './household_environment.ts';
import { SCALES } from './scale.ts';
import { shopEnvironment } from './shop/environment.ts';
import { SHOP_SCALES, type ShopScale } from './shop/scale.ts';

export function isEnvironmentName(name: string): name is EnvironmentName {
  return (ENVIRONMENT_NAMES as readonly string[]).includes(name);
}

/** The scales each world has (environment.ts `variant`): the household's rooms, the shop's pages. */
export const VARIANTS: Readonly<Record<EnvironmentName, readonly string[]>> = { household: Object.keys(SCALES), shop: Object.keys(SHOP_SCALES) };

/** The world of a name at a scale of its own (both worlds have a 'tiny' one, the default). */
export function environmentOf(name: EnvironmentName, variant = 'tiny'): Environment {
  if (!VARIANTS[name].includes(variant)) throw new RangeError(`the ${name} has no ${JSON.stringify(variant)} scale (${VARIANTS[name].join(', ')})`);
  return name === 'shop' ? shopEnvironment(SHOP_SCALES[variant as ShopScale['name']]) : householdEnvironment(SCALES[variant]);
}
