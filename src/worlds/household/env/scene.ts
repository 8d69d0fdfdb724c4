// A scene is data: room kind, receptacles (with openable/open state), objects (with the receptacle they are
// in) and the task. The agent always starts in the middle of the room with empty hands, every object plain
// (not hot, cold or clean) and every lamp off.
//
// Scene JSON, version 1:
//   {"version": 1, "room": "kitchen",                       kitchen | livingroom | bedroom | bathroom
//    "receptacles": [{"name": "cabinet 1", "openable": true, "open": false}, {"name": "countertop 1"}],
//    "objects": [{"name": "apple 1", "in": "countertop 1"}],
//    "task": {"type": "pick_heat_then_place_in_recep", "goal": "put a hot apple in fridge",
//             "object": "apple", "target": "fridge"}}
// "openable" defaults to the type's knowledge, "open" to false; look_at tasks name "lamp" (desklamp or
// floorlamp) instead of "target". Anything else, or anything inconsistent, is a SceneError naming the field.
import { onlyFields, SceneFieldError } from '../../../env/scene_json.ts';
import {
  APPLIANCE,
  LAMP_TYPES,
  MAX_INSTANCE_NUMBER,
  OBJECT_KINDS,
  RECEPTACLE_KINDS,
  isObjectType,
  isReceptacleType,
  parseName,
  typeOf,
  type LampType,
} from './knowledge.ts';
import { parseJson, quote } from '../../../common/json.ts';
import { GOAL_TEMPLATES, TASK_TYPES, fillGoal, type TaskType } from './text.ts';

export const ROOM_KINDS = ['kitchen', 'livingroom', 'bedroom', 'bathroom'] as const;
export type RoomKind = (typeof ROOM_KINDS)[number];

type PlaceTaskType = Exclude<TaskType, 'look_at_obj_in_light'>;

export type Task =
  | { type: PlaceTaskType; goal: string; object: string; target: string }
  | { type: 'look_at_obj_in_light'; goal: string; object: string; lamp: LampType };

export interface SceneReceptacle {
  name: string;
  openable: boolean;
  open: boolean;
}

export interface SceneObject {
  name: string;
  in: string;
}

export interface Scene {
  room: RoomKind;
  receptacles: SceneReceptacle[];
  objects: SceneObject[];
  task: Task;
}

/** A scene that cannot be played; `field` is the JSON path of the culprit ("objects[2].in"). */
export class SceneError extends SceneFieldError {
  override name = 'SceneError';
}

/** The state change a place task asks for before the put, if any. */
export function requiredState(type: TaskType): 'heat' | 'cool' | 'clean' | null {
  if (type === 'pick_heat_then_place_in_recep') return 'heat';
  if (type === 'pick_cool_then_place_in_recep') return 'cool';
  if (type === 'pick_clean_then_place_in_recep') return 'clean';
  return null;
}

export function goalsFor(type: TaskType, object: string, place: string): string[] {
  return GOAL_TEMPLATES[type].map((t) => fillGoal(t, object, place));
}

/** Scene JSON text: one receptacle or object per line, so that scene files read well and diff well. */
export function sceneToJson(scene: Scene): string {
  const task =
    scene.task.type === 'look_at_obj_in_light'
      ? { type: scene.task.type, goal: scene.task.goal, object: scene.task.object, lamp: scene.task.lamp }
      : { type: scene.task.type, goal: scene.task.goal, object: scene.task.object, target: scene.task.target };
  const items = (values: object[]) => values.map((v) => `  ${JSON.stringify(v)}`).join(',\n');
  return [
    `{"version": 1, "room": ${JSON.stringify(scene.room)},`,
    ` "receptacles": [\n${items(scene.receptacles.map((r) => ({ name: r.name, openable: r.openable, open: r.open })))}],`,
    ` "objects": [\n${items(scene.objects.map((o) => ({ name: o.name, in: o.in })))}],`,
    ` "task": ${JSON.stringify(task)}}`,
    '',
  ].join('\n');
}

/** Parses scene JSON (text or an already parsed value) and checks it; throws SceneError. */
export function sceneFromJson(input: unknown): Scene {
  let doc = input;
  if (typeof input === 'string') {
    try {
      doc = parseJson(input);
    } catch (err) {
      throw new SceneError('(file)', `not valid JSON (${(err as Error).message})`);
    }
  }
  const top = record(doc, 'scene', ['version', 'room', 'receptacles', 'objects', 'task']);
  if (top.version !== 1) throw new SceneError('version', `must be 1, got ${quote(top.version)}`);
  const room = top.room;
  if (typeof room !== 'string' || !(ROOM_KINDS as readonly string[]).includes(room)) {
    throw new SceneError('room', `must be one of ${ROOM_KINDS.join(', ')}, got ${quote(room)}`);
  }
  const receptacles = list(top.receptacles, 'receptacles').map((value, i) => {
    const field = `receptacles[${i}]`;
    const r = record(value, field, ['name', 'openable', 'open']);
    const name = instanceName(r.name, `${field}.name`, isReceptacleType, 'receptacle');
    const openable = optionalBoolean(r.openable, `${field}.openable`) ?? RECEPTACLE_KINDS[typeOf(name)].openable;
    const open = optionalBoolean(r.open, `${field}.open`) ?? false;
    if (open && !openable) throw new SceneError(`${field}.open`, `${name} is open but not openable`);
    return { name, openable, open };
  });
  const objects = list(top.objects, 'objects').map((value, i) => {
    const field = `objects[${i}]`;
    const o = record(value, field, ['name', 'in']);
    const name = instanceName(o.name, `${field}.name`, isObjectType, 'object');
    if (typeof o.in !== 'string') throw new SceneError(`${field}.in`, 'missing receptacle name');
    return { name, in: o.in };
  });
  const task = parseTask(top.task);
  const scene: Scene = { room: room as RoomKind, receptacles, objects, task };
  checkScene(scene);
  return scene;
}

/** The consistency checks of a scene, whatever made it: names, places, task against contents. */
export function checkScene(scene: Scene): void {
  if (scene.receptacles.length === 0) throw new SceneError('receptacles', 'a scene needs at least one receptacle');
  const recNames = new Set<string>();
  scene.receptacles.forEach((r, i) => {
    if (recNames.has(r.name)) throw new SceneError(`receptacles[${i}].name`, `${r.name} appears twice`);
    recNames.add(r.name);
  });
  const objNames = new Set<string>();
  scene.objects.forEach((o, i) => {
    if (objNames.has(o.name)) throw new SceneError(`objects[${i}].name`, `${o.name} appears twice`);
    objNames.add(o.name);
    if (!recNames.has(o.in))
      throw new SceneError(`objects[${i}].in`, `${quote(o.in)} is not a receptacle of this scene`);
  });
  const task = scene.task;
  const kind = OBJECT_KINDS[task.object];
  const instances = scene.objects.filter((o) => typeOf(o.name) === task.object);
  const needed = task.type === 'pick_two_obj_and_place' ? 2 : 1;
  if (instances.length < needed) {
    throw new SceneError(
      'task.object',
      `the task needs ${needed} ${task.object} but the scene has ${instances.length}`,
    );
  }
  if (!kind.pickupable) throw new SceneError('task.object', `a ${task.object} cannot be picked up`);
  const state = requiredState(task.type);
  if (state !== null) {
    const able = state === 'heat' ? kind.heatable : state === 'cool' ? kind.coolable : kind.cleanable;
    if (!able)
      throw new SceneError(
        'task.object',
        `a ${task.object} cannot be made ${state === 'heat' ? 'hot' : state === 'cool' ? 'cool' : 'clean'}`,
      );
    const appliance = APPLIANCE[state];
    if (![...recNames].some((n) => typeOf(n) === appliance)) {
      throw new SceneError('receptacles', `the task needs a ${appliance} but the scene has none`);
    }
  }
  if (task.type === 'look_at_obj_in_light') {
    const lampType = task.lamp;
    if (!scene.objects.some((o) => typeOf(o.name) === lampType)) {
      throw new SceneError('task.lamp', `the scene has no ${lampType}`);
    }
  } else {
    const target = task.target;
    const targets = [...recNames].filter((n) => typeOf(n) === target);
    if (targets.length === 0) throw new SceneError('task.target', `the scene has no ${target}`);
    const already = new Map<string, number>();
    for (const o of instances) {
      if (typeOf(o.in) === target) already.set(o.in, (already.get(o.in) ?? 0) + 1);
    }
    if (state === null && [...already.values()].some((n) => n >= needed)) {
      throw new SceneError('task', 'the goal already holds in the initial scene');
    }
  }
}

function parseTask(value: unknown): Task {
  const base = record(value, 'task', ['type', 'goal', 'object', 'target', 'lamp']);
  const type = base.type;
  if (typeof type !== 'string' || !(TASK_TYPES as readonly string[]).includes(type)) {
    throw new SceneError('task.type', `must be one of ${TASK_TYPES.join(', ')}, got ${quote(type)}`);
  }
  const object = base.object;
  if (typeof object !== 'string' || !isObjectType(object)) {
    throw new SceneError('task.object', `unknown object type ${quote(object)}`);
  }
  if (typeof base.goal !== 'string') throw new SceneError('task.goal', 'missing goal sentence');
  const goal = base.goal.trim().replace(/\.$/, '');
  let place: string;
  let task: Task;
  if (type === 'look_at_obj_in_light') {
    if (base.target !== undefined)
      throw new SceneError('task.target', 'a look_at_obj_in_light task names a "lamp", not a target');
    const lamp = base.lamp;
    if (typeof lamp !== 'string' || !(LAMP_TYPES as readonly string[]).includes(lamp)) {
      throw new SceneError('task.lamp', `must be one of ${LAMP_TYPES.join(', ')}, got ${quote(lamp)}`);
    }
    place = lamp;
    task = { type, goal, object, lamp: lamp as LampType };
  } else {
    if (base.lamp !== undefined) throw new SceneError('task.lamp', `only look_at_obj_in_light tasks name a lamp`);
    const target = base.target;
    if (typeof target !== 'string' || !isReceptacleType(target)) {
      throw new SceneError('task.target', `unknown receptacle type ${quote(target)}`);
    }
    place = target;
    task = { type: type as PlaceTaskType, goal, object, target };
  }
  const goals = goalsFor(type as TaskType, object, place);
  if (!goals.includes(goal)) {
    throw new SceneError(
      'task.goal',
      `${quote(goal, 200)} does not match ${type} with ${object} and ${place}; expected one of: ${goals.map((g) => `"${g}"`).join(', ')}`,
    );
  }
  return task;
}

function record(value: unknown, field: string, allowed: readonly string[]): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new SceneError(
      field,
      `must be a JSON object, got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`,
    );
  }
  // The top level is 'scene' in a refusal of its own shape, and no prefix of its fields' names.
  onlyFields(value, field === 'scene' ? '' : field, allowed, SceneError);
  return value as Record<string, unknown>;
}

function list(value: unknown, field: string): unknown[] {
  if (!Array.isArray(value)) throw new SceneError(field, value === undefined ? 'missing list' : 'must be a list');
  return value;
}

function optionalBoolean(value: unknown, field: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') throw new SceneError(field, `must be true or false, got ${quote(value)}`);
  return value;
}

function instanceName(value: unknown, field: string, known: (type: string) => boolean, what: string): string {
  if (typeof value !== 'string' || value === '') throw new SceneError(field, 'missing name');
  const parsed = parseName(value);
  if (!parsed) throw new SceneError(field, `${quote(value)} is not "<type> <number>" in lower case`);
  if (!known(parsed.type)) throw new SceneError(field, `unknown ${what} type "${parsed.type}"`);
  if (parsed.number > MAX_INSTANCE_NUMBER)
    throw new SceneError(field, `instance numbers go up to ${MAX_INSTANCE_NUMBER}, got ${parsed.number}`);
  return value;
}
