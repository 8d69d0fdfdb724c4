import { describe, expect, it } from 'vitest';
import { evalScenes, layoutId, roomLayout } from '../../../worlds/household/env/splits.ts';
import { TINY } from '../../../worlds/household/env/scale.ts';
import { householdEnvironment } from '../../../worlds/household/env/environment.ts';
import { defaultConfig } from '../../../rl/config.ts';
import { evalGames, layoutClusters } from './games.ts';
import { runJob } from '../jobs/job.ts';

describe('bench learn: the eval games', () => {
  it("names each game's layout and task type, in the order of the eval sets", () => {
    const games = evalGames(0, householdEnvironment(TINY));
    const scenes = { seen: evalScenes('seen', TINY), unseen: evalScenes('unseen', TINY) };
    for (const split of ['seen', 'unseen'] as const) {
      expect(games[split]).toHaveLength(scenes[split].length);
      games[split].forEach((g, i) => {
        expect(g.type).toBe(scenes[split][i].task.type);
        const [room, pool, index] = g.layout.split('/');
        expect([room, pool]).toEqual([scenes[split][i].room, split === 'seen' ? 'train' : 'unseen']);
        expect(
          roomLayout(scenes[split][i].room, pool as 'train' | 'unseen', Number(index), TINY).map((r) => r.name),
        ).toEqual(scenes[split][i].receptacles.map((r) => r.name));
      });
    }
    expect(evalGames(5, householdEnvironment(TINY)).seen).toEqual(games.seen.slice(0, 5));
    expect(layoutId({ room: 'kitchen', receptacles: roomLayout('kitchen', 'unseen', 3, TINY) }, TINY)).toBe(
      'kitchen/unseen/3',
    );
  });

  it('groups games by layout, in order of their first game', () => {
    const g = (layout: string) => ({ layout, type: 'pick_and_place_simple' });
    expect(layoutClusters([g('a'), g('b'), g('a'), g('c'), g('b')])).toEqual([[0, 2], [1, 4], [3]]);
  });

  it("a run plays the games in that order, and reports corr(Delta, advantage) and seed-crossgame's skill sources", async () => {
    const config = { ...defaultConfig('micro'), groupSize: 2, tasksPerUpdate: 3, maxSteps: 3, history: 3 };
    const job = {
      kind: 'run',
      algo: 'seed-crossgame',
      seed: 1,
      updates: 2,
      config,
      init: 'public/warmstart-micro.ckpt',
      evalEvery: 1,
      evalEpisodes: 3,
      evalSamples: 1,
      preset: 'micro',
    } as const;
    const r = await runJob(job);
    const games = evalGames(3, householdEnvironment(TINY));
    expect(r.won_seen).toHaveLength(games.seen.length);
    expect(r.won_unseen).toHaveLength(games.unseen.length);
    const byType = (split: 'seen' | 'unseen') => Object.keys(r.per_type[split]).sort();
    expect(byType('seen')).toEqual([...new Set(games.seen.map((x) => x.type))].sort());
    expect(byType('unseen')).toEqual([...new Set(games.unseen.map((x) => x.type))].sort());
    expect(r.crossgame!.update + r.crossgame!.pool + r.crossgame!.none).toBe(2 * 6);
    expect(r.corr_delta_advantage === null || Math.abs(r.corr_delta_advantage) <= 1).toBe(true);
    expect(r.metric_means.corrDeltaExpert === null || Math.abs(r.metric_means.corrDeltaExpert) <= 1).toBe(true);
    expect(r.metric_means.zeroVarianceGroups).toBeGreaterThanOrEqual(0);
    expect(r.teacher).toEqual([]);
    expect(r.curve).toHaveLength(2);
  }, 60_000);
});
