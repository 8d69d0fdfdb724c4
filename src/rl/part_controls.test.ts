// The part controls give the teacher a transform of the trajectory's own skill and change nothing else: the
// skills written, the loss settings and the OPD mask are the arm's. The analyzer is replaced by canned skills
// (every third unusable), so that each used skill can be checked against the transform of its written one.
import type { Scene } from '../worlds/household/env/scene.ts';
import type { StepRecord } from '../worlds/household/env/game.ts';
import { describe, expect, it, vi } from 'vitest';
import { CpuBackend } from '../backend/cpu/cpu_backend.ts';
import { Rng } from '../common/rng.ts';
import { TINY } from '../worlds/household/env/scale.ts';
import { presetConfig } from '../model/config.ts';
import { SKILL, SKILL_INTRO } from '../text/markers.ts';
import { shufflePieces } from '../text/pieces.ts';
import { shopSkillFacts, shopSkillProcedure } from '../worlds/shop/skills/parts.ts';
import { skillFacts, skillProcedure } from '../worlds/household/skills/parts.ts';
import { defaultTokenizer } from '../text/tokenizer.ts';
import { defaultConfig, type TrainConfig } from './config.ts';
import { ALGOS, armOf, isExactAlgo, partControl, skillPartOf, type Algo, type SkillTransform } from './arms.ts';
import { householdRl } from '../worlds/household/rl/adapter.ts';
import { skillSequences } from './rescore.ts';
import type { Trajectory } from './rollout.ts';
import { shopRl } from '../worlds/shop/rl/adapter.ts';
import { Trainer } from './trainer.ts';
import { updateRng } from './update_rng.ts';

const CANNED = [
  'workflow: go to the cabinet 2, take the mug 1 from the cabinet 2, put it in the microwave 1. the mug 1 was in the cabinet 2.',
  'avoid: searching the same drawer twice; the mug was on the countertop 1. take it from the shelf 1 first.',
  'take the mug',
];

vi.mock('./analyzer.ts', async (original) => ({
  ...(await original<typeof import('./analyzer.ts')>()),
  writeSkills: async (_w: unknown, _b: unknown, _t: unknown, ts: readonly unknown[]) =>
    ts.map((_, i) => ({ text: CANNED[i % 3], ok: i % 3 !== 2, reason: i % 3 === 2 ? 'canned' : '' })),
}));

const tok = defaultTokenizer();
const model = presetConfig('micro', tok.vocabSize);
const TRANSFORMS: readonly SkillTransform[] = ['procedure', 'facts', 'empty', 'shuffled'];
const SEED = 3;

function small(extra: Partial<TrainConfig> = {}): TrainConfig {
  return { ...defaultConfig('micro'), groupSize: 3, tasksPerUpdate: 2, maxSteps: 2, history: 2, ...extra };
}

async function afterStages(algo: Algo, stages: number, config = small()) {
  const t = new Trainer<Scene, StepRecord>({
    backend: CpuBackend.fromSeed(model, 1),
    tokenizer: tok,
    algo,
    config,
    seed: SEED,
    world: householdRl(TINY),
  });
  for (let s = 0; s < stages; s++) await t.nextStage();
  return t;
}

/** What a run played: its tasks, games, steps and the rollout's log-probs. */
function plays(st: { trajectories: readonly Trajectory[] }) {
  return st.trajectories.map((t) => ({ task: t.task, scene: t.scene, records: t.records, lOld: Array.from(t.lOld) }));
}

describe('part controls: names', () => {
  it('names every part control <arm>-<part>, runs it as its arm, and says which part it gives', () => {
    for (const arm of ['seed', 'seed-exact'] as const) {
      for (const part of ['crossgame', ...TRANSFORMS, 'frozen'] as const) {
        const algo = partControl(arm, part);
        expect(algo).toBe(`${arm}-${part}`);
        expect(ALGOS).toContain(algo);
        expect(armOf(algo)).toBe(arm);
        expect(skillPartOf(algo)).toBe(part);
        expect(isExactAlgo(algo)).toBe(arm === 'seed-exact');
      }
    }
    for (const algo of ['grpo', 'seed', 'seed-exact', 'seed-sibling', 'opid'] as const) {
      expect(armOf(algo)).toBe(algo);
      expect(skillPartOf(algo)).toBeNull();
    }
    expect(new Set(ALGOS).size).toBe(ALGOS.length);
    expect(ALGOS.filter((a) => skillPartOf(a) !== null)).toHaveLength(12);
  });
});

describe('part controls: the teacher reads a transform of the trajectory’s own skill', () => {
  for (const arm of ['seed', 'seed-exact'] as const) {
    it(`${arm}-*: the used skills are the transforms of the written ones, the OPD mask and the loss settings ${arm}'s`, async () => {
      const base = (await afterStages(arm, 4)).current!;
      for (const part of TRANSFORMS) {
        const algo = partControl(arm, part);
        const st = (await afterStages(algo, 4)).current!;
        expect(plays(st), algo).toEqual(plays(base));
        expect(Array.from(st.advantages), algo).toEqual(Array.from(base.advantages));
        expect(st.written, algo).toEqual(base.written);
        expect(st.lossHyper, algo).toEqual(base.lossHyper);
        expect(Array.from(st.inputs!.opdMask), algo).toEqual(Array.from(base.inputs!.opdMask));
        const rng = updateRng(SEED, 0, 'skills').fork('parts');
        const transform = (text: string): string =>
          ({
            procedure: () => skillProcedure(text),
            facts: () => skillFacts(text),
            empty: () => '',
            shuffled: () => shufflePieces(text, rng),
          })[part]();
        st.written.forEach((w, i) => {
          if (!w!.ok) expect(st.used[i], algo).toBe(w);
          else expect(st.used[i], algo).toEqual({ text: transform(w!.text), ok: true, reason: '' });
        });
        expect(st.used.some((u, i) => u!.ok && u!.text !== st.written[i]!.text)).toBe(true);
      }
    });
  }

  it('draws the shuffled order from the update’s stream: the same seed gives the same skills', async () => {
    const [a, b] = [await afterStages('seed-shuffled', 3), await afterStages('seed-shuffled', 3)];
    expect(a.current!.used).toEqual(b.current!.used);
  });

  it('gives the shop’s transforms through the shop’s world', () => {
    const text =
      'workflow: search for cotton shirt, click an item whose title says cotton priced under 30 dollars, choose the large size, buy now. the item cost 24 dollars.';
    const world = shopRl();
    expect(world.skillPart('procedure', text, new Rng(1))).toBe(shopSkillProcedure(text));
    expect(world.skillPart('facts', text, new Rng(1))).toBe(shopSkillFacts(text));
    expect(world.skillPart('empty', text, new Rng(1))).toBe('');
    expect(world.skillPart('shuffled', text, new Rng(1))).toBe(shufflePieces(text, new Rng(1)));
  });

  it('writes the empty skill as a whole block with no words, in the episode and the window layouts', async () => {
    const block = [tok.id(SKILL), ...tok.encode(SKILL_INTRO), tok.endId];
    const contains = (ids: Int32Array) => Array.from(ids).some((_, k) => block.every((id, j) => ids[k + j] === id));
    const layouts: string[] = [];
    for (const config of [small(), small({ maxSteps: 2, history: 1, skillAfterPage: 1 })]) {
      const trainer = await afterStages('seed-empty', 3, config);
      const t = trainer.current!.trajectories[0];
      layouts.push(t.layout);
      const seqs = skillSequences(trainer, t, '', config);
      expect(seqs.length).toBe(t.layout === 'episode' ? 1 : t.commands.length);
      for (const s of seqs) expect(contains(s.ids)).toBe(true);
    }
    expect(layouts).toEqual(['episode', 'window']);
  });
});
