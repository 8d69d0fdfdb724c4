// A part control's skills are written exactly as its arm's: the policy (here a random-init one, writing under
// the skill grammar) draws from the same streams, and the part is drawn from a stream of its own, so the
// transform never moves the skills, the rollouts or any number of the arm.
import type { Scene } from '../worlds/household/env/scene.ts';
import type { StepRecord } from '../worlds/household/env/game.ts';
import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../backend/cpu/cpu_backend.ts';
import { TINY } from '../worlds/household/env/scale.ts';
import { presetConfig } from '../model/config.ts';
import { shufflePieces } from '../text/pieces.ts';
import { skillFacts, skillProcedure } from '../worlds/household/skills/parts.ts';
import { defaultTokenizer } from '../text/tokenizer.ts';
import { defaultConfig } from './config.ts';
import type { Algo } from './arms.ts';
import { householdRl } from '../worlds/household/rl/adapter.ts';
import { Trainer } from './trainer.ts';
import { updateRng } from './update_rng.ts';

const tok = defaultTokenizer();
const model = presetConfig('micro', tok.vocabSize);
const config = { ...defaultConfig('micro'), groupSize: 3, tasksPerUpdate: 2, maxSteps: 3, history: 3 };
const SEED = 5;

async function afterSkills(algo: Algo) {
  const t = new Trainer<Scene, StepRecord>({
    backend: CpuBackend.fromSeed(model, 2),
    tokenizer: tok,
    algo,
    config,
    seed: SEED,
    world: householdRl(TINY),
  });
  for (let s = 0; s < 4; s++) await t.nextStage();
  return t.current!;
}

describe('part controls write the skills their arm writes', () => {
  it('seed-procedure, seed-facts and seed-shuffled: the written skills are seed’s, bit for bit, and the used their parts', async () => {
    const base = await afterSkills('seed');
    expect(base.written.some((w) => w?.ok)).toBe(true);
    for (const [algo, part] of [
      ['seed-procedure', skillProcedure],
      ['seed-facts', skillFacts],
      ['seed-shuffled', null],
    ] as const) {
      const st = await afterSkills(algo);
      expect(st.written, algo).toEqual(base.written);
      expect(Array.from(st.inputs!.opdMask), algo).toEqual(Array.from(base.inputs!.opdMask));
      const rng = updateRng(SEED, 0, 'skills').fork('parts');
      st.written.forEach((w, i) => {
        if (!w?.ok) return;
        expect(st.used[i]!.text, algo).toBe(part ? part(w.text) : shufflePieces(w.text, rng));
      });
    }
  });
});
