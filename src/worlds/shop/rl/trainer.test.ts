// The trainer runs the shop through the same six stages as the household: skills written under the shop's
// grammar, checked by its parser, and an update whose losses are finite, for every algorithm family.
import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../../../backend/cpu/cpu_backend.ts';
import { SHOP } from '../env/environment.ts';
import { presetConfig } from '../../../model/config.ts';
import { tokenizerOf } from '../../../text/tokenizer.ts';
import { defaultConfig, type TrainConfig } from '../../../rl/config.ts';
import { type Algo, isBaseline } from '../../../rl/arms.ts';
import { runCheckpoints } from '../../../rl/run_checkpoint.ts';
import { runMetadata } from '../../../rl/run_metadata.ts';
import { rlWorldOf } from '../../rl_worlds.ts';
import { annotateShop } from './annotator.ts';
import { shopRl } from './adapter.ts';
import { teacherCheck } from '../../../rl/teacher_check.ts';
import { Trainer } from '../../../rl/trainer.ts';

const tok = tokenizerOf(SHOP);
const model = presetConfig('micro', tok.vocabSize);

function config(extra: Partial<TrainConfig> = {}): TrainConfig {
  return {
    ...defaultConfig('micro'),
    groupSize: 2,
    tasksPerUpdate: 2,
    maxSteps: 4,
    history: 1,
    maxSkillTokens: 56,
    lr: 1e-2,
    ...extra,
  };
}

function trainer(algo: Algo, extra: Partial<TrainConfig> = {}) {
  return new Trainer({
    backend: CpuBackend.fromSeed(model, 7),
    tokenizer: tok,
    algo,
    config: config(extra),
    seed: 3,
    world: shopRl(),
  });
}

describe('training in the shop', () => {
  for (const algo of ['grpo', 'seed', 'seed-exact', 'seed-crossgame'] as const) {
    it(`${algo}: one update through the six stages, with finite losses`, async () => {
      const t = trainer(algo);
      const metrics = await t.update();
      const st = t.current!;
      expect(st.trajectories.length).toBe(4);
      expect(st.trajectories.every((tr) => tr.records[1].action.startsWith('search['))).toBe(true);
      expect(Number.isFinite(metrics.total)).toBe(true);
      expect(metrics.skipped).toBeNull();
      if (isBaseline(algo)) {
        expect(st.written.every((w) => w === null)).toBe(true);
      } else {
        // Under the grammar mask every skill that ends within the budget parses.
        const written = st.written.filter((w) => w !== null);
        expect(written.length).toBe(4);
        for (const w of written) if (w.ids!.length < 56) expect(w.ok).toBe(true);
        expect(metrics.validSkillRate).not.toBeNull();
      }
      expect(st.expertTokens!.length).toBe(st.trajectories.reduce((n, tr) => n + tr.lOld.length, 0));
    });
  }

  it("writes every annotator skill in the shop's vocabulary, of won and lost games alike", () => {
    const unknown = new Set<string>();
    for (let i = 0; i < 40; i++) {
      const scene = SHOP.trainScene(i, 9);
      const game = SHOP.episode(scene);
      const plan = game.expertPlan();
      // Half the games stop one step short of buying: a loss by running out of steps.
      for (const action of i % 2 ? plan : plan.slice(0, -1)) game.step(action);
      for (const p of tok.unknownPieces(annotateShop(game.records, scene.goal, game.won))) unknown.add(p);
    }
    expect([...unknown]).toEqual([]);
  });

  it('writes the annotator skills of seed-annotator, which parse, and counts their truth', async () => {
    const t = trainer('seed-annotator');
    const metrics = await t.update();
    expect(t.current!.written.every((w) => w?.ok)).toBe(true);
    expect(metrics.skillPlaceFalse).toBe(0);
  });

  it("records the world in the run's checkpoint, and reads it back", async () => {
    const t = trainer('grpo');
    await t.update();
    const { current } = await runCheckpoints(t, 'micro', tok.hash);
    expect(current.metadata).toMatchObject({ env: 'shop', scale: 'tiny' });
    expect(runMetadata(current)).toMatchObject({ env: 'shop', scale: 'tiny' });
    expect(() => runMetadata({ ...current, metadata: { ...current.metadata, scale: 'alfworld' } })).toThrow(
      /tiny, webshop \(the shop's\)/,
    );
  });

  it('runs the teacher check on shop games, and finds the world of an environment', async () => {
    const world = rlWorldOf(SHOP);
    expect(world).toBe(shopRl());
    const check = await teacherCheck(world, CpuBackend.fromSeed(model, 5), tok, world.teacherScenes(3), {
      ...config(),
      maxSteps: 3,
    });
    expect(check.games).toBe(3);
    expect(check.valid_skills).toBe(1);
    expect(check.skill_place_false).toBe(0);
  });
});
