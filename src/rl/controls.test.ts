// The controls change only the skill a trajectory distils from. The analyzer is replaced by canned skills
// here (each names the commands of its trajectory, every third one unusable), so that the skill assignment
// can be checked exactly whatever a random-init policy would write.
import type { Scene } from '../worlds/household/env/scene.ts';
import type { StepRecord } from '../worlds/household/env/game.ts';
import { describe, expect, it, vi } from 'vitest';
import { CpuBackend } from '../backend/cpu/cpu_backend.ts';
import { TINY } from '../worlds/household/env/scale.ts';
import { presetConfig } from '../model/config.ts';
import { readCheckpoint, writeCheckpoint } from '../model/checkpoint.ts';
import { defaultTokenizer } from '../text/tokenizer.ts';
import { defaultConfig, type TrainConfig } from './config.ts';
import { type Algo, isBaseline } from './arms.ts';
import { CROSSGAME_POOL_SIZE } from './hindsight.ts';
import type { Trajectory } from './rollout.ts';
import { updateScenes } from './rollout_stage.ts';
import { restoreRun, runCheckpoints } from './run_checkpoint.ts';
import { Trainer } from './trainer.ts';
import { householdRl } from '../worlds/household/rl/adapter.ts';

vi.mock('./analyzer.ts', async (original) => ({
  ...(await original<typeof import('./analyzer.ts')>()),
  writeSkills: async (_w: unknown, _b: unknown, _t: unknown, ts: readonly Trajectory[]) =>
    ts.map((t, i) => ({
      text: `workflow: ${t.records
        .slice(1)
        .map((r) => r.action)
        .join(', ')}.`,
      ok: i % 3 !== 2,
      reason: i % 3 === 2 ? 'canned' : '',
    })),
}));

const tok = defaultTokenizer();
const model = presetConfig('micro', tok.vocabSize);

function small(extra: Partial<TrainConfig> = {}): TrainConfig {
  return { ...defaultConfig('micro'), groupSize: 3, tasksPerUpdate: 2, maxSteps: 2, history: 2, ...extra };
}

function trainer(algo: Algo, config: TrainConfig, seed: number): Trainer<Scene, StepRecord> {
  return new Trainer({
    backend: CpuBackend.fromSeed(model, 1),
    tokenizer: tok,
    algo,
    config,
    seed,
    world: householdRl(TINY),
  });
}

async function afterStages(algo: Algo, stages: number, config = small(), seed = 3) {
  const t = trainer(algo, config, seed);
  for (let s = 0; s < stages; s++) await t.nextStage();
  return t.current!;
}

/** The task type of each group of an update. */
function groupTypes(config: TrainConfig, seed: number, update: number): string[] {
  const { scenes } = updateScenes({ seed, world: householdRl(TINY) }, update, config);
  return Array.from({ length: config.tasksPerUpdate }, (_, b) => scenes[b * config.groupSize].task.type);
}

/**
 * A run seed whose update 0 has two groups of one task type and a group of a type of its own, and whose
 * update 2 has a group whose type no other group of that update has but an earlier update had: so that a
 * seed-crossgame run takes skills from the update, finds none, and draws from the pool.
 */
function crossgameSeed(config: TrainConfig): number {
  const alone = (types: string[], t: string) => types.filter((u) => u === t).length === 1;
  for (let seed = 1; seed < 500; seed++) {
    const [t0, t1, t2] = [0, 1, 2].map((u) => groupTypes(config, seed, u));
    if (!t0.some((t) => !alone(t0, t)) || !t0.some((t) => alone(t0, t))) continue;
    if (t2.some((t) => alone(t2, t) && (t0.includes(t) || t1.includes(t)))) return seed;
  }
  throw new Error('no run seed fits');
}

describe('skill assignment', () => {
  it('seed: each trajectory distils from its own skill; unusable skills give no OPD signal', async () => {
    const st = await afterStages('seed', 4);
    st.used.forEach((s, i) => {
      expect(s).toBe(st.written[i]);
    });
    st.trajectories.forEach((_, i) => {
      const mask = Array.from(st.inputs!.opdMask.subarray(st.tokenOffsets[i], st.tokenOffsets[i + 1]));
      expect(new Set(mask)).toEqual(new Set([i % 3 === 2 ? 0 : 1]));
    });
  });

  it('seed-sibling: each trajectory gets the usable skill of another trajectory of its own group', async () => {
    const st = await afterStages('seed-sibling', 4);
    st.trajectories.forEach((t, i) => {
      const used = st.used[i];
      const donors = st.trajectories.filter((u, j) => j !== i && u.task === t.task && st.written[j]!.ok);
      if (donors.length === 0) {
        expect(used).toBeNull();
        return;
      }
      expect(used!.ok).toBe(true);
      expect(used).not.toBe(st.written[i]);
      expect(donors.map((d) => st.written[d.index])).toContain(used);
    });
  });

  it('seed-crossgame: the skill of another game of the same task type, else of the pool, else none (counted)', async () => {
    const config = small({ groupSize: 2, tasksPerUpdate: 3 });
    const seed = crossgameSeed(config);
    const t = trainer('seed-crossgame', config, seed);
    const earlier: Record<string, string[]> = {};
    let fromPool = 0;
    for (let u = 0; u < 3; u++) {
      const m = await t.update();
      const st = t.current!;
      const sources = { update: 0, pool: 0, none: 0 };
      st.trajectories.forEach((tr, i) => {
        const type = tr.scene.task.type;
        const donors = st.trajectories.filter(
          (d, j) => d.task !== tr.task && d.scene.task.type === type && st.written[j]!.ok,
        );
        const used = st.used[i];
        if (donors.length > 0) {
          sources.update++;
          expect(donors.map((d) => st.written[d.index])).toContain(used);
          expect(JSON.stringify(st.trajectories[donors[0].index].scene)).not.toBe(JSON.stringify(tr.scene));
        } else if (earlier[type]?.length) {
          sources.pool++;
          expect(earlier[type].slice(-CROSSGAME_POOL_SIZE)).toContain(used!.text);
          expect(used!.ok).toBe(true);
        } else {
          sources.none++;
          expect(used).toBeNull();
          expect(st.inputs!.opdMask.subarray(st.tokenOffsets[i], st.tokenOffsets[i + 1]).every((x) => x === 0)).toBe(
            true,
          );
        }
      });
      expect(m.crossgame).toEqual(sources);
      if (u === 0) expect(sources.update > 0 && sources.none > 0).toBe(true);
      fromPool += sources.pool;
      st.trajectories.forEach((tr, j) => {
        if (!st.written[j]!.ok) return;
        earlier[tr.scene.task.type] ??= [];
        earlier[tr.scene.task.type].push(st.written[j]!.text);
      });
    }
    expect(fromPool).toBeGreaterThan(0);
    for (const [type, skills] of Object.entries(earlier))
      expect(t.crossgamePool[type]).toEqual(skills.slice(-CROSSGAME_POOL_SIZE));
  });

  it('changes only the skill used: seed and its controls (and grpo) play the same rollouts with the same advantages at update 0', async () => {
    const config = small({ groupSize: 2, tasksPerUpdate: 3 });
    const seed = crossgameSeed(config);
    const states = new Map<Algo, Awaited<ReturnType<typeof afterStages>>>();
    // grpo too: a run seed draws the same training tasks in every arm of the benchmark.
    for (const algo of ['seed', 'seed-sibling', 'seed-crossgame', 'seed-annotator', 'grpo'] as const)
      states.set(algo, await afterStages(algo, 3, config, seed));
    const base = states.get('seed')!;
    const plays = (st: typeof base) =>
      st.trajectories.map((t) => ({ task: t.task, scene: t.scene, records: t.records, lOld: Array.from(t.lOld) }));
    for (const [algo, st] of states) {
      expect(plays(st), algo).toEqual(plays(base));
      expect(Array.from(st.advantages), algo).toEqual(Array.from(base.advantages));
      if (isBaseline(algo)) continue;
      if (algo !== 'seed-annotator') expect(st.written, algo).toEqual(base.written);
      if (algo !== 'seed')
        expect(
          st.used.map((s) => s?.text ?? null),
          algo,
        ).not.toEqual(base.used.map((s) => s?.text ?? null));
    }
    // The annotator writes its own skills, one per trajectory; the policy's canned skills are not among them.
    const annotated = states.get('seed-annotator')!;
    expect(annotated.used).toEqual(annotated.written);
    expect(annotated.written.some((s, i) => s?.text === base.written[i]?.text)).toBe(false);
  });

  it('seed-crossgame resumes bit for bit: the pool is saved with the run and restored', async () => {
    const config = small({ groupSize: 2, tasksPerUpdate: 3, lr: 1e-2 });
    const seed = crossgameSeed(config);
    const straight = trainer('seed-crossgame', config, seed);
    for (let u = 0; u < 3; u++) await straight.update();
    const first = trainer('seed-crossgame', config, seed);
    await first.update();
    await first.update();
    const files = await runCheckpoints(first, 'micro', tok.hash);
    const [current, reference] = [files.current, files.reference].map((ck) =>
      readCheckpoint(writeCheckpoint(ck), { vocabHash: tok.hash }),
    );
    // The checkpoint holds the pool as it was, whatever the run does afterwards.
    await first.update();
    const resumed = new Trainer({
      backend: CpuBackend.fromSeed(model, 999),
      tokenizer: tok,
      algo: 'seed-crossgame',
      config,
      seed,
      world: householdRl(TINY),
    });
    await restoreRun(resumed, current, reference);
    const m = await resumed.update();
    expect(m.update).toBe(2);
    expect(m.crossgame!.pool).toBeGreaterThan(0);
    expect(resumed.crossgamePool).toEqual(straight.crossgamePool);
    expect(resumed.current!.used).toEqual(straight.current!.used);
    expect(Array.from(await resumed.backend.readParameters())).toEqual(
      Array.from(await straight.backend.readParameters()),
    );
  });
});
