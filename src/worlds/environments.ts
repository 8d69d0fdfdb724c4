// The worlds by name, for the command line, the page and the worker.
import type { Environment, EnvironmentName } from '../env/environment.ts';
import { householdEnvironment } from './household/env/household_environment.ts';
import { SCALES } from './household/env/scale.ts';
import { VARIANTS } from './facts.ts';
import { shopEnvironment } from './shop/env/environment.ts';
import { SHOP_SCALES, type ShopScale } from './shop/env/scale.ts';

/** The world of a name at a scale of its own (both worlds have a 'tiny' one, the default). */
export function environmentOf(name: EnvironmentName, variant = 'tiny'): Environment {
  if (!VARIANTS[name].includes(variant))
    throw new RangeError(`the ${name} has no ${JSON.stringify(variant)} scale (${VARIANTS[name].join(', ')})`);
  return name === 'shop'
    ? shopEnvironment(SHOP_SCALES[variant as ShopScale['name']])
    : householdEnvironment(SCALES[variant]);
}
