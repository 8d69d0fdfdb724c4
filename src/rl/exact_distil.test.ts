// The exact-distillation arms end to end on the CPU: the teacher's rows are the skill-conditioned scores,
// l_skill is read from them, the update's gradient splits into its GRPO and OPD parts, and the options
// (JSD, the ADVISOR weight, reward direction) change only what they claim to.
import type { Scene } from '../worlds/household/env/scene.ts';
import type { StepRecord } from '../worlds/household/env/game.ts';
import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../backend/cpu/cpu_backend.ts';
import { TINY } from '../worlds/household/env/scale.ts';
import { presetConfig } from '../model/config.ts';
import { defaultTokenizer } from '../text/tokenizer.ts';
import { defaultConfig, type TrainConfig } from './config.ts';
import type { Algo } from './arms.ts';
import { lossHyper } from './loss.ts';
import { Trainer } from './trainer.ts';
import { householdRl } from '../worlds/household/rl/adapter.ts';

const tok = defaultTokenizer();
const model = presetConfig('micro', tok.vocabSize);

function small(extra: Partial<TrainConfig> = {}): TrainConfig {
  // The annotator writes the skills: every trajectory has a usable one, so every token is under the OPD mask.
  return {
    ...defaultConfig('micro'),
    groupSize: 2,
    tasksPerUpdate: 2,
    maxSteps: 3,
    history: 3,
    lr: 1e-2,
    lambda: 1,
    annotatorSkills: 1,
    ...extra,
  };
}

function trainer(algo: Algo, config = small(), seed = 5): Trainer<Scene, StepRecord> {
  return new Trainer({
    backend: CpuBackend.fromSeed(model, 11),
    tokenizer: tok,
    algo,
    config,
    seed,
    world: householdRl(TINY),
  });
}

const OTHER_SKILL = 'workflow: find the apple, take it, go to the fridge 1, put it in the fridge 1.';

/**
 * Runs the first four stages (through re-scoring) of an update; with `pool`, the crossgame pool holds a skill of
 * every task type of the update first (an update's first groups rarely share a type).
 */
async function throughRescore(t: Trainer<Scene, StepRecord>, pool = false) {
  for (let i = 0; i < 2; i++) await t.nextStage();
  if (pool) for (const tr of t.current!.trajectories) t.crossgamePool[tr.scene.task.type] = [OTHER_SKILL];
  for (let i = 2; i < 4; i++) await t.nextStage();
  return t.current!;
}

describe('seed-exact', () => {
  it('distils the whole rows: lossHyper asks for it, the teacher rows hold l_skill at the sampled tokens', async () => {
    expect(lossHyper('seed-exact', small({ jsdAlpha: 0.25 })).distil).toEqual({ jsdAlpha: 0.25 });
    expect(lossHyper('seed', small()).distil).toBeUndefined();
    const t = trainer('seed-exact');
    const st = await throughRescore(t);
    const { teacher, lSkill, opdMask } = st.inputs!;
    const V = model.vocabSize;
    expect(teacher!.length).toBe(lSkill.length * V);
    expect(opdMask.every((m) => m === 1)).toBe(true);
    let k = 0;
    for (const tr of st.trajectories) {
      for (const seq of tr.sequences) {
        for (const p of seq.positions) {
          expect(teacher![k * V + seq.ids[p]]).toBe(lSkill[k]);
          k++;
        }
      }
    }
    // The same l_skill as the paper's arm computes from the same skills (score and scoreRows agree).
    const paper = await throughRescore(trainer('seed'));
    for (let i = 0; i < lSkill.length; i++) expect(lSkill[i]).toBeCloseTo(paper.inputs!.lSkill[i], 5);
  });

  it('reports the mean divergence and the gradient parts, and is deterministic', async () => {
    const a = await trainer('seed-exact').update();
    const b = await trainer('seed-exact').update();
    expect(a.skipped).toBeNull();
    expect(a.gradNormOpd).toBeGreaterThan(0);
    expect(a.meanDivergence).toBeGreaterThan(0);
    expect(a.L_OPD).toBeGreaterThan(0);
    expect(b).toMatchObject({ total: a.total, gradNormOpd: a.gradNormOpd, meanDivergence: a.meanDivergence });
    // GRPO has no OPD part: its GRPO part is the whole gradient.
    const g = await trainer('grpo').update();
    expect(g.gradNormOpd).toBe(0);
    expect(g.gradNormGrpo).toBe(g.gradNorm);
    expect(g.meanDivergence).toBeNull();
  });

  it('splits the gradient: the GRPO part is the gradient at lambda 0, the OPD part scales with lambda', async () => {
    /** The loss stage on advantages of +-1 (an untrained policy wins no game), returning the measured parts. */
    const parts = async (lambda: number) => {
      const t = trainer('seed-exact', small({ lambda }));
      const st = await throughRescore(t);
      st.inputs!.advantage = Float32Array.from(st.inputs!.advantage, (_, k) => (k % 3 === 0 ? -1 : 1));
      await t.nextStage();
      const whole = await t.backend.readGradients();
      return { parts: st.gradParts, norm: Math.hypot(...whole) };
    };
    const one = await parts(1);
    const two = await parts(2);
    const none = await parts(0);
    expect(none.parts).toBeNull();
    expect(one.parts!.grpo).toBeGreaterThan(0);
    expect(one.parts!.grpo).toBeCloseTo(none.norm, 4);
    expect(two.parts!.grpo).toBeCloseTo(none.norm, 4);
    expect(two.parts!.opd / one.parts!.opd).toBeCloseTo(2, 4);
  });

  it('rewardDirected keeps in the OPD mask only tokens whose shift has the sign of the advantage', async () => {
    const st = await throughRescore(trainer('seed-exact', small({ rewardDirected: 1 })));
    const { opdMask, lSkill, lOld, advantage } = st.inputs!;
    let kept = 0;
    for (let k = 0; k < opdMask.length; k++) {
      const agree = Math.sign(lSkill[k] - lOld[k]) === Math.sign(advantage[k]);
      expect(opdMask[k]).toBe(agree ? 1 : 0);
      kept += opdMask[k];
    }
    expect(kept).toBeLessThan(opdMask.length);
    // The paper's seed keeps its mask: the switch is the exact arms'.
    const paper = await throughRescore(trainer('seed', small({ rewardDirected: 1 })));
    expect(paper.inputs!.opdMask.every((m) => m === 1)).toBe(true);
  });

  it('advisorAlpha weighs each token by exp(-alpha KL(own teacher || other-game teacher)), in (0, 1]', async () => {
    const st = await throughRescore(trainer('seed-exact', small({ advisorAlpha: 100 })), true);
    expect(st.advisor!.every((s) => s?.text === OTHER_SKILL)).toBe(true);
    const w = st.inputs!.distilWeight!;
    expect(w.length).toBe(st.inputs!.opdMask.length);
    expect(w.every((x) => x > 0 && x <= 1)).toBe(true);
    expect(w.some((x) => x < 0.999)).toBe(true);
    // Without the option there is no weight.
    expect((await throughRescore(trainer('seed-exact'))).inputs!.distilWeight).toBeUndefined();
  });

  it("seed-exact-crossgame distils the teacher given another game's skill of the same type", async () => {
    const st = await throughRescore(trainer('seed-exact-crossgame'), true);
    expect(st.crossgame).toEqual({ update: 0, pool: 4, none: 0 });
    expect(st.used.every((s) => s?.text === OTHER_SKILL)).toBe(true);
    const own = await throughRescore(trainer('seed-exact'));
    expect(st.inputs!.teacher).toBeDefined();
    expect(st.inputs!.teacher!.some((v, i) => v !== own.inputs!.teacher![i])).toBe(true);
  });

  it('with the teacher check, reports KL(student || own-skill teacher) on the validation games; none without', async () => {
    const checked = await trainer('seed-exact', small({ teacherEvery: 1, teacherGames: 4 })).update();
    expect(checked.validationKl).toBeGreaterThan(0);
    expect(checked.teacherOwnSkill).not.toBeNull();
    const plain = await trainer('seed-exact').update();
    expect(plain.validationKl).toBeNull();
  });
});
