import { describe, expect, it } from 'vitest';
import {
  EVAL_COUNTS,
  evalScenes,
  generateScene,
  layoutId,
  layoutKey,
  roomLayout,
  validationScenes,
  validationUnseenScenes,
  type LayoutPool,
} from './splits.ts';
import { typeOf } from './knowledge.ts';
import { ROOMS } from './rooms.ts';
import { ALFWORLD, TINY, type RoomScale } from './scale.ts';
import { ROOM_KINDS, sceneToJson } from './scene.ts';
import { TASK_TYPES } from './text.ts';

function poolKeys(pool: LayoutPool, scale: RoomScale): Set<string> {
  const keys = new Set<string>();
  for (const room of ROOM_KINDS) {
    for (let i = 0; i < scale.layouts[pool]; i++)
      keys.add(layoutKey({ room, receptacles: roomLayout(room, pool, i, scale) }));
  }
  return keys;
}

describe('generator', () => {
  it('same seed, same games; another index or seed, another game', () => {
    for (const split of ['train', 'seen', 'unseen'] as const) {
      expect(sceneToJson(generateScene(split, 17, TINY, 5))).toBe(sceneToJson(generateScene(split, 17, TINY, 5)));
      expect(sceneToJson(generateScene(split, 17, TINY, 5))).not.toBe(sceneToJson(generateScene(split, 18, TINY, 5)));
      expect(sceneToJson(generateScene(split, 17, TINY, 5))).not.toBe(sceneToJson(generateScene(split, 17, TINY, 6)));
    }
    const first = evalScenes('seen').map(sceneToJson);
    expect(first.length).toBe(140);
    expect(evalScenes('seen').map(sceneToJson)).toEqual(first);
    expect(evalScenes('unseen').length).toBe(134);
    expect(EVAL_COUNTS).toEqual({ seen: 140, unseen: 134 });
  });

  it('keeps unseen layouts out of training: disjoint storage counts, disjoint layouts over many seeds', () => {
    for (const scale of [TINY, ALFWORLD]) {
      const train = poolKeys('train', scale);
      const unseen = poolKeys('unseen', scale);
      expect(train.size).toBe(4 * scale.layouts.train);
      expect(unseen.size).toBe(4 * scale.layouts.unseen);
      for (const k of unseen) expect(train.has(k)).toBe(false);
      for (let i = 0; i < 1500; i++) {
        for (const seed of [0, 1]) {
          const t = generateScene('train', i, scale, seed);
          const s = generateScene('seen', i, scale, seed);
          const u = generateScene('unseen', i, scale, seed);
          expect(train.has(layoutKey(t))).toBe(true);
          expect(train.has(layoutKey(s))).toBe(true);
          expect(unseen.has(layoutKey(u))).toBe(true);
          const storage = ROOMS[u.room].storage;
          const count = u.receptacles.filter((r) => typeOf(r.name) === storage).length;
          expect(count).toBeGreaterThanOrEqual(scale.storage.unseen[0]);
          expect(count).toBeGreaterThan(scale.storage.train[1]);
        }
      }
    }
  });

  it('draws the validation-unseen games in unseen rooms of a pool of their own, which eval-unseen never plays', () => {
    for (const scale of [TINY, ALFWORLD]) {
      const pool = poolKeys('validation-unseen', scale);
      expect(pool.size).toBe(4 * scale.layouts['validation-unseen']);
      const others = new Set([...poolKeys('train', scale), ...poolKeys('unseen', scale)]);
      expect([...pool].filter((k) => others.has(k))).toEqual([]);
      const games = validationUnseenScenes(scale);
      expect(games.length).toBe(EVAL_COUNTS.unseen);
      for (const scene of games) {
        expect(pool.has(layoutKey(scene))).toBe(true);
        expect(layoutId(scene, scale)).toMatch(/^[a-z]+\/validation-unseen\/\d+$/);
        const storage = ROOMS[scene.room].storage;
        const count = scene.receptacles.filter((r) => typeOf(r.name) === storage).length;
        expect(count).toBeGreaterThanOrEqual(scale.storage.unseen[0]);
        expect(count).toBeLessThanOrEqual(scale.storage.unseen[1]);
      }
      // more than one room per room kind, and every task type, as eval-unseen has
      expect(new Set(games.map(layoutKey)).size).toBeGreaterThan(40);
      expect(new Set(games.map((g) => g.task.type)).size).toBe(TASK_TYPES.length);
    }
  });

  it('draws eval-seen games that no training game of the first 20,000 repeats', () => {
    const train = new Set(Array.from({ length: 20_000 }, (_, i) => sceneToJson(generateScene('train', i, TINY))));
    const repeats = evalScenes('seen').filter((s) => train.has(sceneToJson(s)));
    expect(repeats.length).toBe(0);
  });

  it('draws validation games in training rooms, none of them an eval-seen or a training game', () => {
    const validation = validationScenes().map(sceneToJson);
    expect(validation.length).toBe(140);
    expect(validationScenes().map(sceneToJson)).toEqual(validation);
    const train = poolKeys('train', TINY);
    for (const scene of validationScenes()) expect(train.has(layoutKey(scene))).toBe(true);
    const seen = new Set(evalScenes('seen').map(sceneToJson));
    expect(validation.filter((s) => seen.has(s)).length).toBe(0);
    // the train games of run seeds 0-3 and the benchmark's sweep seed, over more updates than a run plays
    for (const seed of [0, 1, 2, 3, 1000]) {
      const games = new Set(Array.from({ length: 4000 }, (_, i) => sceneToJson(generateScene('train', i, TINY, seed))));
      expect(validation.filter((s) => games.has(s)).length, `seed ${seed}`).toBe(0);
    }
  });

  it('keeps tiny rooms small and multi-stage, every task type present', () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 600; i++) {
      const scene = generateScene(i % 2 ? 'train' : 'unseen', i, TINY);
      expect(scene.receptacles.length).toBeGreaterThanOrEqual(5);
      expect(scene.receptacles.length).toBeLessThanOrEqual(8);
      expect(scene.objects.length).toBeLessThanOrEqual(6);
      counts.set(scene.task.type, (counts.get(scene.task.type) ?? 0) + 1);
    }
    for (const type of TASK_TYPES) expect(counts.get(type) ?? 0, type).toBeGreaterThan(60);
  });

  it('makes ALFWorld-sized rooms at the alfworld scale', () => {
    for (let i = 0; i < 200; i++) {
      const scene = generateScene('train', i, ALFWORLD);
      expect(scene.receptacles.length).toBeGreaterThanOrEqual(12);
      expect(scene.objects.length).toBeGreaterThanOrEqual(12);
    }
  });
});

describe('placement priors', () => {
  it('each fixed eval set holds more than 60 distinct room layouts', () => {
    expect(new Set(evalScenes('seen').map(layoutKey)).size).toBeGreaterThan(60);
    expect(new Set(evalScenes('unseen').map(layoutKey)).size).toBeGreaterThan(60);
  });

  it('places an object by its type weights among the receptacle types present (uniform placement fails this)', () => {
    // Kitchens that have both a fridge and a countertop: an egg (fridge 7, countertop 2, four others 1 each
    // when present) is in the fridge far more often than on the countertop, at about the weights' ratio.
    let fridge = 0;
    let counter = 0;
    for (let i = 0; i < 6000; i++) {
      const scene = generateScene('train', i, TINY, 3);
      if (scene.room !== 'kitchen') continue;
      for (const o of scene.objects) {
        if (typeOf(o.name) !== 'egg') continue;
        if (scene.task.type !== 'look_at_obj_in_light' && scene.task.object === 'egg') continue; // the target is excluded for task objects
        const at = typeOf(o.in);
        if (at === 'fridge') fridge++;
        if (at === 'countertop') counter++;
      }
    }
    expect(fridge + counter).toBeGreaterThan(150);
    const ratio = fridge / Math.max(1, counter);
    expect(ratio).toBeGreaterThan(2.5);
    expect(ratio).toBeLessThan(5.5);
  });

  it('every weight is positive and every favoured type can hold the object', () => {
    for (const room of ROOM_KINDS) {
      for (const [object, placement] of Object.entries(ROOMS[room].objects)) {
        for (const [type, weight] of Object.entries(placement)) {
          expect(weight, `${room}/${object}/${type}`).toBeGreaterThan(0);
        }
      }
    }
  });
});
