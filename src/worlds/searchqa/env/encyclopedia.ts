// The seeded synthetic encyclopedia the questions are asked about: countries with their capital and
// neighbours, cities, people (born in a year in a country, working as something in a city, often of another
// country, which a bridge question must not confuse with the country of birth) and organisations (founded in a
// year by a person, based in a city). Each entity is written as one or two short passages, one fact each, as
// HotpotQA's Wikipedia paragraphs are cut to a few sentences; retrieval (search.ts) ranks passages, not
// entities. The same seed gives the same entities and the same text, bit for bit, on every platform (one
// stream of common/rng.ts per seed).
import { Rng, hashString } from '../../../common/rng.ts';
import { FIRST_YEAR, LAST_YEAR, NAMES, OCCUPATIONS, ORGANISATION_KINDS } from './name_stock.ts';

export interface EncyclopediaSpec {
  /** Any integer from 0 to 2^32 - 1. */
  seed: number;
}

export const DEFAULT_ENCYCLOPEDIA: EncyclopediaSpec = Object.freeze({ seed: 1 });
export const MAX_ENCYCLOPEDIA_SEED = 0xffffffff;

export interface Country {
  name: string;
  capital: string;
  borders: readonly [string, string];
}

export interface City {
  name: string;
  country: string;
}

export interface Person {
  name: string;
  born: number;
  country: string;
  occupation: string;
  /** Where the person worked: any city, usually one of another country than the country of birth. */
  city: string;
}

export interface Organisation {
  name: string;
  founder: string;
  founded: number;
  city: string;
}

export type EntityKind = 'country' | 'city' | 'person' | 'organisation';

/** What a passage states about its entity; a passage states exactly one. */
export type Relation = 'capital' | 'borders' | 'city' | 'born' | 'work' | 'founded' | 'based';

export interface Passage {
  /** Its place in the encyclopedia, which breaks ties in retrieval. */
  index: number;
  entity: string;
  relation: Relation;
  text: string;
  /** The names and years the passage prints, in order: what an answer may be drawn from (game.ts). */
  mentions: readonly string[];
}

export interface Encyclopedia {
  spec: EncyclopediaSpec;
  countries: readonly Country[];
  cities: readonly City[];
  people: readonly Person[];
  organisations: readonly Organisation[];
  passages: readonly Passage[];
  /** Every entity's kind by its name (names are unique across kinds). */
  kinds: ReadonlyMap<string, EntityKind>;
  /** The passage that states `relation` of `entity`, keyed `${entity}/${relation}`. */
  passageOf: ReadonlyMap<string, Passage>;
}

export const SIZES = { countries: NAMES.countries.length, cities: NAMES.cities.length, people: 100, organisations: 30 };
/** A founder founds an organisation from this age, and before AGE_AT_FOUNDING + FOUNDING_SPAN. */
const AGE_AT_FOUNDING = 25;
const FOUNDING_SPAN = 25;
const BIRTH_SPAN = LAST_YEAR - FIRST_YEAR + 1 - AGE_AT_FOUNDING - FOUNDING_SPAN;

/**
 * The passages' frames: {x} slots take a name, a year or an occupation. vocabulary.ts reads the words between
 * the slots, so a frame changed here changes the vocabulary with it.
 */
export const PASSAGE_FRAMES: Readonly<Record<Relation, string>> = {
  capital: 'The capital of {country} is {city}.',
  borders: '{country} borders {a} and {b}.',
  city: '{city} is a city in {country}.',
  born: '{person} was born in {year} in {country}.',
  work: '{person} worked as a {occupation} in {city}.',
  founded: 'The {organisation} was founded in {year} by {person}.',
  based: 'The {organisation} is based in {city}.',
};

/** A frame with its slots filled; every slot must have a value. */
export function fill(frame: string, values: Readonly<Record<string, string>>): string {
  return frame.replace(/\{(\w+)\}/g, (_, slot: string) => {
    if (!Object.hasOwn(values, slot)) throw new RangeError(`no value for the slot {${slot}} of "${frame}"`);
    return values[slot];
  });
}

export function passageKey(entity: string, relation: Relation): string {
  return `${entity}/${relation}`;
}

function drawDistinct(count: number, draw: () => string): string[] {
  const names = new Set<string>();
  while (names.size < count) names.add(draw());
  return [...names];
}

function generate(spec: EncyclopediaSpec): Encyclopedia {
  const rng = new Rng(hashString(`searchqa/encyclopedia/${spec.seed}`));
  const countryNames = rng.shuffle([...NAMES.countries]);
  const cityNames = rng.shuffle([...NAMES.cities]);
  const perCountry = cityNames.length / countryNames.length;
  // Neighbours on a ring: every country has two, and each border is written from both sides.
  const countries: Country[] = countryNames.map((name, i) => ({
    name,
    capital: cityNames[i * perCountry],
    borders: [
      countryNames[(i + countryNames.length - 1) % countryNames.length],
      countryNames[(i + 1) % countryNames.length],
    ],
  }));
  const cities: City[] = cityNames.map((name, i) => ({ name, country: countryNames[Math.floor(i / perCountry)] }));
  const peopleRng = rng.fork('people');
  const people: Person[] = drawDistinct(
    SIZES.people,
    () => `${peopleRng.pick(NAMES.firstNames)} ${peopleRng.pick(NAMES.surnames)}`,
  ).map((name) => ({
    name,
    born: FIRST_YEAR + peopleRng.int(BIRTH_SPAN),
    country: peopleRng.pick(countryNames),
    occupation: peopleRng.pick(OCCUPATIONS),
    city: peopleRng.pick(cityNames),
  }));
  const orgRng = rng.fork('organisations');
  const organisations: Organisation[] = drawDistinct(
    SIZES.organisations,
    () => `${orgRng.pick(NAMES.organisationWords)} ${orgRng.pick(ORGANISATION_KINDS)}`,
  ).map((name) => {
    const founder = orgRng.pick(people);
    return {
      name,
      founder: founder.name,
      founded: founder.born + AGE_AT_FOUNDING + orgRng.int(FOUNDING_SPAN),
      city: orgRng.pick(cityNames),
    };
  });
  return assemble(spec, countries, cities, people, organisations);
}

function assemble(
  spec: EncyclopediaSpec,
  countries: readonly Country[],
  cities: readonly City[],
  people: readonly Person[],
  organisations: readonly Organisation[],
): Encyclopedia {
  const passages: Passage[] = [];
  const add = (entity: string, relation: Relation, values: Record<string, string>, mentions: string[]) => {
    const text = fill(PASSAGE_FRAMES[relation], values);
    passages.push({ index: passages.length, entity, relation, text, mentions });
  };
  for (const c of countries) {
    add(c.name, 'capital', { country: c.name, city: c.capital }, [c.name, c.capital]);
    add(c.name, 'borders', { country: c.name, a: c.borders[0], b: c.borders[1] }, [c.name, ...c.borders]);
  }
  for (const c of cities) add(c.name, 'city', { city: c.name, country: c.country }, [c.name, c.country]);
  for (const p of people) {
    const year = String(p.born);
    add(p.name, 'born', { person: p.name, year, country: p.country }, [p.name, year, p.country]);
    add(p.name, 'work', { person: p.name, occupation: p.occupation, city: p.city }, [p.name, p.city]);
  }
  for (const o of organisations) {
    const year = String(o.founded);
    add(o.name, 'founded', { organisation: o.name, year, person: o.founder }, [o.name, year, o.founder]);
    add(o.name, 'based', { organisation: o.name, city: o.city }, [o.name, o.city]);
  }
  const kinds = new Map<string, EntityKind>();
  for (const [kind, list] of [
    ['country', countries],
    ['city', cities],
    ['person', people],
    ['organisation', organisations],
  ] as const) {
    for (const { name } of list) {
      if (kinds.has(name)) throw new Error(`the encyclopedia names two entities ${name}`);
      kinds.set(name, kind);
    }
  }
  const passageOf = new Map(passages.map((p) => [passageKey(p.entity, p.relation), p]));
  return { spec, countries, cities, people, organisations, passages, kinds, passageOf };
}

/** Few seeds are played at once (the default one nearly always); a reader of many scenes keeps no more. */
const CACHE_LIMIT = 8;
const cache = new Map<number, Encyclopedia>();

/** The encyclopedia of a seed, built once while it stays among the last few used. */
export function encyclopediaOf(spec: EncyclopediaSpec = DEFAULT_ENCYCLOPEDIA): Encyclopedia {
  const { seed } = spec;
  if (!Number.isInteger(seed) || seed < 0 || seed > MAX_ENCYCLOPEDIA_SEED)
    throw new RangeError(`an encyclopedia seed is an integer from 0 to ${MAX_ENCYCLOPEDIA_SEED}, got ${seed}`);
  let enc = cache.get(seed);
  if (enc) {
    cache.delete(seed);
  } else {
    enc = generate({ seed });
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
  }
  cache.set(seed, enc);
  return enc;
}

export function personOf(enc: Encyclopedia, name: string): Person {
  return lookUp(enc.people, name, 'person');
}

export function countryOf(enc: Encyclopedia, name: string): Country {
  return lookUp(enc.countries, name, 'country');
}

export function cityOf(enc: Encyclopedia, name: string): City {
  return lookUp(enc.cities, name, 'city');
}

export function organisationOf(enc: Encyclopedia, name: string): Organisation {
  return lookUp(enc.organisations, name, 'organisation');
}

function lookUp<T extends { name: string }>(list: readonly T[], name: string, kind: EntityKind): T {
  const found = list.find((e) => e.name === name);
  if (!found) throw new RangeError(`no ${kind} named ${JSON.stringify(name)} in the encyclopedia`);
  return found;
}
