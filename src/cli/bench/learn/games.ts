// The eval games of `bench learn`, in the fixed order in which every run plays them (and in which learn.json
// lists their outcomes), with the room layout and task type of each: the intervals resample layouts, not
// games, since games of one room share what makes them easy or hard.
import { evalScenes, layoutId } from '../../../env/generate.ts';
import { TINY } from '../../../env/scale.ts';
import type { Scene } from '../../../env/scene.ts';

export interface EvalGame {
  /** The room layout (generate.ts, layoutId): games with the same id are played in the same room. */
  layout: string;
  type: string;
}

/** The eval sets a benchmark plays: the first evalEpisodes games of each split (all of them for 0). */
export function evalSets(evalEpisodes: number): { seen: Scene[]; unseen: Scene[] } {
  const cut = (list: Scene[]) => (evalEpisodes > 0 ? list.slice(0, evalEpisodes) : list);
  return { seen: cut(evalScenes('seen', TINY)), unseen: cut(evalScenes('unseen', TINY)) };
}

/** Layout and task type of each eval game, in the order of evalSets. */
export function evalGames(evalEpisodes: number): { seen: EvalGame[]; unseen: EvalGame[] } {
  const describe = (scenes: Scene[]) => scenes.map((s) => ({ layout: layoutId(s, TINY), type: s.task.type }));
  const { seen, unseen } = evalSets(evalEpisodes);
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
