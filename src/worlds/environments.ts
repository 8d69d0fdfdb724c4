// The registry of the worlds' environments (env/environment.ts), for the command line, the page's workers and
// the layers that load a world by its name: a line per world.
import type { Environment } from '../env/environment.ts';
import { factsOf, theWorld } from './facts.ts';
import { householdAtScale } from './household/env/environment.ts';
import { entryOf, type EnvironmentName, RegisteredEntries } from './names.ts';
import { searchqaAtScale } from './searchqa/env/environment.ts';
import { shopAtScale } from './shop/env/environment.ts';

/** Each world's environment at a scale of its own, by the scale's name (one of its facts' variants). */
const ENVIRONMENTS: Readonly<Record<EnvironmentName, (variant: string) => Environment>> = {
  household: householdAtScale,
  shop: shopAtScale,
  searchqa: searchqaAtScale,
};

const REGISTERED = new RegisteredEntries<(variant: string) => Environment>();
/** Registers the environment of a world of the tests (names.ts registerWorldName), by its scale's name. */
export const registerEnvironment = REGISTERED.register;

/**
 * The world `name` at a scale of its own ('tiny', every world's default). A name that is no world's is refused
 * with the list of the worlds, a scale the world does not have with the list of its scales.
 */
export function environmentOf(name: EnvironmentName, variant = 'tiny'): Environment {
  const { variants } = factsOf(name);
  if (!variants.includes(variant))
    throw new RangeError(`${theWorld(name)} has no ${JSON.stringify(variant)} scale (${variants.join(', ')})`);
  return entryOf(ENVIRONMENTS, name, REGISTERED)(variant);
}
