// What a trajectory observed, for the skill grammar's filters (grammar.ts): the words a skill of it may
// name (`trajectoryWords`), and of where objects were (ObjectPlaces): the receptacles whose contents it saw,
// where it saw each object before first picking it up (where the object started: only the agent moves
// objects), everywhere it saw it, and the receptacle type its task's object goes to.
import type { StepRecord } from '../env/game.ts';
import { APPLIANCE } from '../env/knowledge.ts';
import { requiredState, type Scene, type Task } from '../env/scene.ts';
import { say } from '../env/text.ts';
import { episodeText, type Trajectory } from '../../../rl/rollout.ts';
import { splitPieces } from '../../../text/pieces.ts';
import type { ObjectPlaces } from '../skills/grammar.ts';

/** The words a skill of the trajectory may name, in order: its goal, commands and observations, and its task's appliance. */
export function trajectoryWords(t: Pick<Trajectory<Scene, StepRecord>, 'scene' | 'goal' | 'records'>): string[] {
  const e = episodeText(t);
  const state = requiredState(t.scene.task.type);
  // The appliance as the annotator names it when the episode never went there ("forgetting to heat it with the
  // microwave 1").
  return [
    ...splitPieces([e.goal, ...e.steps.flatMap((s) => [s.action, s.observation])].join('\n')),
    ...(state ? [APPLIANCE[state], '1'] : []),
  ];
}

const VIEWS = ['go to ', 'open ', 'examine '];

/** The places of a trajectory of `task`: "it" stands for its object before a skill names one, which goes to its target. */
export function observedPlaces(records: readonly StepRecord[], task: Task): ObjectPlaces {
  const looked = new Set<string>();
  const startedIn = new Map<string, Set<string>>();
  const seenIn = new Map<string, Set<string>>();
  const taken = new Set<string>();
  const add = (map: Map<string, Set<string>>, object: string, at: string) =>
    map.set(object, (map.get(object) ?? new Set()).add(at));
  for (const r of records) {
    const at = r.location;
    if (at !== null && r.valid) {
      const viewed = VIEWS.some((v) => r.action === `${v}${at}`) && !r.observation.endsWith(say.closed(at));
      if (viewed) looked.add(at);
      for (const o of r.seen) {
        add(seenIn, o, at);
        if (!taken.has(o)) add(startedIn, o, at);
      }
    }
    if (r.holding !== null) taken.add(r.holding);
  }
  const lists = (map: Map<string, Set<string>>) => new Map([...map].map(([o, at]) => [o, [...at]]));
  const goal = task.type === 'look_at_obj_in_light' ? null : task.target;
  return { subject: task.object, looked: [...looked], startedIn: lists(startedIn), seenIn: lists(seenIn), goal };
}
