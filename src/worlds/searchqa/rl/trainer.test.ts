// The trainer runs the search-QA world through the same six stages as the other worlds: skills written under its
// grammar, checked by its parser, part controls from its parts, and an update whose losses are finite.
import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../../../backend/cpu/cpu_backend.ts';
import { presetConfig } from '../../../model/config.ts';
import { defaultConfig, type TrainConfig } from '../../../rl/config.ts';
import { type Algo, isBaseline } from '../../../rl/arms.ts';
import { teacherCheck } from '../../../rl/teacher_check.ts';
import { Trainer } from '../../../rl/trainer.ts';
import { tokenizerOf } from '../../../text/tokenizer.ts';
import { rlWorldOf } from '../../rl_worlds.ts';
import { SEARCHQA } from '../env/environment.ts';
import { qaRl } from './adapter.ts';

const tok = tokenizerOf(SEARCHQA);
const model = presetConfig('micro', tok.vocabSize);
const config = (extra: Partial<TrainConfig> = {}): TrainConfig => ({
  ...defaultConfig('micro'),
  ...qaRl().trainDefaults,
  groupSize: 2,
  tasksPerUpdate: 2,
  lr: 1e-2,
  ...extra,
});

const trainer = (algo: Algo) =>
  new Trainer({
    backend: CpuBackend.fromSeed(model, 7),
    tokenizer: tok,
    algo,
    config: config(),
    seed: 3,
    world: qaRl(),
  });

describe('training in the search-QA world', () => {
  for (const algo of ['grpo', 'seed', 'seed-procedure'] as const) {
    it(`${algo}: one update through the six stages in the episode layout, with finite losses`, async () => {
      const t = trainer(algo);
      const metrics = await t.update();
      const st = t.current!;
      expect(st.trajectories.length).toBe(4);
      expect(st.trajectories.every((tr) => tr.layout === 'episode' && tr.records[1].action.startsWith('search['))).toBe(
        true,
      );
      expect(Number.isFinite(metrics.total)).toBe(true);
      if (isBaseline(algo)) expect(st.written.every((w) => w === null)).toBe(true);
      else {
        const written = st.written.filter((w) => w !== null);
        expect(written.length).toBe(4);
        for (const w of written) if (w.ids!.length < 48) expect(w.ok).toBe(true);
      }
      expect(st.expertTokens!.length).toBe(st.trajectories.reduce((n, tr) => n + tr.lOld.length, 0));
    });
  }

  it('writes the annotator skills of seed-annotator, which parse and state nothing false', async () => {
    const t = trainer('seed-annotator');
    const metrics = await t.update();
    expect(t.current!.written.every((w) => w?.ok)).toBe(true);
    expect(metrics.skillPlaceFalse).toBe(0);
    expect(metrics.skillFidelity).toBe(1);
  });

  it('runs the teacher check on its games, and finds the world of its environment', async () => {
    const world = rlWorldOf(SEARCHQA);
    expect(world).toBe(qaRl());
    const check = await teacherCheck(world, CpuBackend.fromSeed(model, 5), tok, world.teacherScenes(3), config());
    expect(check.games).toBe(3);
    expect(check.valid_skills).toBe(1);
    expect(check.skill_place_false).toBe(0);
  });
});
