import { describe, expect, it } from 'vitest';
import { Rng } from '../../../common/rng.ts';
import { DEFAULT_CATALOGUE, catalogueOf } from './catalogue.ts';
import { drawGoal, makeGoal } from './goal.ts';
import { ShopSceneError, shopSceneFromJson, shopSceneToJson, type ShopScene } from './scene.ts';

const products = catalogueOf(DEFAULT_CATALOGUE);
const shirt = products.find(
  (p) => p.category === 'shirts' && p.attributes.includes('long sleeve') && p.options.color.includes('navy'),
)!;
const boots = products.find((p) => p.nouns.join(' ') === 'hiking boots')!;

describe('goals', () => {
  it('reads as a WebShop instruction', () => {
    const goal = makeGoal(
      shirt,
      [shirt.attributes[0], 'long sleeve'],
      { color: 'navy', size: shirt.options.size[0] },
      4000,
    );
    expect(goal.instruction).toBe(
      `i need a long sleeve ${shirt.attributes[0]} ${goal.typeName}, in navy, size ${shirt.options.size[0]}, and price lower than 40.00 dollars`,
    );
    const plural = makeGoal(boots, [boots.attributes[0]], {}, 15000);
    expect(plural.instruction).toBe(`i need ${boots.attributes[0]} hiking boots, and price lower than 150.00 dollars`);
  });

  it("asks for the target's own attributes and options, under a WebShop price bound above its price", () => {
    const rng = new Rng(7);
    for (const target of products.slice(0, 200)) {
      const goal = drawGoal(rng, target);
      expect(goal.attributes.length).toBeGreaterThanOrEqual(1);
      for (const a of goal.attributes) expect(target.attributes).toContain(a);
      for (const [name, value] of Object.entries(goal.options)) expect(target.options[name]).toContain(value);
      expect(goal.priceUpperCents % 1000).toBe(0);
      expect(goal.priceUpperCents).toBeGreaterThan(target.priceCents);
      expect(goal.priceUpperCents).toBeLessThanOrEqual(target.priceCents + 4000);
    }
  });
});

describe('shop scene JSON', () => {
  const scene: ShopScene = { catalogue: DEFAULT_CATALOGUE, goal: drawGoal(new Rng(3), shirt) };
  const json = JSON.parse(shopSceneToJson(scene));
  const bad = (edit: (data: typeof json) => void) => {
    const data = structuredClone(json);
    edit(data);
    return () => shopSceneFromJson(JSON.stringify(data));
  };

  it('round-trips', () => {
    expect(shopSceneFromJson(shopSceneToJson(scene))).toEqual(scene);
  });

  it('names the field of every refusal', () => {
    expect(() => shopSceneFromJson('{')).toThrow(/^not JSON/);
    expect(() => shopSceneFromJson('[]')).toThrow(ShopSceneError);
    expect(bad((d) => (d.version = 2))).toThrow(/^version: must be 1, got 2/);
    expect(bad((d) => (d.catalogue = 'big'))).toThrow(/^catalogue: must be an object/);
    expect(bad((d) => (d.catalogue.size = 1))).toThrow(/^catalogue: catalogue size must be/);
    expect(bad((d) => (d.goal.targetId = 'B0NOTHERE0'))).toThrow(/^goal\.targetId: no product "B0NOTHERE0"/);
    expect(bad((d) => (d.goal.attributes = []))).toThrow(/^goal\.attributes: must be a non-empty list/);
    expect(bad((d) => (d.goal.attributes = ['velvet']))).toThrow(
      /^goal\.attributes\[0\]: "velvet" is not an attribute/,
    );
    expect(bad((d) => (d.goal.options = { colour: 'navy' }))).toThrow(
      /^goal\.options\.colour: .* has no option "colour"/,
    );
    expect(bad((d) => (d.goal.options.color = 'pink'))).toThrow(/^goal\.options\.color: "pink" is not one of/);
    expect(bad((d) => (d.goal.priceUpperCents = 1))).toThrow(/^goal\.priceUpperCents: must be an integer/);
    try {
      bad((d) => (d.goal.options.size = 'huge'))();
    } catch (error) {
      expect((error as ShopSceneError).field).toBe('goal.options.size');
    }
  });

  // JSON.parse makes "__proto__" an own key like any other; a lookup in the target's options must not find
  // Object.prototype's members behind these names.
  it.each(['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty'])(
    'refuses the option %s as one the target does not have',
    (name) => {
      const text = shopSceneToJson(scene).replace('"options":{', `"options":{"${name}":"navy",`);
      expect(() => shopSceneFromJson(text)).toThrow(
        new ShopSceneError(`goal.options.${name}`, `${shirt.id} has no option "${name}"`),
      );
    },
  );

  it('refuses a field the format does not have, at the top, in the catalogue and in the goal', () => {
    expect(bad((d) => (d.goal.instruction = 'i need a red mug'))).toThrow(
      /^goal\.instruction: unknown field: the goal writes it from the target/,
    );
    expect(bad((d) => (d.instructions = 'x'))).toThrow(new ShopSceneError('instructions', 'unknown field'));
    expect(bad((d) => (d.catalogue.products = []))).toThrow(new ShopSceneError('catalogue.products', 'unknown field'));
    expect(bad((d) => (d.goal['price bound'] = 1))).toThrow(new ShopSceneError('goal."price bound"', 'unknown field'));
    expect(bad((d) => (d.catalogue.seed = '0'))).toThrow(/^catalogue\.seed: must be an integer, got "0"/);
  });

  it("bounds the price from the target's price to the highest bound a goal of the catalogue draws", () => {
    // The dearest product of the default catalogue is under 120 dollars: four ten-dollar steps above it end at 150.
    expect(Math.max(...products.map((p) => p.priceCents))).toBeLessThan(12000);
    expect(Math.max(...products.map((p) => p.priceCents))).toBeGreaterThanOrEqual(11000);
    const at = (cents: number) => bad((d) => (d.goal.priceUpperCents = cents));
    expect(at(15000)).not.toThrow();
    expect(at(15001)).toThrow(/^goal\.priceUpperCents: must be an integer number of cents from .* to 15000 \(/);
    expect(at(1e300)).toThrow(/ to 15000 .*, got 1e\+300$/);
    expect(at(shirt.priceCents)).not.toThrow();
    expect(at(shirt.priceCents - 1)).toThrow(/^goal\.priceUpperCents: /);
  });
});
