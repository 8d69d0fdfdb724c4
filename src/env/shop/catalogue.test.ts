import { describe, expect, it } from 'vitest';
import { CATEGORIES } from './categories.ts';
import { CatalogueError, DEFAULT_CATALOGUE, checkCatalogue, generateCatalogue, type Product } from './catalogue.ts';
import { formatPrice } from './pages.ts';

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
