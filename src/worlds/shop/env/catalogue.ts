// The seeded synthetic catalogue: products over the categories of categories.ts, each with a WebShop-style
// id (an ASIN such as "B07X4KQ2ZM"), a title ("Northfold Men's Long Sleeve Cotton Oxford Shirt"), attributes,
// options with their values, and a price. The same seed and size give the same catalogue; `checkCatalogue`
// refuses a hand-built one that the shop could not serve (duplicate ids, an option value under two names, ...).
import { quote } from '../../../common/json.ts';
import { Rng, hashString } from '../../../common/rng.ts';
import { BRANDS, CATEGORIES, type AttributeGroup, type Category } from './categories.ts';
import { BUTTONS } from './buttons.ts';

export interface Product {
  /** Upper case ASIN-like id, unique in the catalogue. */
  id: string;
  title: string;
  category: string;
  /** WebShop's type data: the listing query, the category path and the nouns of the product type. */
  query: string;
  path: readonly string[];
  nouns: readonly string[];
  attributes: readonly string[];
  /** Option name to its values, in display order; every value is distinct across the product's options. */
  options: Readonly<Record<string, readonly string[]>>;
  priceCents: number;
}

export interface CatalogueSpec {
  seed: number;
  size: number;
}

export const DEFAULT_CATALOGUE: CatalogueSpec = { seed: 0, size: 3000 };
const MAX_CATALOGUE_SIZE = 100_000;
const ID_LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const BUTTON_LABELS = new Set(Object.values(BUTTONS).map((label) => label.toLowerCase()));

export class CatalogueError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CatalogueError';
  }
}

export function titleCase(words: string): string {
  return words.replace(/(^|[\s-])([a-z])/g, (_, sep: string, letter: string) => sep + letter.toUpperCase());
}

function drawAttributes(rng: Rng, groups: readonly AttributeGroup[]): { all: string[]; inTitle: string[] } {
  const all: string[] = [];
  const inTitle: string[] = [];
  for (const group of groups) {
    if (!group.always && rng.int(2) === 0) continue;
    const value = rng.pick(group.values);
    all.push(value);
    if (group.inTitle) inTitle.push(value);
  }
  return { all, inTitle };
}

/** A subset of at least two values, kept in the spec's order. */
function drawValues(rng: Rng, values: readonly string[]): string[] {
  const count = 2 + rng.int(values.length - 1);
  const chosen = new Set(rng.shuffle([...values]).slice(0, count));
  return values.filter((v) => chosen.has(v));
}

function drawProduct(rng: Rng, category: Category, id: string): Product {
  const type = rng.pick(category.types);
  const { all, inTitle } = drawAttributes(rng, category.attributes);
  // The material (the first group) reads last before the type: "Long Sleeve Cotton Oxford Shirt".
  const titleWords = [...inTitle.slice(1), ...inTitle.slice(0, 1), type.name].map(titleCase);
  const title = [rng.pick(BRANDS), category.audience, ...titleWords].filter((w) => w !== '').join(' ');
  const options = Object.fromEntries(category.options.map((o) => [o.name, drawValues(rng, o.values)]));
  const [low, high] = category.price;
  return {
    id,
    title,
    category: category.name,
    query: category.query,
    path: category.path,
    nouns: type.nouns,
    attributes: all,
    options,
    priceCents: low * 100 + rng.int((high - low) * 100),
  };
}

function drawId(rng: Rng, taken: Set<string>): string {
  for (;;) {
    let id = 'B0';
    for (let i = 0; i < 8; i++) id += ID_LETTERS[rng.int(ID_LETTERS.length)];
    if (!taken.has(id)) {
      taken.add(id);
      return id;
    }
  }
}

/** `size` products, the categories in turn, drawn from the seed alone. */
export function generateCatalogue(spec: CatalogueSpec = DEFAULT_CATALOGUE): Product[] {
  const { seed, size } = spec;
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff)
    throw new CatalogueError(`catalogue seed must be an integer in 0..2^32-1, got ${quote(seed)}`);
  if (!Number.isInteger(size) || size < CATEGORIES.length || size > MAX_CATALOGUE_SIZE) {
    throw new CatalogueError(
      `catalogue size must be an integer in ${CATEGORIES.length}..${MAX_CATALOGUE_SIZE}, got ${quote(size)}`,
    );
  }
  const rng = new Rng(hashString(`shop/catalogue/${seed}`));
  const taken = new Set<string>();
  const products: Product[] = [];
  for (let i = 0; i < size; i++) products.push(drawProduct(rng, CATEGORIES[i % CATEGORIES.length], drawId(rng, taken)));
  return products;
}

/**
 * How many catalogues stay built. A run plays one (the default: every split and the teacher check draw from
 * it), and scene files name a few; a 100,000-product catalogue takes about 80 MB, and its search index (held
 * by search.ts through a WeakMap keyed by the catalogue, so released with it) about as much again. Keeping
 * every catalogue built would hold all those that scene files name, when each names its own (24 files of
 * 100,000 products: 4 GB); four keep the default and the few others in use, a few hundred MB at most.
 */
export const CATALOGUE_CACHE_SIZE = 4;

/** The catalogues built, by seed and size, the most recently used last. */
const catalogues = new Map<string, Product[]>();

/** The number of catalogues the cache holds now. */
export function cachedCatalogues(): number {
  return catalogues.size;
}

/**
 * The catalogue of a spec, shared (products are never mutated) while it is among the CATALOGUE_CACHE_SIZE most
 * recently used; one used less recently is generated again, the same products from the same seed and size.
 */
export function catalogueOf(spec: CatalogueSpec): Product[] {
  const key = `${spec.seed}/${spec.size}`;
  let products = catalogues.get(key);
  if (products) {
    catalogues.delete(key);
  } else {
    products = generateCatalogue(spec);
    if (catalogues.size >= CATALOGUE_CACHE_SIZE) catalogues.delete(catalogues.keys().next().value!);
  }
  catalogues.set(key, products);
  return products;
}

/** Throws CatalogueError naming the product and field when the catalogue cannot be served. */
export function checkCatalogue(products: readonly Product[]): void {
  if (products.length === 0) throw new CatalogueError('the catalogue is empty');
  const ids = new Set<string>();
  products.forEach((p, i) => {
    const where = `products[${i}]`;
    // Letters and digits both: the tokenizer spells such a word character by character (text/pieces.ts).
    if (!/^[A-Z0-9]{10}$/.test(p.id) || !/[A-Z]/.test(p.id) || !/[0-9]/.test(p.id)) {
      throw new CatalogueError(
        `${where}.id must be 10 upper case letters and digits, both, got ${JSON.stringify(p.id)}`,
      );
    }
    if (ids.has(p.id)) throw new CatalogueError(`${where}.id ${p.id} appears twice`);
    ids.add(p.id);
    if (p.title.trim() === '') throw new CatalogueError(`${where}.title is empty`);
    if (p.nouns.length === 0)
      throw new CatalogueError(`${where}.nouns is empty: the type match needs the product type's nouns`);
    if (!Number.isInteger(p.priceCents) || p.priceCents <= 0)
      throw new CatalogueError(`${where}.priceCents must be a positive integer, got ${p.priceCents}`);
    const seen = new Set<string>();
    for (const [name, values] of Object.entries(p.options)) {
      if (values.length === 0) throw new CatalogueError(`${where}.options.${name} has no values`);
      for (const value of values) {
        if (value !== value.toLowerCase() || value.trim() === '')
          throw new CatalogueError(
            `${where}.options.${name} value ${JSON.stringify(value)} must be non-empty lower case`,
          );
        if (BUTTON_LABELS.has(value))
          throw new CatalogueError(`${where}.options.${name} value "${value}" is a button's label`);
        if (seen.has(value))
          throw new CatalogueError(
            `${where}.options value "${value}" appears under two options: a click on it would be ambiguous`,
          );
        seen.add(value);
      }
    }
  });
}
