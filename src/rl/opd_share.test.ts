// The OPD share of the gradient and the Delta-dependent share of the OPD coefficient, against hand-computed values,
// then on real updates of the micro model: the gate off leaves the coefficient nothing that depends on Delta, and
// exact distillation and GRPO have no sampled-token coefficient.
import type { Scene } from '../worlds/household/env/scene.ts';
import type { StepRecord } from '../worlds/household/env/game.ts';
import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../backend/cpu/cpu_backend.ts';
import type { LossHyper, LossInputs, LossOutput } from '../backend/backend.ts';
import { TINY } from '../worlds/household/env/scale.ts';
import { presetConfig } from '../model/config.ts';
import { defaultTokenizer } from '../text/tokenizer.ts';
import { defaultConfig } from './config.ts';
import type { Algo } from './arms.ts';
import { deltaShareOfGates, gateAtNoShift, opdDeltaShare, opdShareOfNorms, RunOpdShares } from './opd_share.ts';
import type { Trajectory } from './rollout.ts';
import { Trainer } from './trainer.ts';
import { householdRl } from '../worlds/household/rl/adapter.ts';

describe('the OPD share of the gradient', () => {
  it('is opd / (grpo + opd), and not defined when both norms are 0', () => {
    expect(opdShareOfNorms(3, 1)).toBe(0.25);
    expect(opdShareOfNorms(2, 0)).toBe(0);
    expect(opdShareOfNorms(0, 0)).toBeNull();
  });

  it("is a run's ratio of the mean norms, not the mean of its updates' shares", () => {
    const run = new RunOpdShares();
    run.add({ gradNormGrpo: 2, gradNormOpd: 1, opdDeltaShare: 0.1 });
    run.add({ gradNormGrpo: 4, gradNormOpd: 1, opdDeltaShare: 0.3 });
    // A refused update has no figures and counts nothing.
    run.add({ gradNormGrpo: null, gradNormOpd: null, opdDeltaShare: null });
    const { opd_share, opd_delta_share } = run.result();
    // Mean norms 3 and 1: 1 / 4. The mean of the updates' shares (1/3 and 1/5) would be 0.2667.
    expect(opd_share).toBe(0.25);
    expect(opd_delta_share).toBeCloseTo(0.2, 12);
    expect(new RunOpdShares().result()).toEqual({ opd_share: null, opd_delta_share: null });
  });
});

describe('the Delta-dependent share of the OPD coefficient', () => {
  it('is sum (g - g0)^2 / sum (g0^2 + (g - g0)^2) over the tokens', () => {
    // g0 = 1/2: shifts 0.1, -0.1, 0 give 0.02 / (3 * 0.25 + 0.02).
    expect(deltaShareOfGates([0.6, 0.4, 0.5], gateAtNoShift(true))).toBeCloseTo(0.02 / 0.77, 12);
    // A saturated gate: (1/2)^2 / (1/4 + 1/4).
    expect(deltaShareOfGates([1], 0.5)).toBe(0.5);
    // The gate off: g = 1 = g0 on every token, nothing depends on Delta.
    expect(deltaShareOfGates([1, 1], gateAtNoShift(false))).toBe(0);
    expect(deltaShareOfGates([], 0.5)).toBeNull();
  });

  it("counts an update's decision tokens only: opd_mask 1 and more than one token allowed", () => {
    // One command of four tokens: the second forced (one bit in its mask), the third outside the OPD mask.
    const choice = 0b11;
    const forced = 0b1;
    const trajectories = [
      { commands: [{ ids: [1, 2, 3, 4], masks: Uint32Array.from([choice, forced, choice, choice]) }] },
    ] as unknown as Trajectory[];
    const state = (hyper: Partial<LossHyper>) => ({
      trajectories,
      tokenOffsets: Int32Array.from([0, 4]),
      inputs: { opdMask: Float32Array.from([1, 1, 0, 1]) } as LossInputs,
      loss: { gate: Float32Array.from([0.75, 0.5, 0.875, 0.25]) } as LossOutput,
      lossHyper: { lambda: 0.1, beta: 5, clip: 0.2, klCoef: 0, gate: true, ...hyper },
    });
    // Tokens 0 and 3: shifts +1/4 and -1/4, (1/16 + 1/16) / (2 * 1/4 + 1/8).
    expect(opdDeltaShare(state({}))).toBe(0.2);
    expect(opdDeltaShare(state({ lambda: 0 }))).toBeNull();
    expect(opdDeltaShare(state({ distil: { jsdAlpha: 0 } }))).toBeNull();
    expect(opdDeltaShare({ ...state({}), loss: null })).toBeNull();
  });
});

describe("an update's shares", () => {
  const tok = defaultTokenizer();
  const model = presetConfig('micro', tok.vocabSize);
  const trainer = (algo: Algo, gradShareEvery = 1) =>
    new Trainer<Scene, StepRecord>({
      backend: CpuBackend.fromSeed(model, 11),
      tokenizer: tok,
      algo,
      // The annotator writes the skills, so that every trajectory distils.
      config: {
        ...defaultConfig('micro'),
        groupSize: 2,
        tasksPerUpdate: 2,
        maxSteps: 3,
        history: 3,
        lambda: 1,
        annotatorSkills: 1,
        gradShareEvery,
      },
      seed: 5,
      world: householdRl(TINY),
    });
  const update = (algo: Algo) => trainer(algo).update();

  it('are measured at every gradShareEvery-th update, the first included, and training is the same bits', async () => {
    const every = trainer('seed', 1);
    const sampled = trainer('seed', 2);
    const never = trainer('seed', 0);
    for (let u = 0; u < 3; u++) {
      const [a, b, c] = [await every.update(), await sampled.update(), await never.update()];
      expect(a.gradNormOpd).toBeGreaterThan(0);
      if (u % 2 === 0)
        expect([b.gradNormGrpo, b.gradNormOpd, b.opdShare]).toEqual([a.gradNormGrpo, a.gradNormOpd, a.opdShare]);
      else expect([b.gradNormGrpo, b.gradNormOpd, b.gradNormRatio, b.opdShare]).toEqual([null, null, null, null]);
      expect([c.gradNormGrpo, c.gradNormOpd, c.opdShare]).toEqual([null, null, null]);
      expect(b.gradNorm).toBe(a.gradNorm);
      const weights = await every.backend.readParameters();
      expect(await sampled.backend.readParameters()).toEqual(weights);
      expect(await never.backend.readParameters()).toEqual(weights);
    }
    // GRPO has no OPD part to measure: its whole gradient is the GRPO part at every update, at any setting.
    const grpo = trainer('grpo', 0);
    expect((await grpo.update()).gradNormOpd).toBe(0);
  });

  it('follow the measured norms and gates: the gate off gives 0, exact distillation and GRPO no coefficient', async () => {
    const seed = await update('seed');
    expect(seed.opdShare).toBe(seed.gradNormOpd! / (seed.gradNormGrpo! + seed.gradNormOpd!));
    expect(seed.opdShare).toBeGreaterThan(0);
    expect(seed.opdDeltaShare).toBeGreaterThan(0);
    expect(seed.opdDeltaShare).toBeLessThan(1);
    const nogate = await update('seed-nogate');
    expect(nogate.opdShare).toBeGreaterThan(0);
    expect(nogate.opdDeltaShare).toBe(0);
    const exact = await update('seed-exact');
    expect(exact.opdShare).toBeGreaterThan(0);
    expect(exact.opdDeltaShare).toBeNull();
    // The untrained policy wins no game: GRPO's own gradient is 0 as well, and so the share is not defined.
    const grpo = await update('grpo');
    expect([grpo.gradNormGrpo, grpo.gradNormOpd, grpo.opdShare, grpo.opdDeltaShare]).toEqual([0, 0, null, null]);
  });
});
