// bench cpu's whole updates: every part of a GRPO and a SEED update is charged where it runs, and the refusal of
// a world that no registry knows.
import { afterAll, describe, expect, it } from 'vitest';
import { installThreadHost } from '../../backend/cpu/threads.ts';
import { runCli } from '../../cli/cli.ts';
import { runCaptured } from '../../cli/testing.ts';
import { presetConfig } from '../../model/config.ts';
import { tokenizerOf } from '../../text/tokenizer.ts';
import { environmentOf } from '../../worlds/environments.ts';
import { ENVIRONMENT_NAMES } from '../../worlds/names.ts';
import { SEED_COMMANDS } from '../commands.ts';
import { threadScaling } from './cpu_threads.ts';
import { measureUpdates, UPDATE_PARTS } from './cpu_updates.ts';

afterAll(() => installThreadHost(null));

describe('bench cpu updates', () => {
  it('splits GRPO and SEED updates by stage: only SEED writes and scores skills, and it takes a second loss pass', async () => {
    const env = environmentOf('household');
    const tok = tokenizerOf(env);
    const times = await measureUpdates(
      env,
      presetConfig('micro', tok.vocabSize),
      'micro',
      tok,
      ['grpo', 'seed'],
      [1],
      4,
      3,
      () => {},
    );
    expect(times.init).toBe('public/warmstart-micro.ckpt');
    const [grpo, seed] = times.runs;
    expect([grpo.algo, seed.algo]).toEqual(['grpo', 'seed']);
    for (const run of times.runs) {
      expect(run.updates).toHaveLength(4);
      const u = run.updates[0];
      const sum = UPDATE_PARTS.reduce((s, part) => s + u.parts[part], 0);
      // The parts tile the update: only the loop around the stages is left out.
      expect(sum).toBeLessThanOrEqual(u.totalMs + 1e-6);
      expect(sum).toBeGreaterThan(0.9 * u.totalMs);
      expect(u.totalCpuMs).toBeGreaterThan(0);
      expect(u.cpuParts['loss + backward']).toBeGreaterThan(0);
      for (const part of ['rollout: decoder', 'scoring pass, reference weights', 'loss + backward'] as const)
        expect(u.parts[part], `${run.algo} ${part}`).toBeGreaterThan(0);
    }
    expect(grpo.updates[0].parts['skill writing: decoder']).toBe(0);
    expect(grpo.updates[0].parts['scoring pass with the skill']).toBe(0);
    expect(seed.updates[0].parts['skill writing: decoder']).toBeGreaterThan(0);
    expect(seed.updates[0].parts['scoring pass with the skill']).toBeGreaterThan(0);
    // After the warm-up (update 0), the timed updates are 1-4: SEED measures its gradient's parts with a loss
    // pass of their own at update 4 (gradShareEvery 4), GRPO has no OPD part to measure.
    expect(grpo.updates.map((u) => u.lossPasses)).toEqual([1, 1, 1, 1]);
    expect(seed.updates.map((u) => u.lossPasses)).toEqual([1, 1, 1, 2]);
    const [, b, c] = seed.updates.map((u) => u.totalMs).sort((x, y) => x - y);
    expect(threadScaling([seed])).toEqual([
      {
        threads: 1,
        msPerUpdate: (b + c) / 2,
        updatesPerSecond: 1000 / ((b + c) / 2),
        speedup: 1,
        efficiency: 1,
      },
    ]);
  });

  it('refuses a world that is not registered, naming the worlds there are', async () => {
    const { code, stderr } = await runCaptured((a) => runCli(a, SEED_COMMANDS), ['bench', 'cpu', '--env', 'moon']);
    expect(code).toBe(2);
    expect(stderr.trim()).toBe(`error: --env must be one of ${ENVIRONMENT_NAMES.join(', ')}, got "moon"`);
  });
});
