import { describe, expect, it } from 'vitest';
import { Game } from './game.ts';
import { shortestPlans } from './expert.ts';
import { generateScene, SPLITS } from './splits.ts';
import { ALFWORLD, TINY } from './scale.ts';
import { TASK_TYPES } from './text.ts';
import { World } from './world.ts';

function key(w: World): string {
  return `${w.at}|${w.held}|${w.loc.join(',')}|${w.isOpen.join('')}|${w.hot.join('')}${w.cold.join('')}${w.clean.join('')}${w.on.join('')}`;
}

/** Breadth-first search over the commands that change the world (examine, look and inventory never do). */
function shortestSolution(start: World): number {
  let frontier = [start];
  const seen = new Set([key(start)]);
  for (let depth = 1; depth <= 14; depth++) {
    const next: World[] = [];
    for (const w of frontier) {
      for (const c of w.admissible()) {
        if (c.startsWith('examine') || c === 'look' || c === 'inventory') continue;
        const v = w.clone();
        v.apply(c);
        if (v.goalReached()) return depth;
        const k = key(v);
        if (!seen.has(k)) {
          seen.add(k);
          next.push(v);
        }
      }
    }
    frontier = next;
  }
  throw new Error('no solution within 14 steps');
}

describe('expert', () => {
  it('finds the optimum that breadth-first search finds (tiny scenes, every task type)', () => {
    const types = new Set<string>();
    for (let i = 0; i < 60; i++) {
      const scene = generateScene('train', i, TINY, 99);
      types.add(scene.task.type);
      const plan = new Game(scene).expertPlan();
      expect(plan.length, `scene ${i} (${scene.task.type})`).toBe(shortestSolution(new World(scene)));
    }
    expect(types.size).toBe(TASK_TYPES.length);
  });

  it('solves 200 games of every split at both scales within max steps', () => {
    for (const scale of [TINY, ALFWORLD]) {
      for (const split of SPLITS) {
        for (let i = 0; i < 200; i++) {
          const game = new Game(generateScene(split, i, scale), { maxSteps: scale.maxSteps });
          for (const c of game.expertPlan()) game.step(c);
          expect(game.won, `${scale.name} ${split} ${i}`).toBe(true);
        }
      }
    }
  });

  it('plans from the middle of an episode, hands full of the wrong thing', () => {
    for (let i = 0; i < 100; i++) {
      const game = new Game(generateScene('train', i, TINY), { maxSteps: 60 });
      for (let s = 0; s < 12 && !game.done; s++) {
        const commands = game.admissibleCommands();
        game.step(commands[(i * 7 + s * 13) % commands.length]);
      }
      if (game.done) continue;
      const plan = game.expertPlan();
      for (const c of plan) expect(game.step(c).valid).toBe(true);
      expect(game.won).toBe(true);
    }
  });

  it('keeps every plan that ties for the shortest: the first is the plan, each one wins in as many steps', () => {
    // Two cellphones on sofa 1, both to go to the coffeetable: either can go first.
    const scene = generateScene('train', 0, TINY);
    expect(scene.task.goal).toBe('find two cellphone and put them in coffeetable');
    const plans = shortestPlans(new World(scene));
    expect(plans.map((p) => p[1])).toEqual(['take cellphone 2 from sofa 1', 'take cellphone 1 from sofa 1']);
    expect(plans[0]).toEqual(new Game(scene).expertPlan());
    for (const plan of plans) {
      expect(plan.length).toBe(plans[0].length);
      const game = new Game(scene);
      for (const c of plan) game.step(c);
      expect(game.won).toBe(true);
    }
    let tied = 0;
    for (let i = 0; i < 60; i++) {
      const all = shortestPlans(new World(generateScene('train', i, TINY, 99)));
      expect(new Set(all.map((p) => p.join('|'))).size).toBe(all.length);
      if (all.length > 1) tied++;
    }
    expect(tied).toBeGreaterThan(0);
  });
});
