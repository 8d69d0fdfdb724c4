// The rule-based annotator of the warm start (the analog of the paper's external skill writer): it reads a
// finished trajectory's step records and writes one skill in the grammar of ../skills/skill.ts, using only what
// the trajectory observed (commands it played, objects its observations listed), never a hidden fact of the
// scene. The rules:
//   success -> "workflow:" the key actions in the order they worked: take, open, heat/cool/clean, put, use
//              (noise such as look or examine is left out), each with the go-to before it unless the action
//              names its place itself ("take the mug 1 from the cabinet 2" says where to go); then the
//              type-level lesson of where the object was ("a mug was in a cabinet"), which carries to the next
//              game, and, when it searched first, the receptacles it searched.
//   failure -> "avoid:" the core mistake, first that applies:
//              1. more than 2 invalid commands                      -> "invalid commands"
//              2. took only objects of another type                 -> "taking the pot 1 from R instead of the pan"
//              3. the object was never seen, a receptacle visited twice -> "going to the same R twice"
//              4. the object was never seen                         -> "running out of steps"
//              5. seen, never taken                                 -> "forgetting to take the X from R"
//              6. taken, its state never changed                    -> "forgetting to heat it with the microwave 1",
//                                                                      and the procedure "heat it with the
//                                                                      microwave 1 before putting it in the T"
//              7. otherwise                                         -> "forgetting to put it in/on the T" / "use the lamp"
//              with warning signs: the receptacles searched and where the object was or was not seen; then
//              the type-level lesson of where it was seen, when it was.
// Two trajectories of one task thus get different skills (other receptacles, instance numbers, mistakes).
// When a skill must be cut to a token budget, what goes first is what the rest implies or what carries least:
// the searched receptacles, then go-to actions, then the type-level lesson.
import type { StepRecord } from '../env/game.ts';
import { APPLIANCE, numberOf, receptaclePrep, typeOf } from '../env/knowledge.ts';
import { requiredState, type Task } from '../env/scene.ts';
import {
  formatSkill,
  type Action,
  type Fact,
  type Mistake,
  type Place,
  type Skill,
  type Thing,
} from '../skills/skill.ts';

function place(name: string, same = false): Place {
  return { det: same ? 'the same' : 'the', type: typeOf(name), number: numberOf(name) };
}

function thing(name: string, det: 'the' | 'a' | 'another' = 'the'): Thing {
  return { det, type: typeOf(name), number: numberOf(name) };
}

/** "a mug was in a cabinet": where an object of the type was found, without this game's instance numbers. */
function typeLesson(object: string, at: string): Fact {
  return {
    kind: 'was',
    thing: { det: 'a', type: typeOf(object) },
    not: false,
    prep: prepOf(at),
    places: [{ det: 'a', type: typeOf(at) }],
  };
}

function prepOf(receptacle: string): 'in' | 'on' {
  return receptaclePrep(typeOf(receptacle));
}

/** take X from R / put X in/on R / heat X with R: the object and receptacle of a command. */
function parts(action: string, sep: string, skip: number): [string, string] {
  const i = action.indexOf(sep);
  return [action.slice(skip, i), action.slice(i + sep.length)];
}

function keyAction(r: StepRecord, taken: Set<string>): Action | null {
  const a = r.action;
  if (a.startsWith('take ')) {
    const [o, from] = parts(a, ' from ', 5);
    return { verb: 'take', thing: thing(o, taken.size > 0 && !taken.has(o) ? 'another' : 'the'), place: place(from) };
  }
  if (a.startsWith('open ')) return { verb: 'open', place: place(a.slice(5)) };
  if (a.startsWith('put ')) {
    const [, to] = parts(a, ' in/on ', 4);
    return { verb: 'put', thing: 'it', prep: prepOf(to), place: place(to) };
  }
  for (const verb of ['heat', 'cool', 'clean'] as const) {
    if (a.startsWith(`${verb} `)) return { verb, thing: 'it', place: place(parts(a, ' with ', verb.length + 1)[1]) };
  }
  if (a.startsWith('use ')) return { verb: 'use', thing: thing(a.slice(4)) };
  return null;
}

/** Receptacles the agent looked into (arrived at or opened), in order, without repeats. */
function searched(records: readonly StepRecord[]): string[] {
  const out: string[] = [];
  for (const r of records) {
    if (!r.valid || r.location === null) continue;
    if (!(r.action.startsWith('go to ') || r.action.startsWith('open '))) continue;
    if (/ is closed\.$/.test(r.observation)) continue;
    if (!out.includes(r.location)) out.push(r.location);
  }
  return out;
}

function firstSeen(records: readonly StepRecord[], type: string): { object: string; at: string; step: number } | null {
  for (const r of records) {
    const o = r.seen.find((s) => typeOf(s) === type);
    if (o && r.location !== null) return { object: o, at: r.location, step: r.step };
  }
  return null;
}

function workflow(records: readonly StepRecord[], task: Task): Skill {
  const actions: Action[] = [];
  const taken = new Set<string>();
  const steps = records.slice(1).filter((r) => r.valid);
  // Only the actions that moved the task on: taking the task's object, changing its state, putting it at the
  // target, using the task's lamp, and opening a receptacle right before one of those there.
  const useful = (r: StepRecord): boolean => {
    const a = r.action;
    if (a.startsWith('take ')) return typeOf(parts(a, ' from ', 5)[0]) === task.object;
    if (a.startsWith('put ')) {
      const [o, to] = parts(a, ' in/on ', 4);
      return typeOf(o) === task.object && task.type !== 'look_at_obj_in_light' && typeOf(to) === task.target;
    }
    if (/^(heat|cool|clean) /.test(a)) return true;
    if (a.startsWith('use ')) return task.type === 'look_at_obj_in_light' && typeOf(a.slice(4)) === task.lamp;
    return false;
  };
  let lastGo: string | null = null;
  steps.forEach((r, i) => {
    if (r.action.startsWith('go to ')) {
      lastGo = r.action.slice(6);
      return;
    }
    const next = steps[i + 1];
    const opensForNext =
      r.action.startsWith('open ') && next !== undefined && useful(next) && next.location === r.location;
    if (!useful(r) && !opensForNext) return;
    const action = keyAction(r, taken);
    if (!action) return;
    const namesItsPlace =
      action.verb === 'take' || action.verb === 'open' || action.verb === 'put' || action.place !== undefined;
    if (lastGo !== null && !namesItsPlace) actions.push({ verb: 'go', place: place(lastGo) });
    lastGo = null;
    actions.push(action);
    if (r.action.startsWith('take ')) taken.add(parts(r.action, ' from ', 5)[0]);
  });
  const facts: Fact[] = [];
  const found = firstSeen(records, task.object);
  if (found) {
    const before = searched(records.filter((r) => r.step < found.step)).filter((p) => p !== found.at);
    facts.push(typeLesson(found.object, found.at));
    if (before.length) facts.push({ kind: 'searched', places: before.slice(-2).map((p) => place(p)) });
  }
  return {
    kind: 'workflow',
    actions: actions.length ? actions : [{ verb: 'find', thing: { det: 'the', type: task.object } }],
    facts,
  };
}

function avoidance(records: readonly StepRecord[], task: Task): Skill {
  const steps = records.slice(1);
  const looked = searched(records);
  const found = firstSeen(records, task.object);
  const invalid = steps.filter((r) => !r.valid).length;
  const visits = new Map<string, number>();
  for (const r of steps)
    if (r.valid && r.action.startsWith('go to '))
      visits.set(r.action.slice(6), (visits.get(r.action.slice(6)) ?? 0) + 1);
  const repeated = [...visits].find(([, n]) => n >= 2)?.[0] ?? null;
  const objectThing: Thing = found ? thing(found.object) : { det: 'the', type: task.object };
  const signs: Fact[] = [];
  if (looked.length) signs.push({ kind: 'searched', places: looked.slice(-3).map((p) => place(p)) });
  let mistake: Mistake;
  const takes = steps.filter((r) => r.valid && r.action.startsWith('take '));
  const heldObject = takes.find((r) => typeOf(parts(r.action, ' from ', 5)[0]) === task.object);
  const wrongTake = heldObject ? undefined : takes[0];
  const state = requiredState(task.type);
  const facts: Fact[] = [];
  if (invalid > 2) {
    mistake = { kind: 'invalid' };
    signs.unshift({ kind: 'nothing' });
  } else if (wrongTake) {
    const [o, from] = parts(wrongTake.action, ' from ', 5);
    mistake = {
      kind: 'instead',
      action: { verb: 'take', thing: thing(o), place: place(from) },
      of: { det: 'the', type: task.object },
    };
  } else if (!found) {
    mistake = repeated
      ? { kind: 'doing', action: { verb: 'go', place: place(repeated, true) }, how: 'twice' }
      : { kind: 'steps' };
    const notIn = looked.slice(-3);
    if (notIn.length)
      signs.push({ kind: 'was', thing: objectThing, not: true, prep: 'in', places: notIn.map((p) => place(p)) });
  } else if (!heldObject) {
    mistake = { kind: 'forgetting', action: { verb: 'take', thing: objectThing, place: place(found.at) } };
  } else if (state && !steps.some((r) => r.valid && r.action.startsWith(`${state} `))) {
    const change: Action = { verb: state, thing: 'it', place: { det: 'the', type: APPLIANCE[state], number: 1 } };
    mistake = { kind: 'forgetting', action: change };
    if (task.type !== 'look_at_obj_in_light') {
      facts.push({
        kind: 'order',
        action: change,
        then: { verb: 'put', thing: 'it', prep: prepOf(`${task.target} 1`), place: { det: 'the', type: task.target } },
      });
    }
  } else if (task.type === 'look_at_obj_in_light') {
    mistake = { kind: 'forgetting', action: { verb: 'use', thing: { det: 'the', type: task.lamp } } };
  } else {
    mistake = {
      kind: 'forgetting',
      action: { verb: 'put', thing: 'it', prep: 'in', place: { det: 'the', type: task.target } },
    };
  }
  if (found) {
    signs.push({ kind: 'was', thing: objectThing, not: false, prep: prepOf(found.at), places: [place(found.at)] });
    facts.push(typeLesson(found.object, found.at));
  }
  if (signs.length === 0) signs.push({ kind: 'nothing' });
  return { kind: 'avoid', mistake, signs, facts };
}

/**
 * The skill of a finished trajectory (records[0] is the opening observation). With `length` (tokens of a
 * text) and `maxTokens`, trailing facts, then a workflow's go-to actions, are dropped until the skill fits.
 */
export function annotate(
  records: readonly StepRecord[],
  task: Task,
  won: boolean,
  fit?: { length: (text: string) => number; maxTokens: number },
): string {
  const skill = won ? workflow(records, task) : avoidance(records, task);
  let text = formatSkill(skill);
  if (!fit) return text;
  while (fit.length(text) > fit.maxTokens) {
    const searchedAt = skill.facts.findIndex((f) => f.kind === 'searched');
    const signSearched =
      skill.kind === 'avoid' && skill.signs.length > 1 ? skill.signs.findIndex((f) => f.kind === 'searched') : -1;
    if (searchedAt >= 0) skill.facts.splice(searchedAt, 1);
    else if (skill.kind === 'workflow' && skill.actions.some((a) => a.verb === 'go'))
      skill.actions.splice(
        skill.actions.findIndex((a) => a.verb === 'go'),
        1,
      );
    else if (signSearched >= 0 && skill.kind === 'avoid') skill.signs.splice(signSearched, 1);
    else if (skill.facts.length) skill.facts.pop();
    else if (skill.kind === 'avoid' && skill.signs.length > 1) skill.signs.pop();
    else if (skill.kind === 'workflow' && skill.actions.length > 1) skill.actions.pop();
    else break;
    text = formatSkill(skill);
  }
  return text;
}
