import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../backend/cpu/cpu_backend.ts';
import { presetConfig } from '../model/config.ts';
import { skillSlotLength, slotTokens } from '../text/prompts.ts';
import { defaultTokenizer } from '../text/tokenizer.ts';
import type { Scene } from '../worlds/household/env/scene.ts';
import type { StepRecord } from '../worlds/household/env/game.ts';
import { TINY } from '../worlds/household/env/scale.ts';
import { householdRl } from '../worlds/household/rl/adapter.ts';
import { defaultConfig, type TrainConfig } from './config.ts';
import { skillSequences } from './rescore.ts';
import { skillSlotDifference } from './skill_slot.ts';
import { Trainer } from './trainer.ts';

const tok = defaultTokenizer();
const model = presetConfig('micro', tok.vocabSize);

function small(extra: Partial<TrainConfig>): TrainConfig {
  return { ...defaultConfig('micro'), groupSize: 2, tasksPerUpdate: 2, maxSteps: 3, lr: 1e-2, ...extra };
}

async function throughRescore(config: TrainConfig): Promise<Trainer<Scene, StepRecord>> {
  const t = new Trainer({
    backend: CpuBackend.fromSeed(model, 11),
    tokenizer: tok,
    algo: 'seed',
    config,
    seed: 5,
    world: householdRl(TINY),
  });
  while ((await t.nextStage()).stage < 4);
  return t;
}

describe('a run with a skill slot (skillSlot = 1)', () => {
  for (const [layout, history] of [
    ['episode', 3],
    ['window', 1],
  ] as const) {
    it(`plays with the empty slot and re-scores with the skill in it, no position moved (${layout} layout)`, async () => {
      const config = small({ history, skillSlot: 1 });
      const slot = skillSlotLength(config);
      const empty = slotTokens(tok, null, slot);
      const t = await throughRescore(config);
      const st = t.current!;
      expect(st.trajectories.every((tr) => tr.layout === layout)).toBe(true);
      let filled = 0;
      for (const tr of st.trajectories) {
        for (const seq of tr.sequences) {
          const at = seq.ids.indexOf(tok.id('<skill>'));
          expect(Array.from(seq.ids.subarray(at, at + slot))).toEqual(empty);
        }
        const used = st.used[tr.index];
        if (!used?.ok) continue;
        filled++;
        const withSkill = skillSequences(t, tr, used.text, config);
        expect(withSkill).toHaveLength(tr.sequences.length);
        withSkill.forEach((seq, k) => {
          const plain = tr.sequences[k];
          expect(seq.ids.length).toBe(plain.ids.length);
          expect(Array.from(seq.positions)).toEqual(Array.from(plain.positions));
          const at = plain.ids.indexOf(tok.id('<skill>'));
          expect(Array.from(seq.ids.subarray(at, at + slot))).toEqual(slotTokens(tok, used.text, slot));
          expect(Array.from(seq.ids.subarray(0, at))).toEqual(Array.from(plain.ids.subarray(0, at)));
          expect(Array.from(seq.ids.subarray(at + slot))).toEqual(Array.from(plain.ids.subarray(at + slot)));
        });
      }
      expect(filled).toBeGreaterThan(0);
    });
  }
});

describe('skillSlotDifference', () => {
  const slotted = { config: { skillSlot: 1, maxSkillTokens: 48 } };
  it('refuses a start whose contexts held a slot the run lacks, or the reverse, or of another length', () => {
    expect(skillSlotDifference(slotted, { skillSlot: 1, maxSkillTokens: 48 }, 'w.ckpt')).toBeNull();
    expect(skillSlotDifference({}, { skillSlot: 0, maxSkillTokens: 48 }, 'w.ckpt')).toBeNull();
    expect(skillSlotDifference({ config: { lr: 1 } }, { skillSlot: 0 }, 'w.ckpt')).toBeNull();
    expect(skillSlotDifference({ stage: 'init' }, { skillSlot: 1, maxSkillTokens: 48 }, 'w.ckpt')).toBeNull();
    expect(skillSlotDifference(slotted, { skillSlot: 0, maxSkillTokens: 48 }, 'w.ckpt')).toMatch(
      /^w\.ckpt was trained with a skill slot in every context .*--set skillSlot=1/,
    );
    expect(skillSlotDifference({}, { skillSlot: 1, maxSkillTokens: 48 }, '--init w.ckpt')).toMatch(
      /^--init w\.ckpt was trained without a skill slot: .*warmstart --skill-slot/,
    );
    expect(skillSlotDifference(slotted, { skillSlot: 1, maxSkillTokens: 40 }, 'w.ckpt')).toMatch(
      /sized for maxSkillTokens 48, and these settings have 40/,
    );
  });
});
