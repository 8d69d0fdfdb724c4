// Property tests of scene JSON read from a file: any text is a scene or a one-line SceneError; nesting, size
// and mutations of a valid file included.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mutate, nested, parsesOrRefuses } from '../../../common/parser_testing.ts';
import { generateScene } from './splits.ts';
import { SceneError, sceneFromJson, sceneToJson } from './scene.ts';

const valid = sceneToJson(generateScene('train', 3));
const edit = fc.tuple(
  fc.nat(),
  fc.nat(),
  fc.oneof(
    fc.constantFrom('{', '}', '[', ']', '"', ',', ':', '\\', '\n', '\u001b', '0', '-', 'e'),
    fc.string({ maxLength: 1 }),
  ),
);

// The valid file itself is one of the texts, so that every run loads some scene, not only those whose draws
// happen to leave a mutated file valid.
const sceneText = fc.oneof(
  fc.constant(valid),
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.json({ maxDepth: 6 }),
  fc.array(edit, { minLength: 1, maxLength: 8 }).map((edits) => mutate(valid, edits)),
  fc
    .tuple(
      fc.integer({ min: 1, max: 200_000 }),
      fc.boolean(),
      fc.constantFrom('version', 'room', 'receptacles', 'objects', 'task'),
    )
    .map(([depth, objects, field]) =>
      valid.replace(`"${field}": `, `"${field}": ${nested(depth, '1', objects)}, "x${field}": `),
    ),
  fc
    .integer({ min: 0, max: 20_000 })
    .map((n) => valid.replace('"objects": [', `"objects": [${'{"name": "apple 1", "in": "countertop 1"},'.repeat(n)}`)),
);

describe('scene JSON text (property)', () => {
  it('is a scene or a one-line SceneError', () => {
    let loaded = 0;
    fc.assert(
      fc.property(sceneText, (text) => {
        if (parsesOrRefuses(() => sceneFromJson(text), SceneError) === 'value') loaded++;
      }),
      { numRuns: 400 },
    );
    expect(loaded).toBeGreaterThan(0);
  });

  it('refuses a scene nested 100,000 deep with the field named', () => {
    const text = valid.replace('"version": 1', `"version": ${nested(100_000)}`);
    expect(() => sceneFromJson(text)).toThrow(
      new SceneError('(file)', 'not valid JSON (JSON nested deeper than 64 levels)'),
    );
    expect(() => sceneFromJson(valid.replace('"version": 1', `"version": ${nested(60)}`))).toThrow(
      /^version: must be 1, got \[\[\[/,
    );
  });

  it('prints names with line breaks or terminal escapes escaped', () => {
    const text = valid.replace(/"in":"[a-z]+ \d+"/, '"in":"sofa\\n\\u001b[31m 1"');
    expect(() => sceneFromJson(text)).toThrow(/"sofa\\n\\u001b\[31m 1" is not a receptacle of this scene/);
  });
});
