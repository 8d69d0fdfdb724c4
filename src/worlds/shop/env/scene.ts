// A shop game's scene: the catalogue (its seed and size) and the goal, as JSON version 1. The JSON holds only
// what the goal chooses (target, attributes, option values, price bound); the instruction and the type data
// are derived from the target, so a scene file cannot contradict its catalogue, and a field the format does
// not have (an "instruction" among them) is refused rather than ignored. `shopSceneFromJson` names the field
// of every refusal ("goal.options.size").
import { quote } from '../../../common/json.ts';
import { fieldName, onlyFields, SceneFieldError, sceneDocument } from '../../../env/scene_json.ts';
import { CatalogueError, catalogueOf, type CatalogueSpec, type Product } from './catalogue.ts';
import { highestPriceBound, makeGoal, type ShopGoal } from './goal.ts';

const SHOP_SCENE_VERSION = 1;

export interface ShopScene {
  catalogue: CatalogueSpec;
  goal: ShopGoal;
}

export class ShopSceneError extends SceneFieldError {
  override name = 'ShopSceneError';
}

export function shopSceneToJson(scene: ShopScene): string {
  const { targetId, attributes, options, priceUpperCents } = scene.goal;
  return JSON.stringify({
    version: SHOP_SCENE_VERSION,
    catalogue: scene.catalogue,
    goal: { targetId, attributes, options, priceUpperCents },
  });
}

function objectOf(value: unknown, field: string, shape: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new ShopSceneError(field, `must be an object ${shape}`.trimEnd());
  return value as Record<string, unknown>;
}

/** `value` as an object holding only `allowed` fields (its own keys, so "__proto__" is one more unknown field). */
function record(
  value: unknown,
  field: string,
  allowed: readonly string[],
  hint: Readonly<Record<string, string>> = {},
): Record<string, unknown> {
  const data = objectOf(value, field, `{ ${allowed.join(', ')} }`);
  onlyFields(data, field, allowed, ShopSceneError, hint);
  return data;
}

function catalogueFrom(value: unknown): { spec: CatalogueSpec; products: Product[] } {
  const data = record(value, 'catalogue', ['seed', 'size']);
  for (const name of ['seed', 'size'] as const) {
    if (typeof data[name] !== 'number')
      throw new ShopSceneError(`catalogue.${name}`, `must be an integer, got ${quote(data[name])}`);
  }
  const spec = { seed: data.seed as number, size: data.size as number };
  try {
    return { spec, products: catalogueOf(spec) };
  } catch (error) {
    if (error instanceof CatalogueError) throw new ShopSceneError('catalogue', error.message);
    throw error;
  }
}

const GOAL_FIELDS = ['targetId', 'attributes', 'options', 'priceUpperCents'];
const DERIVED = 'the goal writes it from the target, attributes, options and price bound';
const DERIVED_FIELDS = { instruction: DERIVED, typeName: DERIVED, query: DERIVED, path: DERIVED, nouns: DERIVED };

function goalFrom(value: unknown, products: readonly Product[]): ShopGoal {
  const data = record(value, 'goal', GOAL_FIELDS, DERIVED_FIELDS);
  const target = products.find((p) => p.id === data.targetId);
  if (!target) throw new ShopSceneError('goal.targetId', `no product ${quote(data.targetId)} in the catalogue`);
  const attributes = data.attributes;
  if (!Array.isArray(attributes) || attributes.length === 0)
    throw new ShopSceneError('goal.attributes', 'must be a non-empty list');
  attributes.forEach((a, i) => {
    if (typeof a !== 'string' || !target.attributes.includes(a)) {
      throw new ShopSceneError(
        `goal.attributes[${i}]`,
        `${quote(a)} is not an attribute of ${target.id} (${target.attributes.join(', ')})`,
      );
    }
  });
  if (new Set(attributes).size !== attributes.length)
    throw new ShopSceneError('goal.attributes', 'lists an attribute twice');
  const options = objectOf(data.options, 'goal.options', 'from option name to value');
  for (const [name, chosen] of Object.entries(options)) {
    const field = fieldName('goal.options', name);
    // An own option only: a name such as "constructor" reads a function from any object's prototype.
    if (!Object.hasOwn(target.options, name))
      throw new ShopSceneError(field, `${target.id} has no option ${quote(name)}`);
    const values = target.options[name];
    if (typeof chosen !== 'string' || !values.includes(chosen))
      throw new ShopSceneError(field, `${quote(chosen)} is not one of ${values.join(', ')}`);
  }
  return makeGoal(
    target,
    attributes as string[],
    options as Record<string, string>,
    priceBound(data, target, products),
  );
}

/** The bound, from the target's price up to the highest bound a goal of the catalogue's dearest product draws. */
function priceBound(data: Record<string, unknown>, target: Product, products: readonly Product[]): number {
  const bound = data.priceUpperCents;
  const dearest = products.reduce((max, p) => Math.max(max, p.priceCents), 0);
  const highest = highestPriceBound(dearest);
  if (typeof bound !== 'number' || !Number.isInteger(bound) || bound < target.priceCents || bound > highest) {
    throw new ShopSceneError(
      'goal.priceUpperCents',
      `must be an integer number of cents from the target's price ${target.priceCents} to ${highest} ` +
        `(the highest bound a goal draws: four ten-dollar steps above the catalogue's dearest price, ${dearest} cents), ` +
        `got ${quote(bound)}`,
    );
  }
  return bound;
}

/** The scene a JSON text describes, or a ShopSceneError naming the field at fault. */
export function shopSceneFromJson(text: string): ShopScene {
  const doc = sceneDocument(text, ShopSceneError);
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc))
    throw new ShopSceneError('', 'a shop scene is a JSON object');
  const data = record(doc, '', ['version', 'catalogue', 'goal']);
  if (data.version !== SHOP_SCENE_VERSION)
    throw new ShopSceneError('version', `must be ${SHOP_SCENE_VERSION}, got ${quote(data.version)}`);
  const { spec, products } = catalogueFrom(data.catalogue);
  return { catalogue: spec, goal: goalFrom(data.goal, products) };
}
