// The seeded scene generator and the splits.
//
// A room layout (room kind, receptacles with their numbers and openability) comes from a finite pool per
// room kind: the train pool (rooms the agent trains in) and the unseen pool. The two pools draw the count of
// the room's storage type (cabinets in kitchens and bathrooms, drawers in bedrooms, shelves in living rooms)
// from disjoint ranges, so an unseen room has a set, count and numbering of receptacles, and therefore an
// object placement, that no training room can have; object, receptacle and task types are shared.
//   train:  generateScene('train', i) for any i: a layout of the train pool, random objects and task.
//   seen:   the same layouts with their own stream of objects and tasks (ALFWorld's valid_seen).
//   unseen: layouts of the unseen pool (ALFWorld's valid_unseen).
//   validation-unseen: layouts of a third pool, drawn from the unseen pool's storage range less the unseen
//           pool's layouts: rooms that neither training nor eval-unseen has.
// The fixed evaluation sets are evalScenes('seen') = 140 games and evalScenes('unseen') = 134 games, drawn
// with EVAL_SEED, as ALFWorld's valid_seen and valid_unseen. Validation games are drawn with VALIDATION_SEED:
// validationScenes() of the seen split, games of training rooms that no training run plays (runs draw from
// the train split) and that the reported evaluation does not hold (the teacher check's), and
// validationUnseenScenes() of the validation-unseen split, 134 games of unseen rooms that no eval set holds
// (the learning benchmark's sweeps score on them).
import { Rng, hashString } from '../../../common/rng.ts';
import { APPLIANCE, OBJECT_KINDS, RECEPTACLE_KINDS, compareListing, typeOf } from './knowledge.ts';
import { ROOMS, placesOf, type Placement } from './rooms.ts';
import { TINY, type RoomScale } from './scale.ts';
import {
  ROOM_KINDS,
  goalsFor,
  requiredState,
  type RoomKind,
  type Scene,
  type SceneObject,
  type SceneReceptacle,
  type Task,
} from './scene.ts';
import { TASK_TYPES, type TaskType } from './text.ts';
import { EVAL_SEED } from '../../../env/environment.ts';
import { HOUSEHOLD_FACTS } from './facts.ts';

export type Split = 'train' | 'seen' | 'unseen';
export const SPLITS: readonly Split[] = ['train', 'seen', 'unseen'];
/** The splits generateScene draws: SPLITS and the validation-unseen games' own. */
type GeneratorSplit = Split | 'validation-unseen';
const GENERATOR_SPLITS: readonly GeneratorSplit[] = [...SPLITS, 'validation-unseen'];
export type LayoutPool = 'train' | 'unseen' | 'validation-unseen';
const POOLS: readonly LayoutPool[] = ['train', 'unseen', 'validation-unseen'];

const VALIDATION_SEED = 2027;
export const EVAL_COUNTS = HOUSEHOLD_FACTS.evalCounts;

/** Chance that a cabinet or drawer of a layout opens (ALFWorld has some that do not). */
const OPENABLE_STORAGE = 0.75;

function rangeInt(rng: Rng, [lo, hi]: [number, number]): number {
  return lo + rng.int(hi - lo + 1);
}

const pools = new WeakMap<RoomScale, Map<string, SceneReceptacle[][]>>();

/** Layout `index` of a pool: the receptacles of a room, in listing order. The layouts of a pool are distinct. */
export function roomLayout(
  room: RoomKind,
  pool: LayoutPool,
  index: number,
  scale: RoomScale = TINY,
): SceneReceptacle[] {
  const size = scale.layouts[pool];
  if (!Number.isInteger(index) || index < 0 || index >= size)
    throw new RangeError(`layout index ${index} outside 0..${size - 1}`);
  let byRoom = pools.get(scale);
  if (!byRoom) {
    byRoom = new Map();
    pools.set(scale, byRoom);
  }
  let layouts = byRoom.get(`${pool}/${room}`);
  if (!layouts) {
    layouts = [];
    const keys = new Set<string>();
    // The validation-unseen pool shares the unseen pool's storage range, so it passes over the unseen layouts.
    const taken = new Set<string>();
    if (pool === 'validation-unseen') {
      for (let i = 0; i < scale.layouts.unseen; i++)
        taken.add(layoutKey({ room, receptacles: roomLayout(room, 'unseen', i, scale) }));
    }
    for (let draw = 0; layouts.length < size; draw++) {
      if (draw >= 100 * size)
        throw new Error(`scale ${scale.name} has fewer than ${size} distinct ${pool} layouts of a ${room}`);
      const receptacles = drawLayout(room, pool, draw, scale);
      const key = layoutKey({ room, receptacles });
      if (!keys.has(key) && !taken.has(key)) {
        keys.add(key);
        layouts.push(receptacles);
      }
    }
    byRoom.set(`${pool}/${room}`, layouts);
  }
  return layouts[index].map((r) => ({ ...r }));
}

function drawLayout(room: RoomKind, pool: LayoutPool, draw: number, scale: RoomScale): SceneReceptacle[] {
  const spec = ROOMS[room];
  const rng = new Rng(hashString(`layout/${scale.name}/${pool}/${room}/${draw}`));
  const counts = new Map<string, number>();
  for (const type of spec.required) counts.set(type, 1);
  counts.set(spec.storage, rangeInt(rng, scale.storage[pool === 'train' ? 'train' : 'unseen']));
  const base = [...counts.values()].reduce((a, b) => a + b, 0);
  const total = Math.max(base, rangeInt(rng, scale.receptacles));
  let size = base;
  for (const type of rng.shuffle([...spec.optional])) {
    if (size >= total) break;
    counts.set(type, 1);
    size++;
  }
  const growable = () => spec.multi.filter((t) => counts.has(t) && counts.get(t)! < scale.multiMax);
  for (let grow = growable(); size < total && grow.length > 0; grow = growable()) {
    const type = rng.pick(grow);
    counts.set(type, counts.get(type)! + 1);
    size++;
  }
  const receptacles: SceneReceptacle[] = [];
  for (const [type, n] of counts) {
    for (let i = 1; i <= n; i++) {
      const byType = RECEPTACLE_KINDS[type].openable;
      const openable = type === 'cabinet' || type === 'drawer' ? rng.float() < OPENABLE_STORAGE : byType;
      receptacles.push({ name: `${type} ${i}`, openable, open: false });
    }
  }
  return receptacles.sort((a, b) => compareListing(a.name, b.name));
}

/** A string that is equal for two scenes exactly when they share a room layout. */
export function layoutKey(scene: Pick<Scene, 'room' | 'receptacles'>): string {
  const recs = [...scene.receptacles].sort((a, b) => compareListing(a.name, b.name));
  return `${scene.room}|${recs.map((r) => `${r.name}${r.openable ? '*' : ''}`).join(',')}`;
}

/** Game `index` of a split (and seed): same arguments, same scene. */
export function generateScene(split: GeneratorSplit, index: number, scale: RoomScale = TINY, seed = 0): Scene {
  if (!GENERATOR_SPLITS.includes(split))
    throw new RangeError(`unknown split "${split}"; known: ${GENERATOR_SPLITS.join(', ')}`);
  if (!Number.isInteger(index) || index < 0)
    throw new RangeError(`scene index must be a non-negative integer, got ${index}`);
  const rng = new Rng(hashString(`scene/${scale.name}/${split}/${seed >>> 0}/${index}`));
  const pool: LayoutPool = split === 'unseen' || split === 'validation-unseen' ? split : 'train';
  const type = rng.pick(TASK_TYPES);
  const room = rng.pick(ROOM_KINDS.filter((k) => ROOMS[k].tasks.includes(type)));
  for (let attempt = 0; attempt < 100; attempt++) {
    const receptacles = roomLayout(room, pool, rng.int(scale.layouts[pool]), scale);
    const scene = populate(rng, room, receptacles, type, scale);
    if (scene) return scene;
  }
  throw new Error(`generator: no ${type} task fits ${room} layouts of scale ${scale.name} (room table error)`);
}

/** The fixed evaluation set of a split: EVAL_COUNTS[split] games drawn with EVAL_SEED. */
export function evalScenes(split: 'seen' | 'unseen', scale: RoomScale = TINY, count = EVAL_COUNTS[split]): Scene[] {
  return Array.from({ length: count }, (_, i) => generateScene(split, i, scale, EVAL_SEED));
}

/** Validation games of training rooms: the seen split drawn with VALIDATION_SEED, apart from training and evaluation games. */
export function validationScenes(scale: RoomScale = TINY, count = EVAL_COUNTS.seen): Scene[] {
  return Array.from({ length: count }, (_, i) => generateScene('seen', i, scale, VALIDATION_SEED));
}

/** Validation games of unseen rooms: the validation-unseen split drawn with VALIDATION_SEED, rooms no eval set holds. */
export function validationUnseenScenes(scale: RoomScale = TINY, count = EVAL_COUNTS.unseen): Scene[] {
  return Array.from({ length: count }, (_, i) => generateScene('validation-unseen', i, scale, VALIDATION_SEED));
}

function instancesOf(receptacles: SceneReceptacle[], types: readonly string[]): string[] {
  return receptacles.filter((r) => types.includes(typeOf(r.name))).map((r) => r.name);
}

/**
 * A receptacle for an object, by its placement prior (rooms.ts): a receptacle type drawn by weight among the
 * types of `allowed` that the room has, then one of its instances uniformly; null when none is present.
 */
function drawPlace(
  rng: Rng,
  receptacles: SceneReceptacle[],
  placement: Placement,
  allowed: readonly string[] = placesOf(placement),
): string | null {
  const present = allowed.filter((t) => placement[t] !== undefined && receptacles.some((r) => typeOf(r.name) === t));
  if (present.length === 0) return null;
  let x = rng.float() * present.reduce((sum, t) => sum + placement[t], 0);
  let type = present[present.length - 1];
  for (const t of present) {
    x -= placement[t];
    if (x < 0) {
      type = t;
      break;
    }
  }
  return rng.pick(instancesOf(receptacles, [type]));
}

/** Objects and task for a layout; null when the drawn task does not fit the layout (the caller redraws). */
function populate(
  rng: Rng,
  room: RoomKind,
  receptacles: SceneReceptacle[],
  type: TaskType,
  scale: RoomScale,
): Scene | null {
  const spec = ROOMS[room];
  const present = new Set(receptacles.map((r) => typeOf(r.name)));
  const state = requiredState(type);
  const able = (o: string) => {
    const k = OBJECT_KINDS[o];
    return (
      k.pickupable &&
      (state === 'heat' ? k.heatable : state === 'cool' ? k.coolable : state === 'clean' ? k.cleanable : true)
    );
  };
  const objectType = rng.pick(Object.keys(spec.objects).filter(able));
  const placement = spec.objects[objectType];
  const spawnTypes = placesOf(placement).filter((t) => present.has(t));
  let task: Task;
  let sources: string[];
  const placed: SceneObject[] = [];
  if (type === 'look_at_obj_in_light') {
    const lamp = rng.pick(spec.lamps);
    task = { type, goal: rng.pick(goalsFor(type, objectType, lamp)), object: objectType, lamp };
    sources = instancesOf(receptacles, spawnTypes);
  } else {
    const appliance = state ? APPLIANCE[state] : null;
    const targets = spawnTypes.filter((t) => t !== appliance);
    if (targets.length === 0) return null;
    const target = rng.pick(targets);
    task = { type, goal: rng.pick(goalsFor(type, objectType, target)), object: objectType, target };
    sources = instancesOf(
      receptacles,
      spawnTypes.filter((t) => t !== target),
    );
  }
  if (sources.length === 0) return null;
  const copies = Math.max(type === 'pick_two_obj_and_place' ? 2 : 1, rangeInt(rng, scale.taskCopies));
  const sourceTypes = [...new Set(sources.map(typeOf))];
  for (let i = 0; i < copies; i++)
    placed.push({ name: objectType, in: drawPlace(rng, receptacles, placement, sourceTypes)! });
  if (spec.lamps.length > 0) {
    const lamp = task.type === 'look_at_obj_in_light' ? task.lamp : rng.pick(spec.lamps);
    placed.push({ name: lamp, in: rng.pick(instancesOf(receptacles, spec.lampHolders)) });
  }
  const distractorTypes = Object.keys(spec.objects).filter(
    (o) => o !== objectType && placesOf(spec.objects[o]).some((t) => present.has(t)),
  );
  const total = Math.max(placed.length, rangeInt(rng, scale.objects));
  while (placed.length < total && distractorTypes.length > 0) {
    const o = rng.pick(distractorTypes);
    placed.push({ name: o, in: drawPlace(rng, receptacles, spec.objects[o])! });
  }
  return { room, receptacles, objects: number(rng, placed), task };
}

/** Gives each object an instance number: 1..k per type, in a random order, as ALFWorld's ids do. */
function number(rng: Rng, placed: SceneObject[]): SceneObject[] {
  const byType = new Map<string, SceneObject[]>();
  for (const p of placed) byType.set(p.name, [...(byType.get(p.name) ?? []), p]);
  const out: SceneObject[] = [];
  for (const [type, items] of byType) {
    rng.shuffle(items).forEach((p, i) => {
      out.push({ name: `${type} ${i + 1}`, in: p.in });
    });
  }
  return out.sort((a, b) => compareListing(a.name, b.name));
}

const layoutIndices = new WeakMap<RoomScale, Map<string, string>>();

/**
 * A stable id of a scene's room layout, `${room}/${pool}/${index}`: the pool and the index that roomLayout
 * gives it (found by layoutKey). Games that share an id share their room; an evaluation that clusters its
 * games by layout groups them by this id.
 */
export function layoutId(scene: Pick<Scene, 'room' | 'receptacles'>, scale: RoomScale = TINY): string {
  let ids = layoutIndices.get(scale);
  if (!ids) {
    ids = new Map();
    for (const pool of POOLS) {
      for (const room of ROOM_KINDS) {
        for (let index = 0; index < scale.layouts[pool]; index++)
          ids.set(layoutKey({ room, receptacles: roomLayout(room, pool, index, scale) }), `${room}/${pool}/${index}`);
      }
    }
    layoutIndices.set(scale, ids);
  }
  const id = ids.get(layoutKey(scene));
  if (id === undefined) throw new RangeError(`the scene's ${scene.room} is no layout of scale ${scale.name}`);
  return id;
}
