import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../backend/cpu/cpu_backend.ts';
import type { StepRecord } from '../worlds/household/env/game.ts';
import { TINY } from '../worlds/household/env/scale.ts';
import type { Scene } from '../worlds/household/env/scene.ts';
import { presetConfig } from '../model/config.ts';
import { defaultTokenizer } from '../text/tokenizer.ts';
import { packBatch } from './batch.ts';
import { defaultConfig, type TrainConfig } from './config.ts';
import type { Algo } from './arms.ts';
import { householdRl } from '../worlds/household/rl/adapter.ts';
import { skillSequences } from './rescore.ts';
import { restoreRun, runCheckpoints } from './run_checkpoint.ts';
import { withTeacher } from './teacher_weights.ts';
import { Trainer } from './trainer.ts';

const tok = defaultTokenizer();
const model = presetConfig('micro', tok.vocabSize);

function small(extra: Partial<TrainConfig> = {}): TrainConfig {
  return { ...defaultConfig('micro'), groupSize: 2, tasksPerUpdate: 2, maxSteps: 3, history: 3, lr: 1e-2, ...extra };
}

function trainer(algo: Algo, config: TrainConfig, initSeed = 11): Trainer<Scene, StepRecord> {
  return new Trainer({
    backend: CpuBackend.fromSeed(model, initSeed),
    tokenizer: tok,
    algo,
    config,
    seed: 5,
    world: householdRl(TINY),
  });
}

/** l_skill of the current update, as the weights `params` score the trajectories with their used skills. */
async function lSkillUnder(t: Trainer<Scene, StepRecord>, params: Float32Array): Promise<number[]> {
  const st = t.current!;
  const probe = CpuBackend.fromSeed(model, 1);
  await probe.writeParameters(params);
  const usable = st.trajectories.filter((_, i) => st.used[i]?.ok);
  const batch = packBatch(
    usable.flatMap((tr) => skillSequences(t, tr, st.used[tr.index]!.text, st.config)),
    tok.padId,
  );
  return Array.from(await probe.score(batch));
}

/** l_skill of the usable trajectories' tokens as the update's loss inputs hold them, in scored order. */
function heldLSkill(t: Trainer<Scene, StepRecord>): number[] {
  const st = t.current!;
  return st.trajectories.flatMap((_, i) =>
    st.used[i]?.ok ? Array.from(st.inputs!.lSkill.subarray(st.tokenOffsets[i], st.tokenOffsets[i + 1])) : [],
  );
}

/** Runs stages until the re-scoring stage of the next update is done. */
async function throughRescore(t: Trainer<Scene, StepRecord>): Promise<void> {
  while ((await t.nextStage()).stage < 4);
}

describe('the teacher refreshed every K updates (teacherRefresh)', () => {
  it('K = 1 re-scores with the pre-update weights; K = 0 with the weights the run started from', async () => {
    for (const k of [1, 0]) {
      const t = trainer('seed', small({ teacherRefresh: k }));
      const start = await t.backend.readParameters();
      await t.update();
      await t.update();
      await throughRescore(t);
      const pre = await t.backend.readParameters();
      expect(Array.from(pre)).not.toEqual(Array.from(start));
      expect(heldLSkill(t).length).toBeGreaterThan(0);
      expect(heldLSkill(t)).toEqual(await lSkillUnder(t, k === 1 ? pre : start));
      expect(t.teacherParams).toBeNull();
    }
  });

  it('K = 2 holds the weights of the last even update, and swaps them back after scoring', async () => {
    const t = trainer('seed-exact', small({ teacherRefresh: 2 }));
    const atZero = await t.backend.readParameters();
    await t.update();
    expect(Array.from(t.teacherParams!)).toEqual(Array.from(atZero));
    await throughRescore(t);
    const atOne = await t.backend.readParameters();
    // The held teacher scored update 1, and the policy's own weights are back in place after it.
    expect(heldLSkill(t)).toEqual(await lSkillUnder(t, atZero));
    expect(heldLSkill(t)).not.toEqual(await lSkillUnder(t, atOne));
    while (t.current!.stage < 6) await t.nextStage();
    const atTwo = await t.backend.readParameters();
    await throughRescore(t);
    expect(Array.from(t.teacherParams!)).toEqual(Array.from(atTwo));
    expect(heldLSkill(t)).toEqual(await lSkillUnder(t, atTwo));
  });

  it('a frozen control re-scores its own skill with the weights the run started from, whatever the setting', async () => {
    for (const arm of ['seed', 'seed-exact'] as const) {
      const t = trainer(`${arm}-frozen`, small({ teacherRefresh: 1 }));
      const start = await t.backend.readParameters();
      await t.update();
      await throughRescore(t);
      const st = t.current!;
      expect(st.used).toEqual(st.written);
      expect(heldLSkill(t)).toEqual(await lSkillUnder(t, start));
      expect(heldLSkill(t)).not.toEqual(await lSkillUnder(t, await t.backend.readParameters()));
      // Its checkpoint holds no teacher: the reference is the weights it started from.
      expect((await runCheckpoints(t, 'micro', tok.hash)).teacher).toBeNull();
    }
  });

  it('puts the weights back when the scoring throws', async () => {
    const be = CpuBackend.fromSeed(model, 3);
    const own = await be.readParameters();
    const held = CpuBackend.fromSeed(model, 4);
    const teacherParams = await held.readParameters();
    await expect(
      withTeacher({ backend: be, algo: 'seed', teacherParams }, { teacherRefresh: 3 }, async () => {
        expect(Array.from(await be.readParameters())).toEqual(Array.from(teacherParams));
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(Array.from(await be.readParameters())).toEqual(Array.from(own));
  });

  it('a run resumed between refreshes continues bit for bit; without its teacher it is refused', async () => {
    const config = small({ teacherRefresh: 3 });
    const straight = trainer('seed', config);
    for (let u = 0; u < 3; u++) await straight.update();
    const first = trainer('seed', config);
    await first.update();
    await first.update();
    const { current, reference, teacher } = await runCheckpoints(first, 'micro', tok.hash);
    expect(teacher).not.toBeNull();
    const resumed = trainer('seed', small(), 999);
    await expect(restoreRun(resumed, current, reference, null)).rejects.toThrow(/teacher checkpoint is missing/);
    await restoreRun(resumed, current, reference, teacher);
    await resumed.update();
    expect(Array.from(await resumed.backend.readParameters())).toEqual(
      Array.from(await straight.backend.readParameters()),
    );
    // A run that holds no teacher writes none, and refuses one given to it.
    const plain = await runCheckpoints(trainer('seed', small()), 'micro', tok.hash);
    expect(plain.teacher).toBeNull();
    await expect(restoreRun(trainer('seed', small()), plain.current, plain.reference, teacher)).rejects.toThrow(
      /holds none/,
    );
  });
});
