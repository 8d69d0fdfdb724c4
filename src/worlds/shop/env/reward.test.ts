import { describe, expect, it } from 'vitest';
import type { Product } from './catalogue.ts';
import { shopReward, typeReward, type GoalRequirements } from './reward.ts';

const shirtPath = ['clothing, shoes & jewelry', 'men', 'clothing', 'shirts'];
const shirt: Product = {
  id: 'B000000001',
  title: "Halden Men's Long Sleeve Cotton Oxford Shirt",
  category: 'shirts',
  query: 'shirts',
  path: shirtPath,
  nouns: ['oxford', 'shirt'],
  attributes: ['cotton', 'long sleeve', 'machine washable'],
  options: { color: ['navy', 'white'], size: ['medium', 'large'] },
  priceCents: 2499,
};
// i need a long sleeve cotton oxford shirt, in navy, size large, and price lower than 30.00 dollars
const goal: GoalRequirements = {
  query: 'shirts',
  path: shirtPath,
  nouns: ['oxford', 'shirt'],
  attributes: ['cotton', 'long sleeve'],
  options: { color: 'navy', size: 'large' },
  priceUpperCents: 3000,
};

describe('shopReward (WebShop get_reward)', () => {
  it('is 1 for a full match', () => {
    expect(shopReward(shirt, { color: 'navy', size: 'large' }, goal)).toEqual({
      reward: 1,
      typeFactor: 1,
      attributeMatches: 2,
      optionMatches: 2,
      priceMatch: true,
    });
  });

  it('counts attributes and options matched over |U_att| + |U_opt| + 1', () => {
    const linen = {
      ...shirt,
      title: "Halden Men's Long Sleeve Linen Oxford Shirt",
      attributes: ['linen', 'long sleeve'],
    };
    // (1 attribute + 1 option + price) / (2 + 2 + 1)
    expect(shopReward(linen, { color: 'white', size: 'large' }, goal).reward).toBeCloseTo(3 / 5, 12);
    // an option left unchosen matches nothing: (2 + 1 + 1) / 5
    expect(shopReward(shirt, { color: 'navy' }, goal).reward).toBeCloseTo(4 / 5, 12);
  });

  it('counts an attribute that the title names, as WebShop does', () => {
    const titled = { ...shirt, attributes: ['cotton'] };
    expect(shopReward(titled, { color: 'navy', size: 'large' }, goal).attributeMatches).toBe(2);
  });

  it('loses the price point over the bound', () => {
    const dear = { ...shirt, priceCents: 3001 };
    const parts = shopReward(dear, { color: 'navy', size: 'large' }, goal);
    expect(parts.priceMatch).toBe(false);
    expect(parts.reward).toBeCloseTo(4 / 5, 12);
    expect(shopReward({ ...shirt, priceCents: 3000 }, { color: 'navy', size: 'large' }, goal).reward).toBe(1);
  });

  it('is 0 for a product of another type, whatever else matches', () => {
    const mug: Product = {
      ...shirt,
      title: 'Kestrel Cotton Coffee Mug',
      category: 'mugs',
      query: 'mugs',
      path: ['home & kitchen', 'kitchen & dining', 'mugs'],
      nouns: ['coffee', 'mug'],
    };
    const parts = shopReward(mug, { color: 'navy', size: 'large' }, goal);
    expect(parts.typeFactor).toBe(0);
    expect(parts.reward).toBe(0);
  });
});

describe('typeReward (WebShop get_type_reward)', () => {
  const desired = { query: 'shirts', path: shirtPath, nouns: ['oxford', 'shirt'] };
  const elsewhere = { query: 'other', path: ['garden'] };

  it('is 1 when the query or two path segments match, or over 20% of the nouns', () => {
    expect(typeReward({ query: 'shirts', path: ['garden'], nouns: ['polo', 'shirt'] }, desired)).toBe(1);
    expect(typeReward({ query: 'tops', path: shirtPath, nouns: ['polo', 'shirt'] }, desired)).toBe(1);
    expect(typeReward({ ...elsewhere, nouns: ['polo', 'shirt'] }, desired)).toBe(1); // 1/2 of the nouns
  });

  it('is 0.5 without a query or category match and 10% to 20% of the nouns', () => {
    const fiveNouns = { ...desired, nouns: ['a', 'b', 'c', 'd', 'shirt'] };
    expect(typeReward({ ...elsewhere, nouns: ['shirt'] }, fiveNouns)).toBe(0.5); // 1/5 = 0.2, not over 0.2
  });

  it('is 0.1 under 10% of the nouns and 0 with none', () => {
    const elevenNouns = { ...desired, nouns: [...'abcdefghij'].concat('shirt') };
    expect(typeReward({ query: 'shirts', path: shirtPath, nouns: ['shirt'] }, elevenNouns)).toBe(0.1); // 1/11
    expect(typeReward({ query: 'shirts', path: shirtPath, nouns: ['mug'] }, desired)).toBe(0);
  });
});
