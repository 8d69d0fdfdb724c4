// The registry of what is known of each world without loading it (src/env/world_facts.ts): light enough for the
// page's main thread, which reads the scales, task types, eval counts and training settings of a world from it,
// and for the command line's help and reports.
import type { WorldFacts } from '../env/world_facts.ts';
import { HOUSEHOLD_FACTS } from './household/env/facts.ts';
import { ENVIRONMENT_NAMES, entryOf, type EnvironmentName, RegisteredEntries, worldNames } from './names.ts';
import { SEARCHQA_FACTS } from './searchqa/env/facts.ts';
import { SHOP_FACTS } from './shop/env/facts.ts';

const WORLD_FACTS: Readonly<Record<EnvironmentName, WorldFacts>> = {
  household: HOUSEHOLD_FACTS,
  shop: SHOP_FACTS,
  searchqa: SEARCHQA_FACTS,
};

const REGISTERED = new RegisteredEntries<WorldFacts>();
/** Registers the facts of a world of the tests (names.ts registerWorldName). */
export const registerFacts = REGISTERED.register;

/** The facts of the world `name`; a name that is no world's is refused with the list of the worlds. */
export function factsOf(name: string): WorldFacts {
  return entryOf(WORLD_FACTS, name, REGISTERED);
}

/**
 * The world `name` in a sentence ("the shop", "the search-QA world": WorldWords.called), with a capital at the
 * start of a sentence.
 */
export function theWorld(name: string, start = false): string {
  const called = factsOf(name).words.called ?? `the ${name}`;
  return start ? called.charAt(0).toUpperCase() + called.slice(1) : called;
}

/** Every world's scale names, each once, in the worlds' order: what `--scale` takes. */
export function allVariants(): string[] {
  return [...new Set(ENVIRONMENT_NAMES.flatMap((name) => WORLD_FACTS[name].variants))];
}

/**
 * Whether a line of an opening observation is one that the policy does not read there (WorldFacts.openingFrame):
 * any world's, since no world prints another's (text/prompts.ts openingRoomText).
 */
export function isOpeningFrameLine(line: string): boolean {
  return worldNames().some((name) => {
    const { lines, prefixes } = factsOf(name).openingFrame;
    return lines.includes(line) || prefixes.some((prefix) => line.startsWith(prefix));
  });
}
