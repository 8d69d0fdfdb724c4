import { describe, expect, it } from 'vitest';
import { CATEGORIES } from './categories.ts';
import {
  CATALOGUE_CACHE_SIZE,
  CatalogueError,
  DEFAULT_CATALOGUE,
  cachedCatalogues,
  catalogueOf,
  checkCatalogue,
  generateCatalogue,
  type Product,
} from './catalogue.ts';
import { ShopGame } from './game.ts';
import { formatPrice } from './pages.ts';
import { generateShopScene } from './splits.ts';

describe('generateCatalogue', () => {
  const catalogue = generateCatalogue();

  it('gives the same catalogue for the same seed and another for another seed', () => {
    expect(generateCatalogue({ seed: 0, size: 3000 })).toEqual(catalogue);
    const other = generateCatalogue({ seed: 1, size: 3000 });
    expect(other.map((p) => p.id)).not.toEqual(catalogue.map((p) => p.id));
    expect(other.map((p) => p.title)).not.toEqual(catalogue.map((p) => p.title));
  });

  it('holds thousands of valid products over every category, in WebShop style', () => {
    expect(catalogue).toHaveLength(DEFAULT_CATALOGUE.size);
    expect(() => checkCatalogue(catalogue)).not.toThrow();
    for (const category of CATEGORIES) expect(catalogue.filter((p) => p.category === category.name).length).toBe(600);
    const shirt = catalogue.find((p) => p.category === 'shirts' && p.attributes.includes('long sleeve'))!;
    expect(shirt.title).toMatch(
      /^[A-Z][a-z]+ Men's (.* )?Long Sleeve (.* )?(Cotton|Linen|Polyester|Bamboo) [A-Z][a-z]+ Shirt$/,
    );
    expect(shirt.id).toMatch(/^B0[A-Z0-9]{8}$/);
    for (const p of catalogue) {
      const [low, high] = CATEGORIES.find((c) => c.name === p.category)!.price;
      expect(p.priceCents).toBeGreaterThanOrEqual(low * 100);
      expect(p.priceCents).toBeLessThan(high * 100);
    }
  });

  it('refuses a bad seed or size', () => {
    expect(() => generateCatalogue({ seed: -1, size: 10 })).toThrow(CatalogueError);
    expect(() => generateCatalogue({ seed: 0, size: 2 })).toThrow(/catalogue size must be an integer in 5\.\./);
    expect(() => generateCatalogue({ seed: 0, size: 1.5 })).toThrow(CatalogueError);
    // A seed or size of the wrong type reads as what it is (a scene file's "1" is not the number 1).
    expect(() => generateCatalogue({ seed: '1' as unknown as number, size: 10 })).toThrow(
      'catalogue seed must be an integer in 0..2^32-1, got "1"',
    );
    expect(() => generateCatalogue({ seed: 0, size: -1 })).toThrow(/, got -1$/);
  });

  it('formats prices as WebShop does', () => {
    expect(formatPrice(2091)).toBe('$20.91');
    expect(formatPrice(500)).toBe('$5.00');
  });
});

describe('checkCatalogue', () => {
  const good: Product = {
    id: 'B000000001',
    title: 'Kestrel Ceramic Coffee Mug',
    category: 'mugs',
    query: 'mugs',
    path: ['home & kitchen'],
    nouns: ['coffee', 'mug'],
    attributes: ['ceramic'],
    options: { color: ['white', 'black'] },
    priceCents: 999,
  };

  it('names the product and field at fault', () => {
    expect(() => checkCatalogue([])).toThrow(/empty/);
    expect(() => checkCatalogue([good, good])).toThrow(/products\[1\]\.id B000000001 appears twice/);
    expect(() => checkCatalogue([{ ...good, id: 'b0x' }])).toThrow(/products\[0\]\.id must be 10/);
    expect(() => checkCatalogue([{ ...good, id: 'BQXMKHAAQZ' }])).toThrow(/letters and digits, both/);
    expect(() => checkCatalogue([{ ...good, id: '0123456789' }])).toThrow(/letters and digits, both/);
    expect(() => checkCatalogue([{ ...good, title: ' ' }])).toThrow(/products\[0\]\.title is empty/);
    expect(() => checkCatalogue([{ ...good, nouns: [] }])).toThrow(/nouns is empty/);
    expect(() => checkCatalogue([{ ...good, priceCents: -5 }])).toThrow(/priceCents must be a positive integer/);
    expect(() => checkCatalogue([{ ...good, options: { color: ['white'], size: ['white'] } }])).toThrow(
      /appears under two options/,
    );
    expect(() => checkCatalogue([{ ...good, options: { color: ['White'] } }])).toThrow(/lower case/);
    expect(() => checkCatalogue([{ ...good, options: { color: [] } }])).toThrow(/has no values/);
    expect(() => checkCatalogue([{ ...good, options: { color: ['buy now'] } }])).toThrow(
      /options\.color value "buy now" is a button's label/,
    );
    expect(() => checkCatalogue([good])).not.toThrow();
  });
});

describe('catalogueOf', () => {
  // Small catalogues of their own seeds: scene files may each name one.
  const specs = Array.from({ length: CATALOGUE_CACHE_SIZE + 3 }, (_, i) => ({ seed: 900 + i, size: 40 }));

  it('keeps at most CATALOGUE_CACHE_SIZE catalogues, the most recently used, and builds another one again alike', () => {
    const first = specs.map((spec) => {
      const products = catalogueOf(spec);
      expect(cachedCatalogues()).toBeLessThanOrEqual(CATALOGUE_CACHE_SIZE);
      return products;
    });
    // The last CATALOGUE_CACHE_SIZE are shared as built; the first, evicted, is built again with the same products.
    for (const i of [specs.length - 1, specs.length - CATALOGUE_CACHE_SIZE])
      expect(catalogueOf(specs[i])).toBe(first[i]);
    const again = catalogueOf(specs[0]);
    expect(again).not.toBe(first[0]);
    expect(again).toEqual(first[0]);
    expect(again).toEqual(generateCatalogue(specs[0]));
    expect(cachedCatalogues()).toBe(CATALOGUE_CACHE_SIZE);
    // A use moves a catalogue to the end: the one used just before the rebuild outlives those used earlier.
    catalogueOf(specs[specs.length - CATALOGUE_CACHE_SIZE]);
    catalogueOf(specs[1]);
    expect(catalogueOf(specs[specs.length - CATALOGUE_CACHE_SIZE])).toBe(first[specs.length - CATALOGUE_CACHE_SIZE]);
  });

  it('gives the same games whether a catalogue was kept or built again', () => {
    const scenes = specs.map((spec, i) => generateShopScene('train', i, 1, undefined, spec));
    const play = () =>
      scenes.map((scene) => {
        const game = new ShopGame(scene);
        for (const command of game.expertPlan()) game.step(command);
        expect(cachedCatalogues()).toBeLessThanOrEqual(CATALOGUE_CACHE_SIZE);
        return { won: game.won, observations: game.records.map((r) => r.observation) };
      });
    const once = play();
    expect(once.every((g) => g.won)).toBe(true);
    expect(play()).toEqual(once);
  });
});
