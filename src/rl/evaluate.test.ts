import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../backend/cpu/cpu_backend.ts';
import { EVAL_COUNTS, evalScenes } from '../worlds/household/env/splits.ts';
import { TINY } from '../worlds/household/env/scale.ts';
import { presetConfig } from '../model/config.ts';
import { defaultTokenizer } from '../text/tokenizer.ts';
import { defaultConfig } from './config.ts';
import { evalSplitScenes, evaluate, evaluateSplits, summarise } from './evaluate.ts';
import { householdEnvironment } from '../worlds/household/env/environment.ts';
import { SHOP } from '../worlds/shop/env/environment.ts';
import { tokenizerOf } from '../text/tokenizer.ts';

const tok = defaultTokenizer();
const model = presetConfig('micro', tok.vocabSize);

describe('evaluate: sampling streams', () => {
  it('stream 0 is the standard evaluation; another stream samples the same games differently', async () => {
    const backend = CpuBackend.fromSeed(model, 5);
    const scenes = evalScenes('seen', TINY).slice(0, 6);
    const config = { ...defaultConfig('micro'), maxSteps: 4, evalTemperature: 1 };
    const commands = async (stream?: number) => {
      const out: string[] = [];
      await evaluate(
        householdEnvironment(),
        backend,
        tok,
        scenes,
        config,
        (t) => out.push(`${t.task}:${t.commands.map((c) => tok.decode(Array.from(c.ids))).join('|')}`),
        stream,
      );
      return out.sort();
    };
    const standard = await commands();
    expect(await commands(0)).toEqual(standard);
    expect(await commands()).toEqual(standard);
    const other = await commands(1);
    expect(other.map((s) => s.split(':')[0])).toEqual(standard.map((s) => s.split(':')[0]));
    expect(other).not.toEqual(standard);
  });
});

describe('evaluateSplits: eval-seen and eval-unseen', () => {
  it('the first N games of each fixed set (all of them for 0), never more than the set holds', () => {
    const some = evalSplitScenes(householdEnvironment(), 3);
    expect(some.seen).toEqual(evalScenes('seen', TINY).slice(0, 3));
    expect(some.unseen).toEqual(evalScenes('unseen', TINY).slice(0, 3));
    const all = evalSplitScenes(householdEnvironment(), 0);
    expect([all.seen.length, all.unseen.length]).toEqual([EVAL_COUNTS.seen, EVAL_COUNTS.unseen]);
    const capped = evalSplitScenes(householdEnvironment(), EVAL_COUNTS.seen);
    expect(capped.unseen.length).toBe(EVAL_COUNTS.unseen);
  });

  it('gives what evaluate gives on each split, and names the split of each episode', async () => {
    const backend = CpuBackend.fromSeed(model, 6);
    const config = { ...defaultConfig('micro'), maxSteps: 3, evalTemperature: 1 };
    const scenes = evalSplitScenes(householdEnvironment(), 4);
    const splits: string[] = [];
    const both = await evaluateSplits(householdEnvironment(), backend, tok, config, scenes, (_, split) =>
      splits.push(split),
    );
    expect(both.seen).toEqual(await evaluate(householdEnvironment(), backend, tok, scenes.seen, config));
    expect(both.unseen).toEqual(await evaluate(householdEnvironment(), backend, tok, scenes.unseen, config));
    expect(splits).toEqual([...Array(4).fill('seen'), ...Array(4).fill('unseen')]);
  });
});

describe("the score: a world's grade beyond success", () => {
  it('summarises the mean score beside success where scores are given, and none where not', () => {
    const types = ['a', 'a', 'b'];
    const won = [true, false, false];
    expect(summarise(types, won, [1, 0.5, 0.25])).toEqual({
      success: 1 / 3,
      score: 1.75 / 3,
      per_type: { a: 0.5, b: 0 },
      episodes: 3,
    });
    expect(summarise(types, won)).toEqual({ success: 1 / 3, per_type: { a: 0.5, b: 0 }, episodes: 3 });
    expect(Object.keys(summarise(types, won))).not.toContain('score');
  });

  it("gives the shop's mean score over its episodes, and the household no score at all", async () => {
    const shopTok = tokenizerOf(SHOP);
    const backend = CpuBackend.fromSeed(presetConfig('micro', shopTok.vocabSize), 4);
    const config = { ...defaultConfig('micro'), maxSteps: 4, history: 1, evalTemperature: 1 };
    const scores: number[] = [];
    const shop = await evaluate(SHOP, backend, shopTok, SHOP.evalScenes('seen', 6), config, (t) => {
      expect(t.score).toBe(SHOP.score!(t.records));
      scores.push(t.score!);
    });
    expect(scores).toHaveLength(6);
    expect(shop.score).toBe(scores.reduce((a, b) => a + b, 0) / 6);
    const household = await evaluate(
      householdEnvironment(),
      CpuBackend.fromSeed(model, 5),
      tok,
      evalScenes('seen', TINY).slice(0, 2),
      { ...defaultConfig('micro'), maxSteps: 2 },
      (t) => expect(t.score).toBeNull(),
    );
    expect(Object.keys(household)).toEqual(['success', 'per_type', 'episodes']);
  });
});
