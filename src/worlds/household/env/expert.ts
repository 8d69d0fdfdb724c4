// The expert: an all-knowing planner that solves every game from any state. A plan is "get the object
// (free the hands first if they hold something else), change its state if the task asks (microwave, fridge,
// sinkbasin), then bring it to the target" (twice for two-object tasks; the lamp instead of a target for
// look_at tasks). Every choice of object instance(s), order and target instance is played out on a copy of
// the world and the shortest plan wins; ties go to the first in listing order, so the plan is deterministic
// (`shortestPlans` keeps every tie).
// Each plan is built from the commands that any solution needs (go to, open when closed, take, the state
// change, put or use), so the shortest of them is the optimum; a breadth-first search confirms it in the tests.
import { APPLIANCE } from './knowledge.ts';
import { requiredState } from './scene.ts';
import type { World } from './world.ts';

class Planner {
  readonly commands: string[] = [];
  constructor(readonly w: World) {}

  get done(): boolean {
    return this.w.goalReached();
  }

  do(command: string): void {
    if (this.done) return;
    const outcome = this.w.apply(command);
    if (!outcome.valid) throw new Error(`expert: "${command}" is not possible (internal error)`);
    this.commands.push(command);
  }

  goTo(r: number): void {
    if (this.w.at !== r) this.do(`go to ${this.w.recNames[r]}`);
  }

  ensureOpen(r: number): void {
    if (this.w.closed(r)) this.do(`open ${this.w.recNames[r]}`);
  }

  /** Puts down whatever the hands hold: here if possible, else at `near` (where the next object is). */
  freeHands(near: number): void {
    const w = this.w;
    if (w.held < 0) return;
    const spot = w.at >= 0 && !w.closed(w.at) ? w.at : near;
    this.goTo(spot);
    this.ensureOpen(spot);
    this.do(`put ${w.objNames[w.held]} in/on ${w.recNames[spot]}`);
  }

  acquire(o: number): void {
    const w = this.w;
    if (w.held === o) return;
    const r = w.loc[o];
    this.freeHands(r);
    this.goTo(r);
    this.ensureOpen(r);
    this.do(`take ${w.objNames[o]} from ${w.recNames[r]}`);
  }

  change(o: number, verb: 'heat' | 'cool' | 'clean'): void {
    const w = this.w;
    const has = verb === 'heat' ? w.hot[o] : verb === 'cool' ? w.cold[o] : w.clean[o];
    if (has) return;
    const type = APPLIANCE[verb];
    const r = w.at >= 0 && w.recTypes[w.at] === type ? w.at : w.recTypes.indexOf(type);
    this.goTo(r);
    this.do(`${verb} ${w.objNames[o]} with ${w.recNames[r]}`);
  }

  deliver(o: number, target: number): void {
    this.goTo(target);
    this.ensureOpen(target);
    this.do(`put ${this.w.objNames[o]} in/on ${this.w.recNames[target]}`);
  }
}

function indices(list: readonly string[], type: string): number[] {
  const out: number[] = [];
  list.forEach((t, i) => {
    if (t === type) out.push(i);
  });
  return out;
}

/** Ordered selections of k distinct items (k <= 2 here). */
function arrangements(items: number[], k: number): number[][] {
  if (k === 0) return [[]];
  const out: number[][] = [];
  for (const a of items)
    for (const rest of arrangements(
      items.filter((b) => b !== a),
      k - 1,
    ))
      out.push([a, ...rest]);
  return out;
}

/** The expert's shortest command list from the world's current state; [] when the goal already holds. */
export function planFrom(world: World): string[] {
  return shortestPlans(world)[0];
}

/**
 * Every plan of the expert's that ties for the shortest from the world's current state (another object
 * instance, order or target as good as the first), in listing order, without repeats; [[]] when the goal
 * already holds.
 */
export function shortestPlans(world: World): string[][] {
  if (world.goalReached()) return [[]];
  const task = world.task;
  const objects = indices(world.objTypes, task.object);
  const candidates: Array<(p: Planner) => void> = [];
  if (task.type === 'look_at_obj_in_light') {
    for (const o of objects) {
      for (const lamp of indices(world.objTypes, task.lamp)) {
        candidates.push((p) => {
          p.acquire(o);
          const r = p.w.loc[lamp];
          p.goTo(r);
          p.ensureOpen(r);
          if (!p.w.on[lamp]) p.do(`use ${p.w.objNames[lamp]}`);
        });
      }
    }
  } else {
    const state = requiredState(task.type);
    const targets = indices(world.recTypes, task.target);
    const needed = task.type === 'pick_two_obj_and_place' ? 2 : 1;
    for (const t of targets) {
      const satisfied = (o: number) =>
        world.loc[o] === t &&
        (state === null || (state === 'heat' ? world.hot[o] : state === 'cool' ? world.cold[o] : world.clean[o]) === 1);
      const inPlace = objects.filter(satisfied).length;
      for (const order of arrangements(
        objects.filter((o) => !satisfied(o)),
        needed - inPlace,
      )) {
        candidates.push((p) => {
          for (const o of order) {
            p.acquire(o);
            if (state) p.change(o, state);
            p.deliver(o, t);
          }
        });
      }
    }
  }
  let best: string[][] = [];
  for (const build of candidates) {
    const p = new Planner(world.clone());
    build(p);
    if (!p.done) continue;
    if (best.length === 0 || p.commands.length < best[0].length) best = [p.commands];
    else if (p.commands.length === best[0].length && !best.some((plan) => plan.join('\n') === p.commands.join('\n')))
      best.push(p.commands);
  }
  if (best.length === 0) throw new Error(`expert: no plan reaches "${task.goal}" (internal error)`);
  return best;
}
