// The household's expert tokens (RlWorld.expertTokens; rl/diagnostics.ts says what they are for): a token is
// credited when it is on one of the expert's shortest plans from the state the agent was in.
import { shortestPlans } from '../env/expert.ts';
import type { StepRecord } from '../env/game.ts';
import type { Scene } from '../env/scene.ts';
import { World } from '../env/world.ts';
import type { Trajectory } from '../../../rl/rollout.ts';
import type { Tokenizer } from '../../../text/tokenizer.ts';

/** The token ids (end token included) of the first commands of the expert's shortest plans, per world state. */
export type ExpertCache = Map<string, number[][]>;

function stateKey(w: World): string {
  return `${w.at}|${w.held}|${w.loc.join(',')}|${w.isOpen.join('')}|${w.hot.join('')}${w.cold.join('')}${w.clean.join('')}${w.on.join('')}`;
}

/**
 * Per scored token of a trajectory: 1 where the token is on one of the expert's shortest plans from the state
 * the agent was in at that step (the world replayed from the trajectory's records): some plan's first command
 * has this token at this position and the command's earlier tokens too; 0 elsewhere (another command, or a
 * command that already left every such plan). `cache` may be shared by trajectories of the same scene.
 */
export function expertTokens(
  t: Pick<Trajectory<Scene, StepRecord>, 'scene' | 'records' | 'commands'>,
  tok: Pick<Tokenizer, 'encode' | 'endId'>,
  cache: ExpertCache = new Map(),
): Uint8Array {
  const out = new Uint8Array(t.commands.reduce((n, c) => n + c.ids.length, 0));
  const world = new World(t.scene);
  let k = 0;
  t.commands.forEach((c, step) => {
    const key = stateKey(world);
    let experts = cache.get(key);
    if (!experts) {
      const firsts = world.goalReached() ? [] : [...new Set(shortestPlans(world).map((plan) => plan[0]))];
      experts = firsts.map((command) => [...tok.encode(command), tok.endId]);
      cache.set(key, experts);
    }
    for (let j = 0; j < c.ids.length; j++) {
      // An expert command that agrees up to j: the sampled prefix is still on it.
      if (!experts.some((e) => e.length > j && e.slice(0, j + 1).every((id, m) => id === c.ids[m]))) break;
      out[k + j] = 1;
    }
    k += c.ids.length;
    const record = t.records[step + 1];
    if (record) world.apply(record.action);
  });
  return out;
}

/** expertTokens of every trajectory, in the update's per-token order (the plans computed once per scene and state). */
export function updateExpertTokens(
  trajectories: readonly Trajectory<Scene, StepRecord>[],
  tok: Pick<Tokenizer, 'encode' | 'endId'>,
): Uint8Array {
  const caches = new Map<Scene, ExpertCache>();
  const parts = trajectories.map((t) => {
    let cache = caches.get(t.scene);
    if (!cache) {
      cache = new Map();
      caches.set(t.scene, cache);
    }
    return expertTokens(t, tok, cache);
  });
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let k = 0;
  for (const p of parts) {
    out.set(p, k);
    k += p.length;
  }
  return out;
}
