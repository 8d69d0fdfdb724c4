// A shopping goal: a target product and what the instruction asks of it, in WebShop's words ("i need a long
// sleeve cotton oxford shirt in navy, size large, and price lower than 40.00 dollars"). Several products can
// satisfy it: any of the same type with the attributes, the option values and a price under the bound.
import type { Rng } from '../../../common/rng.ts';
import { CATEGORIES } from './categories.ts';
import type { Product } from './catalogue.ts';
import type { GoalRequirements } from './reward.ts';

export interface ShopGoal extends GoalRequirements {
  /** The product the goal was drawn from (one that satisfies it). */
  targetId: string;
  /** The product type as the instruction names it ("oxford shirt"). */
  typeName: string;
  instruction: string;
}

/** WebShop's price bounds: multiples of ten dollars. */
const PRICE_STEPS_CENTS = Array.from({ length: 99 }, (_, i) => (i + 1) * 1000);

/** The bounds a goal of this price draws from: the first four steps above it. */
function boundsAbove(priceCents: number): number[] {
  return PRICE_STEPS_CENTS.filter((p) => p > priceCents).slice(0, 4);
}

/** The highest bound a goal of a product at this price can draw. */
export function highestPriceBound(priceCents: number): number {
  return boundsAbove(priceCents).at(-1) ?? priceCents;
}

/** WebShop's bound: of the first four steps above the price, two drawn, the larger kept. */
function drawPriceBound(rng: Rng, priceCents: number): number {
  const above = boundsAbove(priceCents);
  if (above.length < 2) throw new RangeError(`no price bound above ${priceCents} cents`);
  const first = rng.int(above.length);
  const second = (first + 1 + rng.int(above.length - 1)) % above.length;
  return above[Math.max(first, second)];
}

function typeNameOf(product: Product): string {
  return product.nouns.join(' ');
}

function instructionText(goal: Omit<ShopGoal, 'instruction' | 'targetId'>, category: string): string {
  const spec = CATEGORIES.find((c) => c.name === category);
  if (!spec) throw new RangeError(`unknown category "${category}"`);
  const titled = new Set(spec.attributes.filter((g) => g.inTitle).flatMap((g) => g.values));
  // As in titles, the material (the first group) reads last before the type: "long sleeve cotton shirt".
  const material = new Set(spec.attributes[0].values);
  const before = [
    ...goal.attributes.filter((a) => titled.has(a) && !material.has(a)),
    ...goal.attributes.filter((a) => material.has(a)),
  ];
  const after = goal.attributes.filter((a) => !titled.has(a));
  const noun = [...before, goal.typeName].join(' ');
  // A plural type ("hiking boots") takes no article.
  const article = /[^s]s$/.test(goal.typeName) ? '' : /^[aeiou]/.test(noun) ? 'an ' : 'a ';
  const parts = [`i need ${article}${noun}`, ...after];
  for (const option of spec.options) {
    const value = goal.options[option.name];
    if (value !== undefined) parts.push(option.phrase.replace('{v}', value));
  }
  return `${parts.join(', ')}, and price lower than ${(goal.priceUpperCents / 100).toFixed(2)} dollars`;
}

/** The goal of `target` asking for these attributes (in the category's group order), option values and bound. */
export function makeGoal(
  target: Product,
  attributes: readonly string[],
  options: Readonly<Record<string, string>>,
  priceUpperCents: number,
): ShopGoal {
  const goal = {
    targetId: target.id,
    typeName: typeNameOf(target),
    query: target.query,
    path: target.path,
    nouns: target.nouns,
    attributes: [...attributes],
    options: { ...options },
    priceUpperCents,
  };
  return { ...goal, instruction: instructionText(goal, target.category) };
}

/** A goal of `target`: one or two of its attributes, one value of each of its options, a price bound. */
export function drawGoal(rng: Rng, target: Product): ShopGoal {
  const spec = CATEGORIES.find((c) => c.name === target.category);
  if (!spec) throw new RangeError(`product ${target.id} has unknown category "${target.category}"`);
  const count = Math.min(target.attributes.length, 1 + rng.int(2));
  const picked = new Set(rng.shuffle([...target.attributes]).slice(0, count));
  // Kept in the category's group order, so that one combination always reads the same.
  const attributes = spec.attributes.flatMap((g) => g.values).filter((a) => picked.has(a));
  const options = Object.fromEntries(Object.entries(target.options).map(([name, values]) => [name, rng.pick(values)]));
  return makeGoal(target, attributes, options, drawPriceBound(rng, target.priceCents));
}
