// `bench cpu`'s thread scaling: whole SEED updates (rollout, rescoring, loss, AdamW step) of one trainer
// per thread count, all from the same weights and seed, so update u of each does the same work (the CPU
// backend gives the same bits on any number of threads). The trainers take turns update by update, each
// round starting with a different one, so that other load on a shared machine falls on all of them.
import { existsSync } from 'node:fs';
import { CpuBackend } from '../../backend/cpu/cpu_backend.ts';
import { warmStartPath, type ModelConfig, type PresetName } from '../../model/config.ts';
import { initParameters } from '../../model/init.ts';
import { defaultConfig } from '../../rl/config.ts';
import { Trainer } from '../../rl/trainer.ts';
import type { Tokenizer } from '../../text/tokenizer.ts';
import { readCheckpointFile } from '../../cli/io.ts';
import { environmentOf } from '../../worlds/environments.ts';
import { DEFAULT_WORLD } from '../../worlds/names.ts';
import { rlWorldOf } from '../../worlds/rl_worlds.ts';

interface ThreadRow {
  threads: number;
  /** Median wall-clock time of one update. */
  msPerUpdate: number;
  updatesPerSecond: number;
  /** Median over updates of (time on 1 thread) / (time on this many). */
  speedup: number;
  /** speedup / threads. */
  efficiency: number;
}

interface ThreadScaling {
  rows: ThreadRow[];
  /** Where the weights came from. */
  init: string;
  /** Whether every trainer ended with the same weights, bit for bit. */
  sameWeights: boolean;
  tokensPerUpdate: number;
}

const median = (a: number[]) => {
  const s = [...a].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Times `updates` SEED updates per thread count (after one warm-up update each); counts[0] must be 1. */
export async function measureThreadScaling(
  config: ModelConfig,
  preset: PresetName,
  tok: Tokenizer,
  counts: number[],
  updates: number,
  seed: number,
  log: (line: string) => void,
): Promise<ThreadScaling> {
  const warm = warmStartPath(preset, DEFAULT_WORLD);
  const init = existsSync(warm) ? warm : `seeded initialisation (seed ${seed})`;
  const params = existsSync(warm) ? (await readCheckpointFile(warm, tok)).params : initParameters(config, seed);
  const trainers = counts.map(
    (threads) =>
      new Trainer({
        backend: new CpuBackend(config, params, { threads }),
        tokenizer: tok,
        algo: 'seed',
        config: defaultConfig(preset),
        seed,
        // A backend's benchmark plays the default world's games (the household's tiny rooms), as it always has.
        world: rlWorldOf(environmentOf(DEFAULT_WORLD)),
      }),
  );
  const times: number[][] = counts.map(() => []);
  let tokens = 0;
  for (let u = -1; u < updates; u++) {
    for (let k = 0; k < counts.length; k++) {
      const i = (k + Math.max(0, u)) % counts.length;
      const t0 = performance.now();
      const m = await trainers[i].update();
      if (u >= 0) times[i].push(performance.now() - t0);
      tokens = m.tokens;
    }
    log(u < 0 ? 'warm-up update done' : `update ${u + 1}/${updates} done`);
  }
  const weights = await Promise.all(trainers.map((t) => t.backend.readParameters()));
  const sameWeights = weights.every((w) => Buffer.from(w.buffer).equals(Buffer.from(weights[0].buffer)));
  for (const t of trainers) t.backend.dispose();
  const rows = counts.map((threads, i) => {
    const ms = median(times[i]);
    const speedup = median(times[0].map((t1, u) => t1 / times[i][u]));
    return { threads, msPerUpdate: ms, updatesPerSecond: 1000 / ms, speedup, efficiency: speedup / threads };
  });
  return { rows, init, sameWeights, tokensPerUpdate: tokens };
}
