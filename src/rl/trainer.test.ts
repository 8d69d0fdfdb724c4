import type { Scene } from '../worlds/household/env/scene.ts';
import type { StepRecord } from '../worlds/household/env/game.ts';
import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../backend/cpu/cpu_backend.ts';
import { TINY } from '../worlds/household/env/scale.ts';
import { presetConfig } from '../model/config.ts';
import { defaultTokenizer } from '../text/tokenizer.ts';
import { defaultConfig, type TrainConfig } from './config.ts';
import { type Algo, ARMS } from './arms.ts';
import { packBatch } from './batch.ts';
import { restoreRun, runCheckpoints } from './run_checkpoint.ts';
import { Trainer } from './trainer.ts';
import { referenceSkill } from '../worlds/household/rl/skill_fidelity.ts';
import { placeTruthShares } from '../worlds/household/rl/skill_truth.ts';
import { Rng } from '../common/rng.ts';
import { rollout } from './rollout.ts';
import { updateScenes } from './rollout_stage.ts';
import { generateScene, validationScenes } from '../worlds/household/env/splits.ts';
import { expertTokens } from '../worlds/household/rl/expert_tokens.ts';
import { creditDiagnostics, decisionMask } from './diagnostics.ts';
import { teacherCheck } from './teacher_check.ts';
import { householdEnvironment } from '../worlds/household/env/environment.ts';
import { householdRl } from '../worlds/household/rl/adapter.ts';

const tok = defaultTokenizer();
const model = presetConfig('micro', tok.vocabSize);
const SKILL = 'workflow: find the apple, take it, go to the fridge 1, put it in the fridge 1.';

function small(extra: Partial<TrainConfig> = {}): TrainConfig {
  return { ...defaultConfig('micro'), groupSize: 2, tasksPerUpdate: 2, maxSteps: 3, history: 3, lr: 1e-2, ...extra };
}

function trainer(algo: Algo, config = small(), seed = 5): Trainer<Scene, StepRecord> {
  const t = new Trainer({
    backend: CpuBackend.fromSeed(model, 11),
    tokenizer: tok,
    algo,
    config,
    seed,
    world: householdRl(TINY),
  });
  if (ARMS[algo].teacherSkill === 'library') t.staticLibrary = { any: [SKILL] };
  return t;
}

describe('rollout', () => {
  it('records l_old equal to the full forward score of the sequences it returns, and admissible commands only', async () => {
    const be = CpuBackend.fromSeed(model, 3);
    const scenes = [generateScene('train', 0), generateScene('train', 1)];
    const ts = await rollout(
      householdEnvironment(),
      be,
      tok,
      scenes,
      [0, 1],
      { maxSteps: 3, history: 3, temperature: 1, constrained: true, maxCommandTokens: 12, maxSkillTokens: 48 },
      new Rng(1),
    );
    expect(ts).toHaveLength(2);
    for (const t of ts) {
      expect(t.records.length - 1).toBe(3);
      const scored = await be.score(packBatch(t.sequences, tok.padId));
      expect(Array.from(scored)).toEqual(Array.from(t.lOld));
      expect(t.invalid).toBe(0);
    }
  });

  it('windowed layout: one sequence per step, scored tokens match the decoder bit for bit', async () => {
    const be = CpuBackend.fromSeed(model, 3);
    const scenes = [generateScene('train', 2)];
    const ts = await rollout(
      householdEnvironment(),
      be,
      tok,
      scenes,
      [0],
      { maxSteps: 3, history: 1, temperature: 1, constrained: true, maxCommandTokens: 12, maxSkillTokens: 48 },
      new Rng(2),
    );
    expect(ts[0].sequences).toHaveLength(3);
    const scored = await be.score(packBatch(ts[0].sequences, tok.padId));
    expect(Array.from(scored)).toEqual(Array.from(ts[0].lOld));
  });
});

describe('Trainer', () => {
  it('is deterministic: same seed, same weights after an update, bit for bit', async () => {
    const a = trainer('seed');
    const b = trainer('seed');
    const ma = await a.update();
    await b.update();
    expect(Number.isFinite(ma.total)).toBe(true);
    expect(ma.skipped).toBeNull();
    expect(ma.episodes).toBe(4);
    expect(Array.from(await a.backend.readParameters())).toEqual(Array.from(await b.backend.readParameters()));
  });

  it('runs the six stages in order; the OPD mask covers exactly the trajectories with a usable skill', async () => {
    const t = trainer('seed-static');
    const seen: string[] = [];
    t.callbacks.onStage = (s) => seen.push(s);
    const before = await t.backend.readParameters();
    let st = await t.nextStage();
    expect(st.trajectories).toHaveLength(4);
    st = await t.nextStage();
    // Every group's rewards are 0 or 10: the advantages of each group sum to 0.
    expect(st.advantages[0] + st.advantages[1]).toBeCloseTo(0, 9);
    await t.nextStage();
    expect(st.used.every((s) => s?.text === SKILL)).toBe(true);
    await t.nextStage();
    expect(Array.from(st.inputs!.opdMask).every((m) => m === 1)).toBe(true);
    // The skill changes the context, so l_skill differs from l_old.
    expect(st.inputs!.lSkill.some((v, k) => v !== st.inputs!.lOld[k])).toBe(true);
    await t.nextStage();
    expect(st.loss!.L_OPD).toBeGreaterThan(-100);
    expect(Array.from(await t.backend.readParameters())).toEqual(Array.from(before));
    await t.nextStage();
    expect(seen).toEqual(['rollout', 'rewards', 'skills', 'rescore', 'loss', 'optimizer']);
    expect(Array.from(await t.backend.readParameters())).not.toEqual(Array.from(before));
    expect(t.updates).toBe(1);
  });

  it('records per trajectory the skill and per command token Delta, gate and the coefficient with its three parts', async () => {
    const t = trainer('seed-static');
    await t.update();
    const st = t.current!;
    const loss = st.loss!;
    const inputs = st.inputs!;
    expect(st.used[1]?.text).toBe(SKILL);
    const [a, b] = [st.tokenOffsets[1], st.tokenOffsets[2]];
    const traj = st.trajectories[1];
    const ids: number[] = [];
    for (const seq of traj.sequences) for (const p of seq.positions) ids.push(seq.ids[p]);
    expect(ids.length).toBe(b - a);
    expect(tok.decode(ids)).toBe(
      traj.records
        .slice(1)
        .map((r) => `${r.action} <end>`)
        .join(' '),
    );
    for (let k = a; k < b; k++) {
      expect(loss.coef[k]).toBeCloseTo(loss.coefGrpo[k] + loss.coefOpd[k] + loss.coefKl[k], 6);
      expect(loss.delta[k]).toBeCloseTo(inputs.lSkill[k] - traj.lOld[k - a], 5);
      expect(loss.gate[k]).toBeCloseTo(1 / (1 + Math.exp(-st.config.beta * loss.delta[k])), 5);
    }
    // Delta and gate figures leave out the tokens the command trie forced (Delta 0, gate 0.5).
    const decision = decisionMask(st)!;
    const kept = Array.from(loss.delta).filter((_, k) => decision[k]);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(loss.delta.length);
    const m = t.metrics(st);
    expect(m.meanDelta).toBeCloseTo(kept.reduce((x, y) => x + y, 0) / kept.length, 5);
    expect(m.meanAbsDelta).toBeCloseTo(kept.reduce((x, y) => x + Math.abs(y), 0) / kept.length, 5);
    expect(m.forcedShare).toBeCloseTo(1 - kept.length / loss.delta.length, 9);
  });

  it('refuses an update with a NaN before touching the weights, names the term, and continues from the last good state', async () => {
    const t = trainer('seed-static');
    const before = await t.backend.readParameters();
    for (let s = 0; s < 4; s++) await t.nextStage();
    t.current!.inputs!.lSkill[3] = Number.NaN;
    const st = await t.nextStage();
    expect(st.skipped).toEqual({ term: 'L_OPD', where: 'value NaN' });
    await t.nextStage();
    const m = t.metrics(st);
    expect(m.skipped?.term).toBe('L_OPD');
    expect(Array.from(await t.backend.readParameters())).toEqual(Array.from(before));
    const next = await t.update();
    expect(next.update).toBe(1);
    expect(next.skipped).toBeNull();
    expect(Array.from(await t.backend.readParameters())).not.toEqual(Array.from(before));
  });

  it("reports the lambda and beta each update's loss ran with, a change taking effect at the next update", async () => {
    const t = trainer('seed', small({ lambda: 0.25, beta: 3 }));
    const first = await t.update();
    t.config = { ...t.config, lambda: 0.5, beta: 7 };
    const second = await t.update();
    expect([first.lambda, first.beta, second.lambda, second.beta]).toEqual([0.25, 3, 0.5, 7]);
  });

  it('checks its config whenever it is set, keeping the last good one, and refuses changes in place', () => {
    expect(() => trainer('seed', small({ clip: 7 }))).toThrow(new RangeError('setting clip is outside [0, 1), got 7'));
    const t = trainer('seed');
    expect(() => (t.config = { ...t.config, klCoef: -1 })).toThrow(
      new RangeError('setting klCoef is outside [0, 10], got -1'),
    );
    expect(t.config.klCoef).toBe(small().klCoef);
    expect(() => ((t.config as TrainConfig).lambda = -50)).toThrow(TypeError);
    expect(t.config.lambda).toBe(small().lambda);
  });

  it('resumes from a checkpoint and continues bit for bit', async () => {
    const straight = trainer('seed');
    await straight.update();
    await straight.update();
    const first = trainer('seed');
    await first.update();
    const { current, reference } = await runCheckpoints(first, 'micro', tok.hash);
    const resumed = new Trainer({
      backend: CpuBackend.fromSeed(model, 999),
      tokenizer: tok,
      algo: 'seed',
      config: small({ lambda: 7 }),
      seed: 5,
      world: householdRl(TINY),
    });
    await restoreRun(resumed, current, reference);
    expect(resumed.config.lambda).toBe(small().lambda);
    const m = await resumed.update();
    expect(m.update).toBe(1);
    expect(Array.from(await resumed.backend.readParameters())).toEqual(
      Array.from(await straight.backend.readParameters()),
    );
    expect(Array.from(await resumed.backend.readParameters('reference'))).toEqual(
      Array.from(await straight.backend.readParameters('reference')),
    );
  });

  it('grpo writes no skills; opid adds w * Delta to the advantage of tokens with a skill', async () => {
    const g = trainer('grpo');
    const mg = await g.update();
    // The loss of grpo gives the OPD term no weight, whatever lambda is set to.
    expect([mg.lambda, mg.beta]).toEqual([0, small().beta]);
    expect(mg.validSkillRate).toBeNull();
    expect(mg.degenerateSkillRate).toBeNull();
    expect([mg.skillPlaceTrue, mg.skillPlaceFalse]).toEqual([null, null]);
    expect(mg.L_OPD).toBe(0);
    // No skill, no OPD-masked token: the correlation of Delta with the advantage is not defined.
    expect(mg.corrDeltaAdvantage).toBeNull();
    expect(mg.crossgame).toBeNull();
    const o = trainer('opid', small({ opidWeight: 0.5 }));
    for (let s = 0; s < 4; s++) await o.nextStage();
    const st = o.current!;
    const { advantage, lSkill, lOld, opdMask } = st.inputs!;
    for (let i = 0; i < st.trajectories.length; i++) {
      for (let k = st.tokenOffsets[i]; k < st.tokenOffsets[i + 1]; k++) {
        const expected = st.advantages[i] + (opdMask[k] ? 0.5 * (lSkill[k] - lOld[k]) : 0);
        expect(advantage[k]).toBeCloseTo(expected, 5);
      }
    }
  });
});

describe('degenerate skills', () => {
  it('counts the skills that repeat a phrase apart from the valid ones', async () => {
    const t = trainer('seed', small({ annotatorSkills: 1 }));
    for (let s = 0; s < 3; s++) await t.nextStage();
    const st = t.current!;
    // The annotator's skills never loop; one written skill that does (and still parses) is counted.
    st.written[0] = {
      text: 'workflow: open the drawer 1, open the drawer 1, open the drawer 1.',
      ok: true,
      reason: '',
    };
    const m = await t.update();
    expect(m.degenerateSkillRate).toBe(1 / st.trajectories.length);
    expect(m.validSkillRate).toBe(1);
  });
});

describe('annotatorSkills: the faithful-hindsight control', () => {
  it("gives each trajectory the annotator's skill of that trajectory (fidelity 1) instead of the policy's", async () => {
    const t = trainer('seed', small({ annotatorSkills: 1 }));
    for (let s = 0; s < 3; s++) await t.nextStage();
    const st = t.current!;
    st.trajectories.forEach((tr, i) => {
      expect(st.used[i]?.text).toBe(referenceSkill(tr.records, tr.scene.task, tr.won, tok, st.config.maxSkillTokens));
      expect(st.used[i]?.ok).toBe(true);
    });
    const m = await t.update();
    expect(m.skillFidelity).toBe(1);
    // The annotator states only what the trajectory saw: never a false starting place.
    const shares = placeTruthShares(st.trajectories.map((tr, i) => ({ text: st.written[i]!.text, scene: tr.scene })))!;
    expect(m.skillPlaceFalse).toBe(0);
    expect(m.skillPlaceTrue).toBe(shares.placeTrue);
    const policyWritten = trainer('seed');
    for (let s = 0; s < 3; s++) await policyWritten.nextStage();
    expect(policyWritten.current!.used.map((u) => u?.text)).not.toEqual(st.used.map((u) => u?.text));
  });
});

describe('GRPO direction', () => {
  // One update must raise the log-likelihood of the tokens of trajectories with a positive advantage and lower
  // it for a negative one: J = sum_k A_k (l_after_k - l_before_k) > 0. A sign error in the advantages, their
  // broadcast to tokens, the loss coefficients or the optimizer makes J negative; flipping every advantage
  // must flip J.
  async function shift(sign: number): Promise<{ j: number; perTrajectory: number[] }> {
    const t = trainer('grpo', small({ klCoef: 0, lr: 1e-3, groupSize: 4, tasksPerUpdate: 1 }));
    await t.nextStage();
    const st = await t.nextStage();
    st.advantages = Float64Array.from([1.5, -0.5, -0.5, -0.5], (a) => sign * a);
    const all = st.trajectories.flatMap((tr) => tr.sequences);
    const before = await t.backend.score(packBatch(all, tok.padId));
    for (let s = 0; s < 4; s++) await t.nextStage();
    const after = await t.backend.score(packBatch(all, tok.padId));
    const perTrajectory = st.trajectories.map((_, i) => {
      let d = 0;
      for (let k = st.tokenOffsets[i]; k < st.tokenOffsets[i + 1]; k++) d += after[k] - before[k];
      return d;
    });
    const j = perTrajectory.reduce((acc, d, i) => acc + st.advantages[i] * d, 0);
    return { j, perTrajectory };
  }

  it('raises the likelihood of positive-advantage trajectories and lowers the others', async () => {
    const up = await shift(1);
    const down = await shift(-1);
    expect(up.j).toBeGreaterThan(1e-4);
    expect(down.j).toBeGreaterThan(1e-4);
    // The advantaged trajectory gains log-probability under +A and loses it under -A.
    expect(up.perTrajectory[0]).toBeGreaterThan(0);
    expect(down.perTrajectory[0]).toBeLessThan(0);
  });
});

describe('resampling flat groups', () => {
  it('replaces groups whose rewards are all equal by fresh tasks, counts every played episode, keeps the rest', async () => {
    // A random micro policy never wins; under constrained decoding every reward is 0, so every group is flat.
    const t = trainer('grpo', small({ resampleRounds: 2 }));
    const m = await t.update();
    const st = t.current!;
    expect(m.episodes).toBe(12);
    expect(t.episodes).toBe(12);
    expect(st.played).toBe(12);
    const own = updateScenes(t, 0, st.config).scenes;
    expect(st.trajectories.map((tr) => tr.index)).toEqual([0, 1, 2, 3]);
    expect(st.trajectories.map((tr) => tr.task)).toEqual([0, 0, 1, 1]);
    expect(st.trajectories.every((tr, i) => tr.scene.task.goal === st.scenes[i].task.goal)).toBe(true);
    // The last round's tasks replaced the update's own (fresh indices, so different scenes).
    expect(st.trajectories.some((tr, i) => JSON.stringify(tr.scene) !== JSON.stringify(own[i]))).toBe(true);
    expect(st.trajectories[0].scene).toBe(st.trajectories[1].scene);
    expect(Array.from(st.advantages)).toEqual([0, 0, 0, 0]);
    expect(m.zeroVarianceGroups).toBe(1);
  });
});

describe('diagnostics in the metrics', () => {
  it("flags each rollout token on the expert's shortest plans, in the update's token order", async () => {
    const t = trainer('seed-static');
    await t.nextStage();
    const st = t.current!;
    const flags = st.expertTokens!;
    expect(flags.length).toBe(st.tokenOffsets[st.trajectories.length]);
    st.trajectories.forEach((tr, i) => {
      expect(Array.from(flags.subarray(st.tokenOffsets[i], st.tokenOffsets[i + 1]))).toEqual(
        Array.from(expertTokens(tr, tok)),
      );
    });
    const m = await t.update();
    expect(m.corrDeltaExpert).toBe(creditDiagnostics(st).corrDeltaExpert);
    expect(m.teacherOwnSkill).toBeNull();
  });

  it('runs the teacher check on validation games every teacherEvery updates, leaving the run as it was', async () => {
    const config = small({ teacherEvery: 2, teacherGames: 2 });
    const checked = trainer('grpo', config);
    const plain = trainer('grpo', small());
    const first = await checked.update();
    expect([first.teacherNoSkill, first.teacherOwnSkill, first.teacherOtherSkill]).toEqual([null, null, null]);
    const second = await checked.update();
    await plain.update();
    await plain.update();
    expect(Array.from(await checked.backend.readParameters())).toEqual(
      Array.from(await plain.backend.readParameters()),
    );
    const direct = await teacherCheck(
      householdRl(TINY),
      plain.backend,
      tok,
      validationScenes(TINY, 2),
      config,
      undefined,
      'own',
    );
    expect([second.teacherNoSkill, second.teacherOwnSkill, second.teacherOtherSkill]).toEqual([
      direct.no_skill,
      direct.own_skill,
      direct.other_skill,
    ]);
  });
});
