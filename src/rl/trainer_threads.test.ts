// Whole SEED updates on the CPU backend's worker threads: the same metrics and weights on 1 and 2 threads,
// bit for bit (the backend fixes every sum that spans sequences or streams; backend/cpu/threads.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CpuBackend } from '../backend/cpu/cpu_backend.ts';
import { nodeThreadHost } from '../backend/cpu/thread_node.ts';
import { installThreadHost } from '../backend/cpu/threads.ts';
import { TINY } from '../worlds/household/env/scale.ts';
import { presetConfig } from '../model/config.ts';
import { defaultTokenizer } from '../text/tokenizer.ts';
import { defaultConfig } from './config.ts';
import { Trainer, type UpdateMetrics } from './trainer.ts';
import { householdRl } from '../worlds/household/rl/adapter.ts';

const tok = defaultTokenizer();
const model = presetConfig('micro', tok.vocabSize);

beforeAll(() => installThreadHost(nodeThreadHost));
afterAll(() => installThreadHost(null));

async function train(
  threads: number,
): Promise<{ metrics: Omit<UpdateMetrics, 'wallMs' | 'tokensPerSecond'>[]; params: Float32Array; m: Float32Array }> {
  const config = { ...defaultConfig('micro'), groupSize: 4, tasksPerUpdate: 3, maxSteps: 4, history: 4, lr: 1e-2 };
  const t = new Trainer({
    backend: CpuBackend.fromSeed(model, 21, { threads }),
    tokenizer: tok,
    algo: 'seed',
    config,
    seed: 8,
    world: householdRl(TINY),
  });
  const metrics = [];
  for (let u = 0; u < 3; u++) {
    const { wallMs: _w, tokensPerSecond: _t, ...rest } = await t.update();
    metrics.push(rest);
  }
  return { metrics, params: await t.backend.readParameters(), m: (await t.backend.readOptimizerState()).m };
}

describe('Trainer on CPU threads', () => {
  it('gives the same metrics, weights and AdamW state on 1 and 2 threads after three updates, bit for bit', async () => {
    const one = await train(1);
    const two = await train(2);
    expect(two.metrics).toEqual(one.metrics);
    expect(one.metrics.every((m) => m.skipped === null)).toBe(true);
    expect(Buffer.from(two.params.buffer).equals(Buffer.from(one.params.buffer))).toBe(true);
    expect(Buffer.from(two.m.buffer).equals(Buffer.from(one.m.buffer))).toBe(true);
  });
});
