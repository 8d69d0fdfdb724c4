import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../backend/cpu/cpu_backend.ts';
import { evalScenes } from '../env/generate.ts';
import { TINY } from '../env/scale.ts';
import { presetConfig } from '../model/config.ts';
import { defaultTokenizer } from '../text/tokenizer.ts';
import { defaultConfig } from './config.ts';
import { evaluate } from './evaluate.ts';

const tok = defaultTokenizer();
const model = presetConfig('micro', tok.vocabSize);

describe('evaluate: sampling streams', () => {
  it('stream 0 is the standard evaluation; another stream samples the same games differently', async () => {
    const backend = CpuBackend.fromSeed(model, 5);
    const scenes = evalScenes('seen', TINY).slice(0, 6);
    const config = { ...defaultConfig('micro'), maxSteps: 4, evalTemperature: 1 };
    const commands = async (stream?: number) => {
      const out: string[] = [];
      await evaluate(backend, tok, scenes, config, (t) => out.push(`${t.task}:${t.commands.map((c) => tok.decode(Array.from(c.ids))).join('|')}`), stream);
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
