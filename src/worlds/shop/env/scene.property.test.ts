// Property tests of shop scene JSON read from a file: any text is a scene or a one-line ShopSceneError, and a
// key the format does not have, at any level and whatever its name (the members of Object.prototype among
// them), is refused with its field named.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quote } from '../../../common/json.ts';
import { mutate, parsesOrRefuses } from '../../../common/parser_testing.ts';
import { Rng } from '../../../common/rng.ts';
import { DEFAULT_CATALOGUE, catalogueOf } from './catalogue.ts';
import { drawGoal } from './goal.ts';
import { ShopSceneError, shopSceneFromJson, shopSceneToJson } from './scene.ts';

const target = catalogueOf(DEFAULT_CATALOGUE)[5];
const valid = shopSceneToJson({ catalogue: DEFAULT_CATALOGUE, goal: drawGoal(new Rng(11), target) });

const OBJECT_KEYS = ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf'];
/** Where a key goes: the text that opens the object, its field path, the keys it has. */
const PLACES = [
  { open: '{"version"', field: '', own: ['version', 'catalogue', 'goal'] },
  { open: '"catalogue":{', field: 'catalogue', own: ['seed', 'size'] },
  { open: '"goal":{', field: 'goal', own: ['targetId', 'attributes', 'options', 'priceUpperCents'] },
  { open: '"options":{', field: 'goal.options', own: Object.keys(target.options) },
];

const key = fc.oneof(fc.constantFrom(...OBJECT_KEYS), fc.string({ maxLength: 12 }));
const value = fc.oneof(fc.constant('"navy"'), fc.constant('1'), fc.constant('{}'), fc.constant('null'));

describe('shop scene JSON text (property)', () => {
  it('is a scene or a one-line ShopSceneError', () => {
    const edit = fc.tuple(fc.nat(), fc.nat(), fc.constantFrom('{', '}', '"', ',', ':', '\\', '\n', '0', '_', 'x'));
    let loaded = 0;
    fc.assert(
      fc.property(fc.array(edit, { maxLength: 6 }), (edits) => {
        if (parsesOrRefuses(() => shopSceneFromJson(mutate(valid, edits)), ShopSceneError) === 'value') loaded++;
      }),
      { numRuns: 300 },
    );
    expect(loaded).toBeGreaterThan(0);
  });

  it('refuses a key of no field at every level with that field named', () => {
    fc.assert(
      fc.property(fc.constantFrom(...PLACES), key, value, (place, name, json) => {
        fc.pre(!place.own.includes(name));
        const at = place.open.startsWith('{"version"') ? 0 : valid.indexOf(place.open) + place.open.length;
        const text =
          at === 0
            ? `{${JSON.stringify(name)}:${json},${valid.slice(1)}`
            : `${valid.slice(0, at)}${JSON.stringify(name)}:${json},${valid.slice(at)}`;
        const shown = /^[A-Za-z_]\w*$/.test(name) ? name : quote(name);
        expect(parsesOrRefuses(() => shopSceneFromJson(text), ShopSceneError)).toBe('refused');
        expect(() => shopSceneFromJson(text)).toThrow(
          expect.objectContaining({ field: place.field === '' ? shown : `${place.field}.${shown}` }),
        );
      }),
      { numRuns: 300 },
    );
  });
});
