// The registry of the worlds' training sides (rl/rl_world.ts), by their environments: a line per world.
import type { Environment } from '../env/environment.ts';
import type { RlWorld } from '../rl/rl_world.ts';
import { householdRlOf } from './household/rl/adapter.ts';
import { entryOf, type EnvironmentName, RegisteredEntries } from './names.ts';
import { qaRlOf } from './searchqa/rl/adapter.ts';
import { shopRlOf } from './shop/rl/adapter.ts';

/** Each world's training side of one of its environments (at its scale). */
const RL_WORLDS: Readonly<Record<EnvironmentName, (env: Environment) => RlWorld>> = {
  household: householdRlOf,
  shop: shopRlOf,
  searchqa: qaRlOf,
};

const REGISTERED = new RegisteredEntries<(env: Environment) => RlWorld>();
/** Registers the training side of a world of the tests (names.ts registerWorldName). */
export const registerRlWorld = REGISTERED.register;

/** The training side of a world's environment; an environment of no registered world is refused with the list. */
export function rlWorldOf(env: Environment): RlWorld {
  return entryOf(RL_WORLDS, env.name, REGISTERED)(env);
}
