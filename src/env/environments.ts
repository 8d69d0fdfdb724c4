// The worlds by name, for the command line, the page and the worker.
import { ENVIRONMENT_NAMES, type Environment, type EnvironmentName } from './environment.ts';
import { householdEnvironment } from './household_environment.ts';
import { SCALES, TINY, type RoomScale } from './scale.ts';
import { SHOP } from './shop/environment.ts';

export function isEnvironmentName(name: string): name is EnvironmentName {
  return (ENVIRONMENT_NAMES as readonly string[]).includes(name);
}

/** The variants each world has (environment.ts `variant`). */
export const VARIANTS: Readonly<Record<EnvironmentName, readonly string[]>> = { household: Object.keys(SCALES), shop: ['default'] };

/** The world of a name; the household plays at `scale` (the shop has no room scale). */
export function environmentOf(name: EnvironmentName, scale: RoomScale = TINY): Environment {
  return (name === 'shop' ? SHOP : householdEnvironment(scale)) as Environment;
}
