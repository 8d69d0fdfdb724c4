// Training on the shop's score: with scoreReward 0 (the default) a seeded shop run is what it was before the
// score existed, bit for bit (its numbers were first recorded from the code before the score); with scoreReward 1
// each episode's reward is winReward times its WebShop score; the household, which has no score, refuses 1. The
// shop's runs need a trained policy (its games end in purchases, some in part): the shipped warm start, of the
// shop's vocabulary (src/worlds/shop/rl/checkpoint_testing.ts). Its rebuild after a change of the shop's words changes the
// numbers below, which are then recorded again.
import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../backend/cpu/cpu_backend.ts';
import { SHOP } from '../worlds/shop/env/environment.ts';
import { presetConfig } from '../model/config.ts';
import { defaultTokenizer, tokenizerOf } from '../text/tokenizer.ts';
import { defaultConfig, type TrainConfig } from './config.ts';
import { householdRl } from '../worlds/household/rl/adapter.ts';
import { AWAITS_REBUILD, shippedShopWarmStart } from '../worlds/shop/rl/checkpoint_testing.ts';
import { shopRl } from '../worlds/shop/rl/adapter.ts';
import { Trainer } from './trainer.ts';

const tok = tokenizerOf(SHOP);
const warm = shippedShopWarmStart();

/** Grpo from the shop's tiny warm start, 2 tasks x 4 episodes an update: its games end in partial purchases too. */
function shopTrainer(extra: Partial<TrainConfig> = {}) {
  const world = shopRl();
  return new Trainer({
    backend: new CpuBackend(warm!.config, warm!.params),
    tokenizer: tok,
    algo: 'grpo',
    config: { ...defaultConfig('tiny'), ...world.trainDefaults, groupSize: 4, tasksPerUpdate: 2, ...extra },
    seed: 5,
    world,
  });
}

/** FNV-1a over the parameters' bits. */
function bitsHash(params: Float32Array): string {
  let h = 0x811c9dc5;
  for (const word of new Uint32Array(params.buffer, params.byteOffset, params.length))
    h = Math.imul(h ^ word, 0x01000193) >>> 0;
  return h.toString(16);
}

describe("training on the shop's score", () => {
  it.runIf(warm !== null)(
    `scoreReward 0: a seeded shop run gives the metrics and weights it gave before the score existed ${AWAITS_REBUILD}`,
    async () => {
      const t = shopTrainer();
      const seen = [];
      for (let u = 0; u < 2; u++) {
        const m = await t.update();
        const st = t.current!;
        // The score is reported beside success: the mean over the update's episodes.
        expect(m.score).toBe(st.trajectories.reduce((s, tr) => s + tr.score!, 0) / st.trajectories.length);
        const { success, meanReward, L_GRPO, KL, total, gradNorm, tokens } = m;
        seen.push({ success, meanReward, L_GRPO, KL, total, gradNorm, tokens, rewards: Array.from(st.rewards) });
      }
      expect(seen).toEqual([
        {
          success: 0.375,
          meanReward: 3.75,
          L_GRPO: -0.13844581928404737,
          KL: 0,
          total: -0.13844581928404737,
          gradNorm: 0.18560568674470662,
          tokens: 16257,
          rewards: [0, 0, 0, 10, 0, 10, 10, 0],
        },
        {
          success: 0.125,
          meanReward: 1.25,
          L_GRPO: 0.04776119589805603,
          KL: 0.00007500678832396946,
          total: 0.04776194596593927,
          gradNorm: 0.06670226458328489,
          tokens: 11983,
          rewards: [0, 0, 0, 0, 0, 0, 0, 10],
        },
      ]);
      expect(bitsHash(await t.backend.readParameters())).toBe('f28123b3');
    },
  );

  it.runIf(warm !== null)(
    `scoreReward 1: each episode's reward is winReward times its score, less the invalid penalty ${AWAITS_REBUILD}`,
    async () => {
      const t = shopTrainer({ scoreReward: 1 });
      await t.nextStage();
      const st = await t.nextStage();
      const { winReward, invalidPenalty } = st.config;
      expect(Array.from(st.rewards)).toEqual(
        st.trajectories.map((tr) => winReward * tr.score! - invalidPenalty * tr.invalid),
      );
      // The same games as under scoreReward 0 (the rollout does not read the reward), some bought in part.
      expect(st.trajectories.filter((tr) => !tr.won && tr.score! > 0).length).toBeGreaterThan(0);
      expect(Array.from(st.rewards)).not.toEqual([0, 0, 0, 10, 0, 10, 10, 0]);
      expect(st.trajectories.map((tr) => tr.won)).toEqual([0, 0, 0, 10, 0, 10, 10, 0].map((r) => r === 10));
    },
  );

  it('the household, which has no score, refuses scoreReward 1 and reports no score', async () => {
    const household = defaultTokenizer();
    const options = {
      backend: CpuBackend.fromSeed(presetConfig('micro', household.vocabSize), 1),
      tokenizer: household,
      algo: 'grpo' as const,
      seed: 1,
      world: householdRl(),
    };
    const config = { ...defaultConfig('micro'), groupSize: 2, tasksPerUpdate: 1, maxSteps: 2 };
    expect(() => new Trainer({ ...options, config: { ...config, scoreReward: 1 } })).toThrow(
      /scoreReward=1 trains on the world's score, and the household has none/,
    );
    const t = new Trainer({ ...options, config });
    expect(() => {
      t.config = { ...config, scoreReward: 1 };
    }).toThrow(/household has none/);
    const m = await t.update();
    expect('score' in m).toBe(false);
    expect(t.current!.trajectories.every((tr) => tr.score === null)).toBe(true);
  });
});
