// Whether a skill tells the truth about where the task's object was. A skill states where an object was in two
// ways: a fact ("the mug 1 was on the countertop 2", "a mug was in a cabinet") and a take with its source
// ("take the mug 1 from the countertop 2", "forgetting to take the mug from the cabinet 1"). Each such claim
// about an object of the task's type is checked against the scene: it is true when an object of that type (of
// that instance number, when the skill gives one) started in a receptacle of that type (and number, when
// given), false otherwise. The goal receptacle never holds the task's object at the start (splits.ts draws
// its places among the other types), so naming it as where the object was is always false, and counted apart.
// A denial ("the mug was not in the cabinet 1") that names the exact receptacle where such an object started
// is counted apart too; a denial without an instance number is too vague to check and is left out. The other
// half of the confusion is where the object goes: a put of the task's object ("put it on the sofa 1",
// "forgetting to put it in the countertop") names a receptacle other than the goal.
// "it" and "them" stand for the last object the skill named before them, and for the task's object before any
// (the same reading as the skill grammar's places filter, ../skills/grammar.ts).
import { numberOf, typeOf } from '../env/knowledge.ts';
import type { Scene } from '../env/scene.ts';
import type { Action, Fact, Mistake, Place, Skill, Thing } from '../skills/skill.ts';
import { parseSkill } from '../skills/parser.ts';

/** An object of the skill, "it" and "them" resolved. */
interface NamedObject {
  type: string;
  number?: number;
}

/** A statement of where an object was, was not, or goes. */
export interface PlaceClaim {
  object: NamedObject;
  place: Place;
  claim: 'was' | 'was-not' | 'goes';
}

/** The claims of a skill about where objects were, in the order of its text. */
export function placeClaims(skill: Skill, taskObject: string): PlaceClaim[] {
  const claims: PlaceClaim[] = [];
  let last: NamedObject = { type: taskObject };
  const name = (t: Thing): NamedObject => {
    if (t !== 'it' && t !== 'them')
      last = t.number === undefined ? { type: t.type } : { type: t.type, number: t.number };
    return last;
  };
  const action = (a: Action) => {
    const object = a.thing === undefined ? null : name(a.thing);
    if (a.verb === 'take' && object && a.place) claims.push({ object, place: a.place, claim: 'was' });
    if (a.verb === 'put' && object && a.place) claims.push({ object, place: a.place, claim: 'goes' });
  };
  const mistake = (m: Mistake) => {
    if (m.kind === 'invalid' || m.kind === 'steps') return;
    action(m.action);
    if (m.kind === 'before') action(m.then);
    if (m.kind === 'instead') name(m.of);
  };
  const fact = (f: Fact) => {
    if (f.kind === 'was') {
      const object = name(f.thing);
      for (const place of f.places) claims.push({ object, place, claim: f.not ? 'was-not' : 'was' });
    } else if (f.kind === 'first') action(f.action);
    else if (f.kind === 'order') {
      action(f.action);
      action(f.then);
    } else if (f.kind === 'nothing' && f.after) action(f.after);
  };
  if (skill.kind === 'workflow') skill.actions.forEach(action);
  else {
    mistake(skill.mistake);
    skill.signs.forEach(fact);
  }
  skill.facts.forEach(fact);
  return claims;
}

export interface SkillPlaceTruth {
  /** States a receptacle where an object of the task's type started, as where it was. */
  statesTrue: boolean;
  /** States a receptacle where no such object started, as where it was. */
  statesFalse: boolean;
  /** Of the false ones: names the goal receptacle as where the object was. */
  goalAsStart: boolean;
  /** Denies the exact receptacle where such an object started. */
  deniesTrue: boolean;
  /** Puts the task's object somewhere other than the goal receptacle (place tasks only). */
  putsElsewhere: boolean;
}

const NO_CLAIM: SkillPlaceTruth = {
  statesTrue: false,
  statesFalse: false,
  goalAsStart: false,
  deniesTrue: false,
  putsElsewhere: false,
};

/** Did an object matching `object` start in a receptacle matching `place` (numbers checked where given)? */
function startedAt(scene: Pick<Scene, 'objects'>, object: NamedObject, place: Place): boolean {
  return scene.objects.some(
    (o) =>
      typeOf(o.name) === object.type &&
      (object.number === undefined || numberOf(o.name) === object.number) &&
      typeOf(o.in) === place.type &&
      (place.number === undefined || numberOf(o.in) === place.number),
  );
}

/** What a skill text says about where the task's object started; a skill that does not parse says nothing. */
export function skillPlaceTruth(text: string, scene: Pick<Scene, 'objects' | 'task'>): SkillPlaceTruth {
  const skill = parseSkill(text).skill;
  if (skill === null) return NO_CLAIM;
  const task = scene.task;
  const goal = task.type === 'look_at_obj_in_light' ? null : task.target;
  const out = { ...NO_CLAIM };
  for (const claim of placeClaims(skill, task.object)) {
    if (claim.object.type !== task.object) continue;
    const started = startedAt(scene, claim.object, claim.place);
    if (claim.claim === 'was') {
      if (started) out.statesTrue = true;
      else out.statesFalse = true;
      if (claim.place.type === goal) out.goalAsStart = true;
    } else if (claim.claim === 'was-not') {
      if (started && claim.place.number !== undefined) out.deniesTrue = true;
    } else if (goal !== null && claim.place.type !== goal) {
      out.putsElsewhere = true;
    }
  }
  return out;
}

/** Shares of skills stating the true starting place and a false one, each over every skill given. */
export interface PlaceTruthShares {
  placeTrue: number;
  placeFalse: number;
}

/** The shares over skills and their scenes; null when there is none. */
export function placeTruthShares(
  skills: readonly { text: string; scene: Pick<Scene, 'objects' | 'task'> }[],
): PlaceTruthShares | null {
  if (skills.length === 0) return null;
  const truths = skills.map((s) => skillPlaceTruth(s.text, s.scene));
  return {
    placeTrue: truths.filter((t) => t.statesTrue).length / skills.length,
    placeFalse: truths.filter((t) => t.statesFalse).length / skills.length,
  };
}
