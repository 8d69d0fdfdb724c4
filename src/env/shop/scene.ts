// A shop game's scene: the catalogue (its seed and size) and the goal, as JSON version 1. The JSON holds only
// what the goal chooses (target, attributes, option values, price bound); the instruction and the type data
// are derived from the target, so a scene file cannot contradict its catalogue. `shopSceneFromJson` names
// the field of every refusal ("goal.options.size").
import { CatalogueError, catalogueOf, type CatalogueSpec, type Product } from './catalogue.ts';
import { makeGoal, type ShopGoal } from './goal.ts';

const SHOP_SCENE_VERSION = 1;

export interface ShopScene {
  catalogue: CatalogueSpec;
  goal: ShopGoal;
}

export class ShopSceneError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(field === '' ? message : `${field}: ${message}`);
    this.name = 'ShopSceneError';
  }
}

export function shopSceneToJson(scene: ShopScene): string {
  const { targetId, attributes, options, priceUpperCents } = scene.goal;
  return JSON.stringify({
    version: SHOP_SCENE_VERSION,
    catalogue: scene.catalogue,
    goal: { targetId, attributes, options, priceUpperCents },
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function catalogueFrom(value: unknown): { spec: CatalogueSpec; products: Product[] } {
  if (!isRecord(value)) throw new ShopSceneError('catalogue', 'must be an object { seed, size }');
  const spec = { seed: value.seed as number, size: value.size as number };
  try {
    return { spec, products: catalogueOf(spec) };
  } catch (error) {
    if (error instanceof CatalogueError) throw new ShopSceneError('catalogue', error.message);
    throw error;
  }
}

function goalFrom(value: unknown, products: readonly Product[]): ShopGoal {
  if (!isRecord(value)) throw new ShopSceneError('goal', 'must be an object');
  const target = products.find((p) => p.id === value.targetId);
  if (!target)
    throw new ShopSceneError('goal.targetId', `no product ${JSON.stringify(value.targetId)} in the catalogue`);
  const attributes = value.attributes;
  if (!Array.isArray(attributes) || attributes.length === 0)
    throw new ShopSceneError('goal.attributes', 'must be a non-empty list');
  attributes.forEach((a, i) => {
    if (typeof a !== 'string' || !target.attributes.includes(a)) {
      throw new ShopSceneError(
        `goal.attributes[${i}]`,
        `${JSON.stringify(a)} is not an attribute of ${target.id} (${target.attributes.join(', ')})`,
      );
    }
  });
  if (new Set(attributes).size !== attributes.length)
    throw new ShopSceneError('goal.attributes', 'lists an attribute twice');
  const options = value.options;
  if (!isRecord(options)) throw new ShopSceneError('goal.options', 'must be an object from option name to value');
  for (const [name, chosen] of Object.entries(options)) {
    const values = target.options[name];
    if (!values) throw new ShopSceneError(`goal.options.${name}`, `${target.id} has no option "${name}"`);
    if (typeof chosen !== 'string' || !values.includes(chosen)) {
      throw new ShopSceneError(`goal.options.${name}`, `${JSON.stringify(chosen)} is not one of ${values.join(', ')}`);
    }
  }
  const bound = value.priceUpperCents;
  if (typeof bound !== 'number' || !Number.isInteger(bound) || bound < target.priceCents) {
    throw new ShopSceneError(
      'goal.priceUpperCents',
      `must be an integer number of cents at least the target's price ${target.priceCents}, got ${JSON.stringify(bound)}`,
    );
  }
  return makeGoal(target, attributes as string[], options as Record<string, string>, bound);
}

/** The scene a JSON text describes, or a ShopSceneError naming the field at fault. */
export function shopSceneFromJson(text: string): ShopScene {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new ShopSceneError('', `not JSON: ${(error as Error).message}`);
  }
  if (!isRecord(data)) throw new ShopSceneError('', 'a shop scene is a JSON object');
  if (data.version !== SHOP_SCENE_VERSION)
    throw new ShopSceneError('version', `must be ${SHOP_SCENE_VERSION}, got ${JSON.stringify(data.version)}`);
  const { spec, products } = catalogueFrom(data.catalogue);
  return { catalogue: spec, goal: goalFrom(data.goal, products) };
}
