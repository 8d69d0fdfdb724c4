import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Game } from './game.ts';
import { generateScene } from './generate.ts';
import { ALFWORLD, TINY } from './scale.ts';
import { SceneError, sceneFromJson, sceneToJson } from './scene.ts';

const good = {
  version: 1,
  room: 'kitchen',
  receptacles: [{ name: 'cabinet 1', openable: true, open: false }, { name: 'countertop 1' }, { name: 'fridge 1' }, { name: 'microwave 1' }],
  objects: [{ name: 'apple 1', in: 'countertop 1' }],
  task: { type: 'pick_heat_then_place_in_recep', goal: 'put a hot apple in fridge', object: 'apple', target: 'fridge' },
};

function broken(edit: (doc: any) => void): unknown {
  const doc = structuredClone(good);
  edit(doc);
  return doc;
}

function fieldOf(input: unknown): string {
  try {
    sceneFromJson(input);
  } catch (err) {
    expect(err).toBeInstanceOf(SceneError);
    return (err as SceneError).field;
  }
  throw new Error('no SceneError');
}

describe('scene JSON', () => {
  it('loads the documented example with defaults from the type table', () => {
    const scene = sceneFromJson(JSON.stringify(good));
    expect(scene.receptacles).toEqual([
      { name: 'cabinet 1', openable: true, open: false },
      { name: 'countertop 1', openable: false, open: false },
      { name: 'fridge 1', openable: true, open: false },
      { name: 'microwave 1', openable: true, open: false },
    ]);
    expect(scene.task).toEqual({ type: 'pick_heat_then_place_in_recep', goal: 'put a hot apple in fridge', object: 'apple', target: 'fridge' });
  });

  it('names the field of every kind of bad input', () => {
    expect(fieldOf('{"version": 1,')).toBe('(file)');
    expect(fieldOf([])).toBe('scene');
    expect(fieldOf(broken((d) => (d.version = 2)))).toBe('version');
    expect(fieldOf(broken((d) => (d.colour = 'red')))).toBe('colour');
    expect(fieldOf(broken((d) => (d.room = 'garage')))).toBe('room');
    expect(fieldOf(broken((d) => delete d.receptacles))).toBe('receptacles');
    expect(fieldOf(broken((d) => (d.receptacles = [])))).toBe('receptacles');
    expect(fieldOf(broken((d) => (d.receptacles[1].size = 3)))).toBe('receptacles[1].size');
    expect(fieldOf(broken((d) => delete d.receptacles[1].name))).toBe('receptacles[1].name');
    expect(fieldOf(broken((d) => (d.receptacles[1].name = 'Countertop 1')))).toBe('receptacles[1].name');
    expect(fieldOf(broken((d) => (d.receptacles[1].name = 'spaceship 1')))).toBe('receptacles[1].name');
    expect(fieldOf(broken((d) => (d.receptacles[1].name = 'countertop 31')))).toBe('receptacles[1].name');
    expect(fieldOf(broken((d) => (d.receptacles[1].name = 'cabinet 1')))).toBe('receptacles[1].name');
    expect(fieldOf(broken((d) => (d.receptacles[1].open = true)))).toBe('receptacles[1].open');
    expect(fieldOf(broken((d) => (d.receptacles[0].openable = 'yes')))).toBe('receptacles[0].openable');
    expect(fieldOf(broken((d) => (d.objects[0].in = 'cabinet 9')))).toBe('objects[0].in');
    expect(fieldOf(broken((d) => delete d.objects[0].in))).toBe('objects[0].in');
    expect(fieldOf(broken((d) => (d.objects[0].name = 'fridge 2')))).toBe('objects[0].name');
    expect(fieldOf(broken((d) => d.objects.push({ name: 'apple 1', in: 'fridge 1' })))).toBe('objects[1].name');
    expect(fieldOf(broken((d) => (d.task.goal = 'put a cool apple in fridge')))).toBe('task.goal');
    expect(fieldOf(broken((d) => (d.task.type = 'pick_cool_then_place_in_recep')))).toBe('task.goal');
    expect(fieldOf(broken((d) => (d.task.type = 'cook')))).toBe('task.type');
    expect(fieldOf(broken((d) => (d.task.target = 'sofa')))).toBe('task.goal');
    expect(fieldOf(broken((d) => ((d.task.target = 'sofa'), (d.task.goal = 'put a hot apple in sofa'))))).toBe('task.target');
    expect(fieldOf(broken((d) => ((d.task.target = 'rocket'), (d.task.goal = 'put a hot apple in rocket'))))).toBe('task.target');
    expect(fieldOf(broken((d) => (d.task.lamp = 'desklamp')))).toBe('task.lamp');
    expect(fieldOf(broken((d) => ((d.task.object = 'mug'), (d.task.goal = 'put a hot mug in fridge'))))).toBe('task.object');
    expect(fieldOf(broken((d) => ((d.task.object = 'lettuce'), (d.task.goal = 'put a hot lettuce in fridge'), (d.objects[0].name = 'lettuce 1'))))).toBe('task.object');
    expect(fieldOf(broken((d) => (d.receptacles = d.receptacles.filter((r: any) => r.name !== 'microwave 1'))))).toBe('receptacles');
    expect(fieldOf(broken((d) => (d.task = { type: 'pick_and_place_simple', goal: 'put a apple in countertop', object: 'apple', target: 'countertop' })))).toBe('task');
  });

  it('tells what is wrong in the message', () => {
    expect(() => sceneFromJson(broken((d) => (d.objects[0].in = 'cabinet 9')))).toThrow('objects[0].in: "cabinet 9" is not a receptacle of this scene');
    expect(() => sceneFromJson(broken((d) => (d.task.goal = 'heat the apple')))).toThrow(/task\.goal: "heat the apple" does not match/);
  });

  it('round trip: generate -> JSON -> load -> the expert plays the same transcript', () => {
    fc.assert(
      fc.property(fc.constantFrom('train', 'seen', 'unseen' as const), fc.nat({ max: 1_000_000 }), fc.boolean(), (split, index, large) => {
        const scale = large ? ALFWORLD : TINY;
        const scene = generateScene(split, index, scale);
        const text = sceneToJson(scene);
        const loaded = sceneFromJson(text);
        expect(loaded).toEqual(scene);
        expect(sceneToJson(loaded)).toBe(text);
        const play = (g: Game) => [g.observation, ...g.expertPlan().map((c) => JSON.stringify(g.step(c)))];
        expect(play(new Game(loaded, { maxSteps: scale.maxSteps }))).toEqual(play(new Game(scene, { maxSteps: scale.maxSteps })));
      }),
      { numRuns: 100 },
    );
  });
});
