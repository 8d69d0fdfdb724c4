// The numbers of a few whole updates in every world, GRPO and SEED, held as hashes: the weights after each
// update, bit for bit, and every metric but the clock's. A change that claims not to alter numerics (a faster
// kernel, a pass skipped or reused) must leave them as they are; a change that alters them on purpose takes
// the new hashes here and says so in its commit message.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../backend/cpu/cpu_backend.ts';
import { presetConfig, warmStartPath } from '../model/config.ts';
import { readCheckpoint } from '../model/checkpoint.ts';
import type { EnvironmentName } from '../worlds/names.ts';
import { tokenizerOf } from '../text/tokenizer.ts';
import { environmentOf } from '../worlds/environments.ts';
import { rlWorldOf } from '../worlds/rl_worlds.ts';
import type { Algo } from './arms.ts';
import { defaultConfig } from './config.ts';
import { Trainer } from './trainer.ts';

/**
 * Two updates of `algo` in `world` from its tiny warm start, a small batch sampled hot enough that groups differ
 * in reward (a GRPO gradient); the hash of their weights and metrics.
 */
async function updateHash(world: EnvironmentName, algo: Algo): Promise<string> {
  const env = environmentOf(world);
  const tok = tokenizerOf(env);
  const rl = rlWorldOf(env);
  const trainer = new Trainer({
    backend: new CpuBackend(
      presetConfig('tiny', tok.vocabSize),
      readCheckpoint(readFileSync(warmStartPath('tiny', world)), { vocabHash: tok.hash }).params,
    ),
    tokenizer: tok,
    algo,
    // The world's own layout (the shop's windowed steps) and reward, fewer and shorter episodes.
    config: {
      ...defaultConfig('tiny'),
      ...rl.trainDefaults,
      tasksPerUpdate: 2,
      groupSize: 4,
      maxSteps: 6,
      temperature: 2,
      scoreReward: env.score ? 1 : 0,
      // Every update measures its gradient's parts, so that both updates' metrics hold them.
      gradShareEvery: 1,
    },
    seed: 3,
    world: rl,
  });
  const hash = createHash('sha256');
  for (let u = 0; u < 2; u++) {
    const { wallMs, tokensPerSecond, ...numbers } = await trainer.update();
    hash.update(JSON.stringify(numbers));
    hash.update(new Uint8Array((await trainer.backend.readParameters()).buffer));
  }
  return hash.digest('hex').slice(0, 16);
}

const EXPECTED: Record<EnvironmentName, Record<'grpo' | 'seed', string>> = {
  household: { grpo: 'd1a095722f2ad2ed', seed: '6e063e4bd71d87cd' },
  shop: { grpo: '5e4add3a3f444c16', seed: '6d29c99f77d6cdc4' },
  searchqa: { grpo: 'c2cca3d51603b2c4', seed: '86b9ab81ea507b8c' },
};

describe('the numbers of whole updates', () => {
  it.each(
    (Object.keys(EXPECTED) as EnvironmentName[]).flatMap((world) =>
      (['grpo', 'seed'] as const).map((algo) => [world, algo] as const),
    ),
  )('%s %s: the weights and metrics of two updates are those recorded', async (world, algo) => {
    expect(await updateHash(world, algo)).toBe(EXPECTED[world][algo]);
  });
});
