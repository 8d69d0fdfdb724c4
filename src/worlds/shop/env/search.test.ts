import { describe, expect, it } from 'vitest';
import type { Product } from './catalogue.ts';
import { ShopSearch } from './search.ts';

function product(id: string, title: string, attributes: string[]): Product {
  return {
    id,
    title,
    attributes,
    category: 'shirts',
    query: 'shirts',
    path: ['clothing'],
    nouns: ['shirt'],
    options: { color: ['black'] },
    priceCents: 1000,
  };
}

const small: Product[] = [
  product('B000000001', 'Kestrel Ceramic Coffee Mug', ['ceramic', 'dishwasher safe']),
  product('B000000002', "Halden Men's Long Sleeve Cotton Oxford Shirt", ['cotton', 'long sleeve']),
  product('B000000003', "Halden Men's Short Sleeve Linen Polo Shirt", ['linen', 'short sleeve']),
  product('B000000004', 'Lumio Modern Metal Desk Lamp', ['metal', 'modern', 'dimmable']),
  product('B000000005', "Sorrel Men's Long Sleeve Linen Oxford Shirt", ['linen', 'long sleeve']),
  product('B000000006', 'Kestrel Ceramic Coffee Mug', ['ceramic', 'dishwasher safe']),
];

describe('ShopSearch', () => {
  const engine = new ShopSearch(small);
  const ids = (query: string) => engine.search(query).map((p) => p.id);

  it('ranks the product that matches every query word first', () => {
    expect(ids('long sleeve cotton oxford shirt')[0]).toBe('B000000002');
    expect(ids('linen polo shirt')[0]).toBe('B000000003');
    expect(ids('dimmable desk lamp')).toEqual(['B000000004']);
  });

  it('ranks partial matches after full ones and leaves out products with no query word', () => {
    const ranked = ids('linen oxford shirt');
    expect(ranked[0]).toBe('B000000005');
    expect(ranked).toHaveLength(3);
    expect(ranked).not.toContain('B000000001');
  });

  it('breaks ties by catalogue order', () => {
    expect(ids('ceramic coffee mug')).toEqual(['B000000001', 'B000000006']);
  });

  it('refuses a catalogue it cannot serve', () => {
    expect(() => new ShopSearch([small[0], small[0]])).toThrow(/products\[1\]\.id B000000001 appears twice/);
  });

  it('returns nothing for words outside the catalogue and respects the limit', () => {
    expect(ids('velvet sofa')).toEqual([]);
    expect(engine.search('shirt', 2)).toHaveLength(2);
  });
});
