// The eval games of `bench learn`, in the fixed order in which every run plays them (and in which learn.json
// lists their outcomes), with the room layout and task type of each: the intervals resample layouts, not
// games, since games of one room share what makes them easy or hard.
import type { EnvironmentName } from '../../../worlds/names.ts';
import { type Environment, type GameSet, gameSetScenes } from '../../../env/environment.ts';
import { environmentOf } from '../../../worlds/environments.ts';

export interface EvalGame {
  /**
   * The game's cluster (environment.ts clusterOf): the household's room layout, the shop's type and attribute
   * combination; games with the same id share what makes them easy or hard.
   */
  layout: string;
  type: string;
}

/** The eval sets a benchmark plays: the first evalEpisodes games of each split (all of them for 0). */
export function evalSets<S>(evalEpisodes: number, env: Environment<S>): { seen: S[]; unseen: S[] } {
  const cut = (list: S[]) => (evalEpisodes > 0 ? list.slice(0, evalEpisodes) : list);
  return { seen: cut(env.evalScenes('seen')), unseen: cut(env.evalScenes('unseen')) };
}

/**
 * The games every choice of the benchmark is made on (each arm's settings, the headline's arm, --pick-best's):
 * validation games of the unseen kind, so that a setting is chosen for the games the headline reports
 * (eval-unseen), on none of them.
 */
export const SWEEP_GAMES: GameSet = 'validation-unseen';

/** The games a sweep run scores on: the first evalEpisodes of SWEEP_GAMES (all of them for 0). */
export function sweepScenes<S>(evalEpisodes: number, env: Environment<S>): S[] {
  const games = gameSetScenes(env, SWEEP_GAMES);
  return evalEpisodes > 0 ? games.slice(0, evalEpisodes) : games;
}

const gameCounts = new Map<string, { seen: number; unseen: number; sweep: number }>();

/** How many games a benchmark's runs play in each eval set and a sweep run on SWEEP_GAMES, for `evalEpisodes`. */
export function evalGameCounts(
  evalEpisodes: number,
  world: EnvironmentName,
): { seen: number; unseen: number; sweep: number } {
  let counts = gameCounts.get(`${world}/${evalEpisodes}`);
  if (!counts) {
    const env = environmentOf(world);
    const cut = (n: number) => (evalEpisodes > 0 ? Math.min(evalEpisodes, n) : n);
    counts = {
      seen: cut(env.evalCounts.seen),
      unseen: cut(env.evalCounts.unseen),
      sweep: cut(gameSetScenes(env, SWEEP_GAMES).length),
    };
    gameCounts.set(`${world}/${evalEpisodes}`, counts);
  }
  return counts;
}

/** Cluster and task type of each eval game, in the order of evalSets. */
export function evalGames<S>(evalEpisodes: number, env: Environment<S>): { seen: EvalGame[]; unseen: EvalGame[] } {
  const describe = (scenes: S[]) => scenes.map((s) => ({ layout: env.clusterOf(s), type: env.taskType(s) }));
  const { seen, unseen } = evalSets(evalEpisodes, env);
  return { seen: describe(seen), unseen: describe(unseen) };
}

/** The games' indices grouped by layout, the groups in order of their first game. */
export function layoutClusters(games: readonly EvalGame[]): number[][] {
  const byLayout = new Map<string, number[]>();
  games.forEach((g, i) => {
    const cluster = byLayout.get(g.layout);
    if (cluster) cluster.push(i);
    else byLayout.set(g.layout, [i]);
  });
  return [...byLayout.values()];
}
