// bench learn in the shop: a job plays the shop's eval sets, names its games by type and attribute combination,
// and reports the shop's task types; the shop's report files carry the world's name.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SHOP } from '../../worlds/shop/env/environment.ts';
import { combinationOf } from '../../worlds/shop/env/splits.ts';
import { writeCheckpoint } from '../../model/checkpoint.ts';
import { presetConfig } from '../../model/config.ts';
import { initParameters } from '../../model/init.ts';
import { defaultConfig } from '../../rl/config.ts';
import { shopRl } from '../../worlds/shop/rl/adapter.ts';
import { tokenizerOf } from '../../text/tokenizer.ts';
import { evalGames } from './design/games.ts';
import { reportName } from '../output.ts';
import { runJob } from './jobs/job.ts';

const dir = mkdtempSync(join(tmpdir(), 'bench-shop-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('bench learn --env shop', () => {
  it('names each shop eval game by its combination and category, in the order of the eval sets', () => {
    const games = evalGames(4, SHOP);
    expect(games.unseen.map((g) => g.layout)).toEqual(SHOP.evalScenes('unseen', 4).map((s) => combinationOf(s.goal)));
    expect(games.seen.map((g) => g.type)).toEqual(SHOP.evalScenes('seen', 4).map((s) => s.goal.query));
    expect(reportName('learn', 'shop')).toBe('learn_shop');
    expect(reportName('learn', 'household')).toBe('learn');
  });

  it('a shop job trains from a shop checkpoint and plays the shop eval games', async () => {
    const tok = tokenizerOf(SHOP);
    const model = presetConfig('micro', tok.vocabSize);
    const init = join(dir, 'shop-micro.ckpt');
    writeFileSync(
      init,
      writeCheckpoint({
        config: model,
        vocabHash: tok.hash,
        params: initParameters(model, 1),
        optimizer: null,
        metadata: { stage: 'warmstart', preset: 'micro' },
      }),
    );
    const config = {
      ...defaultConfig('micro'),
      ...shopRl().trainDefaults,
      groupSize: 2,
      tasksPerUpdate: 2,
      maxSteps: 4,
    };
    const r = await runJob({
      kind: 'run',
      algo: 'grpo',
      seed: 1,
      updates: 1,
      config,
      init,
      evalEvery: 1,
      evalEpisodes: 3,
      evalSamples: 1,
      preset: 'micro',
      env: 'shop',
    });
    expect(r.won_unseen).toHaveLength(3);
    for (const type of Object.keys(r.per_type.unseen)) expect(SHOP.taskTypes).toContain(type);
    await expect(
      runJob({
        kind: 'warmstart',
        algo: 'grpo',
        seed: 1,
        updates: 0,
        config,
        init,
        evalEvery: 1,
        evalEpisodes: 1,
        evalSamples: 1,
        preset: 'micro',
      }),
    ).rejects.toThrow(/it is a shop checkpoint/);
  });
});
