import { describe, expect, it } from 'vitest';
import { DEFAULT_CATALOGUE, catalogueOf } from './catalogue.ts';
import { SEP, SELECTED, readSelectedPart, renderPage } from './pages.ts';
import { TINY_SHOP, WEBSHOP } from './scale.ts';

describe('the item page\'s "Selected" part', () => {
  const product = catalogueOf(DEFAULT_CATALOGUE).find((p) => Object.keys(p.options).length >= 2)!;
  const chosen = Object.fromEntries(
    Object.entries(product.options).map(([name, values]) => [name, values[values.length - 1]]),
  );
  const page = { kind: 'item' as const, query: 'q', results: [product], page: 1, product, chosen };

  it('reads back the options the page wrote as chosen, at either scale', () => {
    for (const scale of [TINY_SHOP, WEBSHOP]) {
      const part = renderPage(page, 'i need it', scale)
        .split(SEP)
        .find((p) => p.startsWith(SELECTED));
      expect(Object.fromEntries(readSelectedPart(part))).toEqual(chosen);
    }
  });

  it('reads nothing from another part or none', () => {
    expect(readSelectedPart(undefined).size).toBe(0);
    expect(readSelectedPart(product.title).size).toBe(0);
  });
});
