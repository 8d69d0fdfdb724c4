import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Game } from './game.ts';
import { generateScene } from './splits.ts';
import { ALFWORLD, TINY } from './scale.ts';
import { LAMP_TYPES, OBJECT_KINDS, RECEPTACLE_KINDS } from './knowledge.ts';
import { ROOM_KINDS, type Scene, SceneError, goalsFor, sceneFromJson, sceneToJson } from './scene.ts';
import { TASK_TYPES } from './text.ts';

const good = {
  version: 1,
  room: 'kitchen',
  receptacles: [
    { name: 'cabinet 1', openable: true, open: false },
    { name: 'countertop 1' },
    { name: 'fridge 1' },
    { name: 'microwave 1' },
  ],
  objects: [{ name: 'apple 1', in: 'countertop 1' }],
  task: { type: 'pick_heat_then_place_in_recep', goal: 'put a hot apple in fridge', object: 'apple', target: 'fridge' },
};

// biome-ignore lint/suspicious/noExplicitAny: an edit writes fields of the wrong type, or deletes required ones, on purpose
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
    expect(scene.task).toEqual({
      type: 'pick_heat_then_place_in_recep',
      goal: 'put a hot apple in fridge',
      object: 'apple',
      target: 'fridge',
    });
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
    expect(
      fieldOf(
        broken((d) => {
          d.task.target = 'sofa';
          d.task.goal = 'put a hot apple in sofa';
        }),
      ),
    ).toBe('task.target');
    expect(
      fieldOf(
        broken((d) => {
          d.task.target = 'rocket';
          d.task.goal = 'put a hot apple in rocket';
        }),
      ),
    ).toBe('task.target');
    expect(fieldOf(broken((d) => (d.task.lamp = 'desklamp')))).toBe('task.lamp');
    expect(
      fieldOf(
        broken((d) => {
          d.task.object = 'mug';
          d.task.goal = 'put a hot mug in fridge';
        }),
      ),
    ).toBe('task.object');
    expect(
      fieldOf(
        broken((d) => {
          d.task.object = 'lettuce';
          d.task.goal = 'put a hot lettuce in fridge';
          d.objects[0].name = 'lettuce 1';
        }),
      ),
    ).toBe('task.object');
    expect(
      fieldOf(broken((d) => (d.receptacles = d.receptacles.filter((r: { name: string }) => r.name !== 'microwave 1')))),
    ).toBe('receptacles');
    expect(
      fieldOf(
        broken(
          (d) =>
            (d.task = {
              type: 'pick_and_place_simple',
              goal: 'put a apple in countertop',
              object: 'apple',
              target: 'countertop',
            }),
        ),
      ),
    ).toBe('task');
  });

  it('tells what is wrong in the message', () => {
    expect(() => sceneFromJson(broken((d) => (d.objects[0].in = 'cabinet 9')))).toThrow(
      'objects[0].in: "cabinet 9" is not a receptacle of this scene',
    );
    expect(() => sceneFromJson(broken((d) => (d.task.goal = 'heat the apple')))).toThrow(
      /task\.goal: "heat the apple" does not match/,
    );
  });

  it('round trip: generate -> JSON -> load -> the expert plays the same transcript', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('train', 'seen', 'unseen' as const),
        fc.nat({ max: 1_000_000 }),
        fc.boolean(),
        (split, index, large) => {
          const scale = large ? ALFWORLD : TINY;
          const scene = generateScene(split, index, scale);
          const text = sceneToJson(scene);
          const loaded = sceneFromJson(text);
          expect(loaded).toEqual(scene);
          expect(sceneToJson(loaded)).toBe(text);
          const play = (g: Game) => [g.observation, ...g.expertPlan().map((c) => JSON.stringify(g.step(c)))];
          expect(play(new Game(loaded, { maxSteps: scale.maxSteps }))).toEqual(
            play(new Game(scene, { maxSteps: scale.maxSteps })),
          );
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('scene JSON from anywhere', () => {
  it('any JSON value is a scene or a SceneError, never another exception', () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), fc.string()), (value) => {
        try {
          sceneFromJson(value);
        } catch (err) {
          expect(err).toBeInstanceOf(SceneError);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('a random scene that loads is one the expert solves', () => {
    const objectTypes = Object.keys(OBJECT_KINDS);
    const receptacleTypes = Object.keys(RECEPTACLE_KINDS);
    const sceneArb = fc
      .record({
        recs: fc.uniqueArray(
          fc.record({
            type: fc.constantFrom(...receptacleTypes),
            n: fc.integer({ min: 1, max: 3 }),
            openable: fc.option(fc.boolean(), { nil: undefined }),
            open: fc.boolean(),
          }),
          { minLength: 1, maxLength: 10, selector: (r) => `${r.type} ${r.n}` },
        ),
        objs: fc.array(fc.record({ type: fc.constantFrom(...objectTypes), where: fc.nat() }), {
          minLength: 1,
          maxLength: 12,
        }),
        taskType: fc.constantFrom(...TASK_TYPES),
        object: fc.nat(),
        place: fc.nat(),
        goal: fc.nat(),
      })
      .map(({ recs, objs, taskType, object: pick, place, goal }) => {
        // The task names a type of the scene's objects, so that most random scenes are playable.
        const object = objs[pick % objs.length].type;
        const receptacles = recs.map((r) => ({
          name: `${r.type} ${r.n}`,
          openable: r.openable,
          open: r.open && (r.openable ?? RECEPTACLE_KINDS[r.type].openable),
        }));
        const counts = new Map<string, number>();
        const objects = objs.map((o) => {
          counts.set(o.type, (counts.get(o.type) ?? 0) + 1);
          return { name: `${o.type} ${counts.get(o.type)}`, in: receptacles[o.where % receptacles.length].name };
        });
        const look = taskType === 'look_at_obj_in_light';
        const placeType = look ? LAMP_TYPES[place % 2] : recs[place % recs.length].type;
        const goals = goalsFor(taskType, object, placeType);
        const task = {
          type: taskType,
          goal: goals[goal % goals.length],
          object,
          [look ? 'lamp' : 'target']: placeType,
        };
        return { version: 1, room: ROOM_KINDS[place % 4], receptacles, objects, task };
      });
    let loaded = 0;
    fc.assert(
      fc.property(sceneArb, (doc) => {
        let scene: Scene;
        try {
          scene = sceneFromJson(doc);
        } catch (err) {
          expect(err).toBeInstanceOf(SceneError);
          return;
        }
        loaded++;
        const game = new Game(scene, { maxSteps: 100 });
        for (const c of game.expertPlan()) expect(game.step(c).valid).toBe(true);
        expect(game.won).toBe(true);
      }),
      { numRuns: 3000 },
    );
    expect(loaded).toBeGreaterThan(300);
  });
});
