// The warm start's actor: a deliberately noisy explorer that knows only what it has observed. It reads the
// goal, the admissible commands of the moment and the objects its own observations listed, never the scene:
// it searches receptacles (opening closed ones) until it sees the object, takes it, changes its state at the
// appliance the task names, and brings it to the target (or uses the lamp where it saw one). With
// probability `noise` it plays a random admissible command instead, so it wanders, repeats itself and
// sometimes runs out of steps, as a weak agent does.
//
// Primed (`prior`), it also starts with knowledge: either all that an earlier episode of the same scene
// observed (`priorKnowledge`: where each object was first seen, which receptacles it searched), or exactly what
// a hindsight skill states (`skillKnowledge`: the instances it places, the receptacles it searched or found
// without the object, and its type-level lessons, "a mug was in a cabinet", which send the search to cabinets
// first). The second is the actor of the warm start's follow examples: it acts on the skill's facts and on
// nothing else, so the examples teach the policy to read the skill, not to guess.
import type { Rng } from '../../../common/rng.ts';
import { Game, type StepRecord } from '../env/game.ts';
import { APPLIANCE, typeOf } from '../env/knowledge.ts';
import { requiredState, type Scene } from '../env/scene.ts';
import type { Fact, Place, Thing } from '../skills/skill.ts';
import { parseSkill } from '../skills/parser.ts';

export interface ExplorerOptions {
  maxSteps: number;
  noise: number;
  /** What the explorer knows before it starts: an earlier episode's records, or knowledge (skillKnowledge). */
  prior?: readonly StepRecord[] | PriorKnowledge;
}

export interface ExplorerEpisode {
  game: Game;
  /** Admissible commands before each step (index t = before command t + 1). */
  admissible: string[][];
  /** Per step: the command was the noise draw, not the explorer's own choice. */
  random: boolean[];
}

function pick(rng: Rng, list: string[]): string | null {
  return list.length ? rng.pick(list) : null;
}

/** "take X from R" -> [X, R]. */
function takeParts(command: string): [string, string] {
  const at = command.indexOf(' from ');
  return [command.slice(5, at), command.slice(at + 6)];
}

/** What an earlier episode of the scene observed: first place each object was seen, receptacles searched. */
export interface PriorKnowledge {
  firstSeen: Map<string, string>;
  searched: Set<string | null>;
  /** Object type -> receptacle types to search first (type-level lessons), in the order stated. */
  lessons: Map<string, string[]>;
}

const NO_PRIOR: PriorKnowledge = { firstSeen: new Map(), searched: new Set(), lessons: new Map() };

const nameOf = (type: string, number: number | undefined) => (number === undefined ? null : `${type} ${number}`);
const thingName = (t: Thing) => (typeof t === 'string' ? null : nameOf(t.type, t.number));
const placeName = (p: Place) => (p.det === 'a' ? null : nameOf(p.type, p.number));

/**
 * What a hindsight skill states, as the explorer's knowledge: "take the mug 1 from the cabinet 2" and "the mug 1
 * was in the cabinet 2" place an instance; "you searched ..." and "the mug 1 was not in ..." mark receptacles
 * as searched; "a mug was in a cabinet" is a lesson about the type. A skill that does not parse states nothing.
 */
export function skillKnowledge(text: string): PriorKnowledge {
  const knowledge: PriorKnowledge = { firstSeen: new Map(), searched: new Set(), lessons: new Map() };
  const skill = parseSkill(text).skill;
  if (!skill) return knowledge;
  const fact = (f: Fact) => {
    if (f.kind === 'searched') for (const p of f.places) knowledge.searched.add(placeName(p));
    if (f.kind !== 'was' || typeof f.thing === 'string') return;
    if (f.not) {
      for (const p of f.places) knowledge.searched.add(placeName(p));
      return;
    }
    const object = thingName(f.thing);
    const at = placeName(f.places[0]);
    if (object !== null && at !== null && !knowledge.firstSeen.has(object)) knowledge.firstSeen.set(object, at);
    if (f.thing.det === 'a' && f.places[0].det === 'a') {
      const types = knowledge.lessons.get(f.thing.type) ?? [];
      knowledge.lessons.set(f.thing.type, [...types, ...f.places.map((p) => p.type)]);
    }
  };
  if (skill.kind === 'workflow') {
    for (const a of skill.actions) {
      if (a.verb !== 'take' || a.thing === undefined || a.place === undefined) continue;
      const object = thingName(a.thing);
      const from = placeName(a.place);
      if (object !== null && from !== null && !knowledge.firstSeen.has(object)) knowledge.firstSeen.set(object, from);
    }
  } else {
    skill.signs.forEach(fact);
  }
  skill.facts.forEach(fact);
  knowledge.searched.delete(null);
  return knowledge;
}

function priorKnowledge(records: readonly StepRecord[]): PriorKnowledge {
  const firstSeen = new Map<string, string>();
  for (const r of records) {
    for (const o of r.seen) if (!firstSeen.has(o) && r.location !== null) firstSeen.set(o, r.location);
    if (r.valid && r.action.startsWith('take ')) {
      const [obj, from] = takeParts(r.action);
      if (!firstSeen.has(obj)) firstSeen.set(obj, from);
    }
  }
  return { firstSeen, searched: searchedPlaces(records), lessons: new Map() };
}

function searchedPlaces(records: readonly StepRecord[]): Set<string | null> {
  return new Set(
    records
      .filter((r) => r.valid && (r.action.startsWith('go to ') || r.action.startsWith('open ')))
      .map((r) => r.location),
  );
}

/** The explorer's next command: with probability `noise` a random admissible one, else its own choice. */
function explorerCommand(
  game: Game,
  admissible: string[],
  rng: Rng,
  noise: number,
  prior: PriorKnowledge = NO_PRIOR,
): { command: string; random: boolean } {
  if (rng.float() < noise) return { command: rng.pick(admissible), random: true };
  return { command: deliberateCommand(game, admissible, rng, prior), random: false };
}

/** The explorer's own choice from what it has seen so far (and what a prior episode saw). */
function deliberateCommand(game: Game, admissible: string[], rng: Rng, prior: PriorKnowledge): string {
  const task = game.scene.task;
  const records = game.records;
  const held = game.holding();
  const at = game.location();
  const has = (cmd: string) => admissible.includes(cmd);
  const goTo = (type: string) =>
    pick(
      rng,
      admissible.filter((c) => c.startsWith('go to ') && typeOf(c.slice(6)) === type),
    );
  const state = requiredState(task.type);
  const target = task.type === 'look_at_obj_in_light' ? null : task.target;
  const changed = (name: string) =>
    records.some((r) => r.valid && state !== null && r.action.startsWith(`${state} ${name} with `));
  // Where each object was last seen, from the observations (never from the scene).
  const lastSeen = new Map<string, string | null>(prior.firstSeen);
  for (const r of records) {
    for (const o of r.seen) lastSeen.set(o, r.location);
    if (r.valid && r.action.startsWith('take ')) lastSeen.set(takeParts(r.action)[0], null);
  }
  const delivered = new Set(
    records
      .filter((r) => r.valid && r.action.startsWith('put '))
      .map((r) => r.action.slice(4, r.action.indexOf(' in/on '))),
  );

  if (held !== null) {
    if (typeOf(held) !== task.object)
      return (
        pick(
          rng,
          admissible.filter((c) => c.startsWith(`put ${held} `)),
        ) ?? rng.pick(admissible)
      );
    if (state !== null && !changed(held)) {
      return (
        pick(
          rng,
          admissible.filter((c) => c.startsWith(`${state} ${held} with `)),
        ) ??
        goTo(APPLIANCE[state]) ??
        rng.pick(admissible)
      );
    }
    if (task.type === 'look_at_obj_in_light') {
      const use = admissible.find((c) => c.startsWith(`use ${task.lamp} `));
      if (use) return use;
      const lamp = [...lastSeen].find(([o, where]) => typeOf(o) === task.lamp && where !== null);
      if (lamp && lamp[1] !== at && has(`go to ${lamp[1]}`)) return `go to ${lamp[1]}`;
      return explore(game, admissible, rng, prior);
    }
    const put = admissible.find(
      (c) => c.startsWith(`put ${held} in/on `) && typeOf(c.slice(c.indexOf(' in/on ') + 7)) === target,
    );
    if (put) return put;
    if (at !== null && typeOf(at) === target && has(`open ${at}`)) return `open ${at}`;
    return goTo(target!) ?? rng.pick(admissible);
  }
  const takes = admissible.filter((c) => {
    if (!c.startsWith('take ')) return false;
    const [obj, from] = takeParts(c);
    return typeOf(obj) === task.object && !delivered.has(obj) && (target === null || typeOf(from) !== target);
  });
  if (takes.length) return takes[0];
  // Known (from a prior episode) to hold the object but still closed in this game: open it.
  const here = [...lastSeen].some(([o, where]) => typeOf(o) === task.object && where === at && !delivered.has(o));
  if (here && at !== null && has(`open ${at}`) && !records.some((r) => r.valid && r.action === `open ${at}`))
    return `open ${at}`;
  const known = [...lastSeen].find(
    ([o, where]) =>
      typeOf(o) === task.object &&
      where !== null &&
      where !== at &&
      !delivered.has(o) &&
      (target === null || typeOf(where) !== target),
  );
  if (known && has(`go to ${known[1]}`)) return `go to ${known[1]}`;
  return explore(game, admissible, rng, prior);
}

/**
 * Opens the closed receptacle it stands at, else goes to a receptacle it has not looked into (here or before),
 * one of the types a lesson names for the task's object first.
 */
function explore(game: Game, admissible: string[], rng: Rng, prior: PriorKnowledge): string {
  const at = game.location();
  if (
    at !== null &&
    admissible.includes(`open ${at}`) &&
    !game.records.some((r) => r.valid && r.action === `open ${at}`)
  )
    return `open ${at}`;
  const looked = new Set([...prior.searched, ...searchedPlaces(game.records)]);
  const fresh = admissible.filter((c) => c.startsWith('go to ') && !looked.has(c.slice(6)));
  for (const type of prior.lessons.get(game.scene.task.object) ?? []) {
    const go = pick(
      rng,
      fresh.filter((c) => typeOf(c.slice(6)) === type),
    );
    if (go) return go;
  }
  return (
    pick(rng, fresh) ??
    pick(
      rng,
      admissible.filter((c) => c.startsWith('go to ')),
    ) ??
    rng.pick(admissible)
  );
}

export function runExplorer(scene: Scene, rng: Rng, options: ExplorerOptions): ExplorerEpisode {
  const game = new Game(scene, { maxSteps: options.maxSteps });
  const prior =
    options.prior === undefined
      ? NO_PRIOR
      : Array.isArray(options.prior)
        ? priorKnowledge(options.prior)
        : (options.prior as PriorKnowledge);
  const admissible: string[][] = [];
  const random: boolean[] = [];
  while (!game.done) {
    const cmds = game.admissibleCommands();
    admissible.push(cmds);
    const next = explorerCommand(game, cmds, rng, options.noise, prior);
    random.push(next.random);
    game.step(next.command);
  }
  return { game, admissible, random };
}
