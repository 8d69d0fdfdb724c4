// The worlds' names: the one list that every registry of src/worlds is filled from (each is a table over
// EnvironmentName, so that a world left out of one does not compile), the world meant where none is named, and
// the one refusal of a name that is no world's. Adding a world is a line here and one in each registry.
import { quote } from '../common/json.ts';

export const ENVIRONMENT_NAMES = ['household', 'shop', 'searchqa'] as const;
export type EnvironmentName = (typeof ENVIRONMENT_NAMES)[number];

export function isEnvironmentName(name: string): name is EnvironmentName {
  return (ENVIRONMENT_NAMES as readonly string[]).includes(name);
}

/**
 * The world meant where none is named: the household, the only world before the shop. A link, a checkpoint's
 * metadata, a benchmark's plan or a command line that names no world means it, so that what was written before
 * the shop means what it meant, and what is written of this world still names none (`namedWorld`).
 */
export const DEFAULT_WORLD: EnvironmentName = 'household';

/** The refusal of a name that is no world's, with the list of the worlds. */
export function unknownWorld(name: unknown): string {
  return `${quote(name)} is not a world (the worlds: ${ENVIRONMENT_NAMES.join(', ')})`;
}

/** A registry's entry for the world `name`; a name that is no world's is refused with the list of the worlds. */
export function entryOf<T>(registry: Readonly<Record<EnvironmentName, T>>, name: string): T {
  if (!isEnvironmentName(name)) throw new RangeError(unknownWorld(name));
  return registry[name];
}

/** The world a link, a file or a record means: the one it names, else the default world. */
export function worldOrDefault(name: EnvironmentName | undefined): EnvironmentName {
  return name ?? DEFAULT_WORLD;
}

/**
 * A world as file names, links and metadata write it: not at all for the default world, whose files, fields and
 * links predate the others (warmstart-tiny.ckpt, learn.md), and by its name for any other (warmstart-shop-tiny.ckpt).
 */
export function namedWorld(name: EnvironmentName): EnvironmentName | undefined {
  return name === DEFAULT_WORLD ? undefined : name;
}

/** What a file name of the world starts with: nothing for the default world, "<name>-" for another (namedWorld). */
export function worldPrefix(name: EnvironmentName): string {
  const named = namedWorld(name);
  return named === undefined ? '' : `${named}-`;
}
