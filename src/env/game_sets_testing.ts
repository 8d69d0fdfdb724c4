// Where a world's splits meet, as a list (empty where they do not): the games each two of its fixed sets of games
// (gameSetsOf) and the train games of a run's seeds share, and the games of any of them in a cluster (clusterOf:
// what the splits hold out) of the validation-unseen games, which share none, so that a choice made on them is made
// on games of the unseen kind that no eval set and no training run holds.
import { createHash } from 'node:crypto';
import { type Environment, gameSetScenes, gameSetsOf } from './environment.ts';

/** A short hash of a list of games, each by its JSON, in order. */
export function gamesHash<S>(env: Environment<S>, scenes: readonly S[]): string {
  return createHash('sha256')
    .update(scenes.map((s) => env.sceneToJson(s)).join('\n'))
    .digest('hex')
    .slice(0, 16);
}

/** The train games of `games` indices under each of `seeds`, as a run of those seeds draws them. */
export function trainGames<S>(env: Environment<S>, seeds: readonly number[], games: number): S[] {
  return seeds.flatMap((seed) => Array.from({ length: games }, (_, i) => env.trainScene(i, seed)));
}

/** Every fixed set of games of a world (gameSetsOf), whole, by its name. */
export function gameSetsOfWorld<S>(env: Environment<S>): Map<string, readonly S[]> {
  return new Map(gameSetsOf(env).map((set) => [set, gameSetScenes(env, set)]));
}

/** Where the sets meet: those of gameSetsOfWorld and the train games of a run's seeds (trainGames). */
export function gameSetsOverlaps<S>(
  env: Environment<S>,
  fixed: Map<string, readonly S[]>,
  train: readonly S[],
): string[] {
  const sets = new Map<string, readonly S[]>([['train', train], ...fixed]);
  const problems: string[] = [];
  const names = [...sets.keys()];
  for (const [i, a] of names.entries()) {
    for (const b of names.slice(i + 1)) {
      const games = new Set(sets.get(a)!.map((s) => env.sceneToJson(s)));
      const shared = sets.get(b)!.filter((s) => games.has(env.sceneToJson(s))).length;
      if (shared > 0) problems.push(`${a} and ${b} share ${shared} game${shared === 1 ? '' : 's'}`);
      if (a !== 'validation-unseen' && b !== 'validation-unseen') continue;
      const clusters = new Set(sets.get(a)!.map((s) => env.clusterOf(s)));
      const sharedClusters = sets.get(b)!.filter((s) => clusters.has(env.clusterOf(s))).length;
      if (sharedClusters > 0) problems.push(`${sharedClusters} games of ${b} are in clusters of ${a}`);
    }
  }
  return problems;
}
