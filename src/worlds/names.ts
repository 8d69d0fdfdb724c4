// The worlds' names: the one list that every registry of src/worlds is filled from (each is a table over
// EnvironmentName, so that a world left out of one does not compile), the world meant where none is named, and
// the one refusal of a name that is no world's. Adding a world is a line here and one in each registry. A world
// of the tests (src/worlds/testing/) is registered while its tests run instead: a name under TEST_WORLD_PREFIX and
// an entry in each registry it needs, which the command line and the page never offer.
import { quote } from '../common/json.ts';

export const ENVIRONMENT_NAMES = ['household', 'shop', 'searchqa'] as const;
export type EnvironmentName = (typeof ENVIRONMENT_NAMES)[number];

/** What the name of a world registered by the tests starts with, so that it is never a shipped world's. */
const TEST_WORLD_PREFIX = 'test-';

const registeredNames = new Set<string>();

export function isEnvironmentName(name: string): name is EnvironmentName {
  return (ENVIRONMENT_NAMES as readonly string[]).includes(name) || registeredNames.has(name);
}

/** Every world: the shipped ones, then those the tests registered (what must see any world, as a vocabulary's). */
export function worldNames(): EnvironmentName[] {
  return [...ENVIRONMENT_NAMES, ...(registeredNames as Set<EnvironmentName>)];
}

/** Registers a world of the tests by its name; what it returns takes it back. */
export function registerWorldName(name: string): () => void {
  if (!name.startsWith(TEST_WORLD_PREFIX) || isEnvironmentName(name))
    throw new RangeError(`${quote(name)} cannot be registered: a new name starting with ${quote(TEST_WORLD_PREFIX)}`);
  registeredNames.add(name);
  return () => registeredNames.delete(name);
}

/** A registry's entries of registered worlds, and how a test registers one (taken back by what it returns). */
export class RegisteredEntries<T> {
  readonly entries = new Map<string, T>();
  readonly register = (name: EnvironmentName, entry: T): (() => void) => {
    if (!registeredNames.has(name)) throw new RangeError(`${quote(name)} is not a registered world`);
    this.entries.set(name, entry);
    return () => this.entries.delete(name);
  };
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

/**
 * A registry's entry for the world `name`, a shipped world's from its table, a registered one's from `registered`;
 * a name that is no world's is refused with the list of the worlds, a registered world without an entry here too.
 */
export function entryOf<T>(
  registry: Readonly<Record<EnvironmentName, T>>,
  name: string,
  registered?: RegisteredEntries<T>,
): T {
  if (!isEnvironmentName(name)) throw new RangeError(unknownWorld(name));
  if (Object.hasOwn(registry, name)) return registry[name];
  const entry = registered?.entries.get(name);
  if (entry === undefined) throw new RangeError(`${quote(name)} has no entry in this registry`);
  return entry;
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
