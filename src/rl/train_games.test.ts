import { describe, expect, it } from 'vitest';
import { TINY } from '../worlds/household/env/scale.ts';
import { defaultConfig } from './config.ts';
import { updateScenes } from './rollout_stage.ts';
import { householdRl } from '../worlds/household/rl/adapter.ts';

describe('trainGames', () => {
  const run = { seed: 3, world: householdRl(TINY) };
  const games = (trainGames: number, updates: number) => {
    const config = { ...defaultConfig('tiny'), tasksPerUpdate: 2, groupSize: 1, trainGames };
    return Array.from({ length: updates }, (_, u) =>
      updateScenes(run, u, config).scenes.map((s) => JSON.stringify(s)),
    ).flat();
  };

  it('0 draws a fresh game for every task; n cycles through the first n games of the run', () => {
    const fresh = games(0, 4);
    expect(new Set(fresh).size).toBe(8);
    const three = games(3, 4);
    expect(three.slice(0, 3)).toEqual(fresh.slice(0, 3));
    expect(three.slice(3, 6)).toEqual(fresh.slice(0, 3));
    expect(new Set(three).size).toBe(3);
  });
});
