import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../backend/cpu/cpu_backend.ts';
import { Rng } from '../common/rng.ts';
import { generateScene } from '../worlds/household/env/splits.ts';
import { TINY } from '../worlds/household/env/scale.ts';
import { presetConfig } from '../model/config.ts';
import { skillTokens, taskTokens } from '../text/prompts.ts';
import { defaultTokenizer } from '../text/tokenizer.ts';
import { defaultConfig } from './config.ts';
import { rollout } from './rollout.ts';
import { SKILL_RESERVE } from '../text/prompts.ts';
import { blankSkill, otherGameOf, pairedGain, TEACHER_PLAYS, teacherCheck, teacherScenesOf } from './teacher_check.ts';
import { householdEnvironment } from '../worlds/household/env/environment.ts';
import { householdRl } from '../worlds/household/rl/adapter.ts';

const tok = defaultTokenizer();
const model = presetConfig('micro', tok.vocabSize);
const SKILL = 'workflow: take the apple 1 from the countertop 1, put it in the fridge 1.';
const options = {
  maxSteps: 3,
  history: 3,
  temperature: 1,
  constrained: true,
  maxCommandTokens: 12,
  maxSkillTokens: 48,
};

describe('rollout with a skill in context', () => {
  const scenes = [generateScene('train', 0), generateScene('train', 1)];

  it('without skills is the plain rollout, bit for bit', async () => {
    const be = CpuBackend.fromSeed(model, 3);
    const plain = await rollout(householdEnvironment(), be, tok, scenes, [0, 1], options, new Rng(4));
    const none = await rollout(householdEnvironment(), be, tok, scenes, [0, 1], options, new Rng(4), undefined, [
      null,
      null,
    ]);
    expect(none.map((t) => Array.from(t.sequences[0].ids))).toEqual(plain.map((t) => Array.from(t.sequences[0].ids)));
    expect(none.map((t) => Array.from(t.lOld))).toEqual(plain.map((t) => Array.from(t.lOld)));
  });

  it('puts the skill block right after the task line (episode layout) or in every step context (windowed)', async () => {
    const be = CpuBackend.fromSeed(model, 3);
    const block = skillTokens(tok, SKILL, SKILL_RESERVE + options.maxSkillTokens);
    const [withSkill, without] = await rollout(
      householdEnvironment(),
      be,
      tok,
      scenes,
      [0, 1],
      options,
      new Rng(4),
      undefined,
      [SKILL, null],
    );
    const task = taskTokens(tok, scenes[0].task.goal);
    const ids = Array.from(withSkill.sequences[0].ids);
    expect(ids.slice(task.length, task.length + block.length)).toEqual(block);
    expect(Array.from(without.sequences[0].ids).slice(taskTokens(tok, scenes[1].task.goal).length)).not.toEqual(
      expect.arrayContaining(block.slice(0, 1)),
    );
    const windowed = await rollout(
      householdEnvironment(),
      be,
      tok,
      scenes.slice(0, 1),
      [0],
      { ...options, history: 1 },
      new Rng(4),
      undefined,
      [SKILL],
    );
    for (const seq of windowed[0].sequences) {
      expect(Array.from(seq.ids).slice(task.length, task.length + block.length - 1)).toEqual(block.slice(0, -1));
    }
  });
});

describe('teacher check', () => {
  const config = { ...defaultConfig('micro'), maxSteps: 3, history: 3 };

  it('plays every game five times; its figures add up and repeat exactly', async () => {
    const be = CpuBackend.fromSeed(model, 5);
    const scenes = teacherScenesOf(householdEnvironment(TINY), 6);
    let episodes = 0;
    const a = await teacherCheck(householdRl(TINY), be, tok, scenes, config, () => episodes++);
    expect(episodes).toBe(TEACHER_PLAYS * 6);
    expect(a.games).toBe(6);
    expect(a.after_won.games + a.after_failed.games).toBe(6);
    expect(a.first).toBeCloseTo(a.after_won.games / 6, 12);
    for (const key of ['no_skill', 'own_skill', 'other_skill', 'blank_skill'] as const) {
      expect(a[key]).toBeGreaterThanOrEqual(0);
      expect(a[key]).toBeLessThanOrEqual(1);
      const wins = a.after_won[key] * a.after_won.games + a.after_failed[key] * a.after_failed.games;
      expect(a[key] * 6).toBeCloseTo(wins, 9);
    }
    expect(a.own_gain.mean).toBeCloseTo(a.own_skill - a.no_skill, 12);
    expect(a.own_gain.ci95[0]).toBeLessThanOrEqual(a.own_gain.mean);
    expect(a.own_gain.ci95[1]).toBeGreaterThanOrEqual(a.own_gain.mean);
    // The own skill's lead is the block effect plus the content effect; the blank block's is its own play's.
    expect(a.effects.block.mean).toBeCloseTo(a.other_skill - a.no_skill, 12);
    expect(a.effects.content.mean).toBeCloseTo(a.own_skill - a.other_skill, 12);
    expect(a.effects.block.mean + a.effects.content.mean).toBeCloseTo(a.own_gain.mean, 12);
    expect(a.effects.blank.mean).toBeCloseTo(a.blank_skill - a.no_skill, 12);
    expect(await teacherCheck(householdRl(TINY), be, tok, scenes, config)).toEqual(a);
  });

  it("with the policy's own skills: every game's skill written by its analyzer, same figures on a rerun", async () => {
    const be = CpuBackend.fromSeed(model, 5);
    const scenes = teacherScenesOf(householdEnvironment(TINY), 6);
    const own = await teacherCheck(
      householdRl(TINY),
      be,
      tok,
      scenes,
      { ...config, maxSkillTokens: 16 },
      undefined,
      'own',
    );
    expect(own.skills).toBe('own');
    // Under the skill grammar (the tiny default) every skill that ends within the budget is usable.
    expect(own.valid_skills).toBeGreaterThan(0);
    const annotator = await teacherCheck(householdRl(TINY), be, tok, scenes, config);
    expect(annotator.skills).toBe('annotator');
    expect(annotator.valid_skills).toBe(1);
    // Both writers state only starting places the first episode saw: never a false one.
    expect([own.skill_place_false, annotator.skill_place_false]).toEqual([0, 0]);
    for (const check of [own, annotator]) expect(check.skill_place_true).toBeGreaterThanOrEqual(0);
    expect(own.first).toBe(annotator.first);
    expect(
      await teacherCheck(householdRl(TINY), be, tok, scenes, { ...config, maxSkillTokens: 16 }, undefined, 'own'),
    ).toEqual(own);
  });

  it('blanks a skill into a block of full stops as long as the skill, which skillTokens cuts where it cuts the skill', () => {
    const skill = 'workflow: take the apple 1 from the countertop 1, put it in the fridge 1.';
    const blank = blankSkill(tok, skill)!;
    expect(tok.encode(blank)).toEqual(new Array(tok.encode(skill).length).fill(tok.id('.')));
    for (const maxLen of [Infinity, 20, 12])
      expect(skillTokens(tok, blank, maxLen).length, String(maxLen)).toBe(skillTokens(tok, skill, maxLen).length);
    expect(blankSkill(tok, null)).toBeNull();
  });

  it('gives each game the skill of another game of its task type when there is one', () => {
    const scenes = teacherScenesOf(householdEnvironment(TINY), 40);
    const other = otherGameOf(scenes.map((s) => s.task.type));
    other.forEach((j, i) => {
      expect(j).not.toBe(i);
      const sameType = scenes.some((s, k) => k !== i && s.task.type === scenes[i].task.type);
      if (sameType) expect(scenes[j].task.type).toBe(scenes[i].task.type);
    });
  });

  it('refuses fewer than two games', async () => {
    await expect(
      teacherCheck(
        householdRl(TINY),
        CpuBackend.fromSeed(model, 5),
        tok,
        teacherScenesOf(householdEnvironment(TINY), 1),
        config,
      ),
    ).rejects.toThrow(/at least 2 games/);
  });
});

describe('the paired gain of the teacher check', () => {
  it('is the mean paired difference with a normal 95% interval, checked by hand', () => {
    // Differences +1, +1, 0, -1, +1, 0, 0, +1: mean 3/8.
    const none = [false, false, true, true, false, false, true, false];
    const own = [true, true, true, false, true, false, true, true];
    const d = [1, 1, 0, -1, 1, 0, 0, 1];
    const mean = 3 / 8;
    const variance = d.reduce((s, x) => s + (x - mean) ** 2, 0) / 7;
    const half = (1.96 * Math.sqrt(variance)) / Math.sqrt(8);
    const g = pairedGain(none, own);
    expect(g.mean).toBe(mean);
    expect(g.ci95[0]).toBeCloseTo(mean - half, 12);
    expect(g.ci95[1]).toBeCloseTo(mean + half, 12);
    // Sample variance: (4 * (5/8)^2 + 3 * (3/8)^2 + (11/8)^2) / 7 = (248 / 64) / 7.
    expect(variance).toBeCloseTo(248 / 448, 12);
    expect(pairedGain([true, false], [true, false])).toEqual({ mean: 0, ci95: [0, 0] });
  });
});
