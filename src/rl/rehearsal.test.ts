// The rehearsal term: skill-following and skill-writing examples of the warm start's kind, drawn from the update's
// own stream, whose negative log-likelihood gradient joins the update's at the weight `rehearsal`; off (0), an
// update is the update without it, bit for bit.
import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../backend/cpu/cpu_backend.ts';
import { presetConfig } from '../model/config.ts';
import { defaultTokenizer } from '../text/tokenizer.ts';
import { TINY } from '../worlds/household/env/scale.ts';
import { householdRl } from '../worlds/household/rl/adapter.ts';
import { defaultConfig, type TrainConfig } from './config.ts';
import { rehearsalCorpus, rehearse } from './rehearsal.ts';
import { Trainer } from './trainer.ts';
import type { UpdateContext, UpdateState } from './update_state.ts';

const tok = defaultTokenizer();
const model = presetConfig('micro', tok.vocabSize);

function small(extra: Partial<TrainConfig> = {}): TrainConfig {
  return { ...defaultConfig('micro'), groupSize: 2, tasksPerUpdate: 2, maxSteps: 3, history: 3, lr: 1e-2, ...extra };
}

const norm = (xs: Float32Array) => Math.sqrt(xs.reduce((s, x) => s + x * x, 0));

describe('rehearsal', () => {
  const run: UpdateContext = {
    backend: CpuBackend.fromSeed(model, 11),
    tok,
    algo: 'grpo',
    seed: 3,
    world: householdRl(TINY),
  };
  const corpus = rehearsalCorpus(run, { skillSlot: 0 });
  const gradientOf = async (rehearsal: number, update: number, epoch: number) => {
    const st = { update, config: small({ rehearsal, rehearsalBatch: 4 }) } as UpdateState;
    await run.backend.zeroGradients();
    await rehearse(run, st, corpus, epoch);
    return run.backend.readGradients();
  };

  it('rehearses follow and analyze examples only, the same ones from the same seed', () => {
    expect(corpus.sequences.length).toBeGreaterThan(10);
    expect(new Set(corpus.kinds)).toEqual(new Set(['follow', 'analyze']));
    expect(rehearsalCorpus(run, { skillSlot: 0 }).sequences).toEqual(corpus.sequences);
  });

  it('adds the weighted gradient of the examples the update draws: linear in the weight, one draw per step', async () => {
    const one = await gradientOf(1, 4, 0);
    expect(norm(one)).toBeGreaterThan(0);
    const half = await gradientOf(0.5, 4, 0);
    for (let i = 0; i < one.length; i += 97) expect(half[i]).toBeCloseTo(0.5 * one[i], 6);
    expect(await gradientOf(1, 4, 0)).toEqual(one);
    expect(await gradientOf(1, 4, 1)).not.toEqual(one);
    expect(await gradientOf(1, 5, 0)).not.toEqual(one);
  });

  it('changes nothing while off, and moves the update, the same way each time, while on', async () => {
    const trained = async (config: TrainConfig) => {
      const t = new Trainer({
        backend: CpuBackend.fromSeed(model, 11),
        tokenizer: tok,
        algo: 'grpo',
        config,
        seed: 5,
        world: householdRl(TINY),
      });
      await t.update();
      return t.backend.readParameters();
    };
    const plain = await trained(small());
    expect(await trained(small({ rehearsal: 0, rehearsalBatch: 3 }))).toEqual(plain);
    const rehearsed = await trained(small({ rehearsal: 0.5 }));
    expect(rehearsed).not.toEqual(plain);
    expect(await trained(small({ rehearsal: 0.5 }))).toEqual(rehearsed);
  });
});
