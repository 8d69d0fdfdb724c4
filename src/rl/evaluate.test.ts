import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../backend/cpu/cpu_backend.ts';
import { EVAL_COUNTS, evalScenes } from '../env/generate.ts';
import { TINY } from '../env/scale.ts';
import { presetConfig } from '../model/config.ts';
import { defaultTokenizer } from '../text/tokenizer.ts';
import { defaultConfig } from './config.ts';
import { evalSplitScenes, evaluate, evaluateSplits } from './evaluate.ts';
import { householdEnvironment } from '../env/household_environment.ts';

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
