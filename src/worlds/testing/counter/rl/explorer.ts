// The counter warm start's actor: a noisy player that reads the target off its task line and the counter off
// the last reading, and moves toward the target; with probability `noise` it takes a listed command at random.
import type { Rng } from '../../../../common/rng.ts';
import type { Environment } from '../../../../env/environment.ts';
import { exploreEpisode, type ExploredEpisode } from '../../../../rl/explored_episode.ts';
import { counterExpertPlan } from '../env/expert.ts';
import type { CounterStepRecord } from '../env/game.ts';
import { readTarget, shownValue } from './observed.ts';

/** One episode of the scene by the explorer; the scene is read only through the world (its task and readings). */
export function runCounterExplorer<S>(
  env: Environment<S, CounterStepRecord>,
  scene: S,
  rng: Rng,
  options: { maxSteps: number; noise: number },
): ExploredEpisode<CounterStepRecord> {
  const game = env.episode(scene, options.maxSteps);
  const target = readTarget(env.goal(scene));
  return exploreEpisode(game, rng, options.noise, {
    random: (commands) => rng.pick(commands),
    deliberate: () => counterExpertPlan(shownValue(game.records), target)[0],
    primed: false,
  });
}
