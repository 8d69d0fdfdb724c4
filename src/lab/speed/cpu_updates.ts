// `bench cpu`'s whole updates: one trainer per algorithm and thread count, all from the world's warm start and
// the same seed, so update u of a given algorithm does the same work on every thread count (the CPU backend
// gives the same bits on any number of threads). The trainers take turns update by update, each round starting
// with a different one, so that other load on a shared machine falls on all of them. Every update is timed
// stage by stage, and within a stage by backend call (timed_backend.ts): the decoder's passes, each scoring
// pass, each loss pass.
import { existsSync } from 'node:fs';
import { CpuBackend } from '../../backend/cpu/cpu_backend.ts';
import type { Environment } from '../../env/environment.ts';
import { warmStartPath, type ModelConfig, type PresetName } from '../../model/config.ts';
import { initParameters } from '../../model/init.ts';
import { ofAlgo, type Algo } from '../../rl/arms.ts';
import { defaultConfig } from '../../rl/config.ts';
import { Trainer } from '../../rl/trainer.ts';
import { STAGES } from '../../rl/update_state.ts';
import type { Tokenizer } from '../../text/tokenizer.ts';
import { readCheckpointFile } from '../../cli/io.ts';
import type { EnvironmentName } from '../../worlds/names.ts';
import { rlWorldOf } from '../../worlds/rl_worlds.ts';
import { cpuMs, TimedBackend } from './timed_backend.ts';

/** The parts of an update a report row shows, in update order. */
export const UPDATE_PARTS = [
  'rollout: decoder',
  'rollout: world, prompts, masks',
  'rewards, advantages',
  'skill writing: decoder',
  'skill writing: grammar, checks',
  'scoring pass with the skill',
  'scoring pass, reference weights',
  're-scoring: batches, inputs',
  'loss + backward',
  'loss: gradient parts read back',
  'optimizer step',
  'metrics',
] as const;
type UpdatePart = (typeof UPDATE_PARTS)[number];

/** One timed update: milliseconds per part, of wall-clock and of CPU time, and the loss passes it ran. */
interface TimedUpdate {
  parts: Record<UpdatePart, number>;
  cpuParts: Record<UpdatePart, number>;
  totalMs: number;
  totalCpuMs: number;
  lossPasses: number;
  tokens: number;
}

export interface TrainerTimes {
  algo: Algo;
  threads: number;
  updates: TimedUpdate[];
}

export interface UpdateTimes {
  /** Where the weights came from. */
  init: string;
  runs: TrainerTimes[];
  /** Per algorithm: whether its trainers ended with the same weights on every thread count, bit for bit. */
  sameWeights: Record<string, boolean>;
}

/** The parts of an update from its stages' times and the backend's calls within them, of wall-clock or CPU time. */
function partsOf(
  stageMs: Record<string, number>,
  metricsMs: number,
  be: TimedBackend,
  clock: 'ms' | 'cpuMs',
): Record<UpdatePart, number> {
  const call = (stage: string, name: string) => be.timeOf(stage, name)[clock];
  const decodeRollout = call('rollout', 'decode');
  const decodeSkills = call('skills', 'decode');
  const skillPass = call('rescore', 'score current');
  const refPass = call('rescore', 'score reference');
  const loss = call('loss', 'lossBackward');
  return {
    'rollout: decoder': decodeRollout,
    'rollout: world, prompts, masks': stageMs.rollout - decodeRollout,
    'rewards, advantages': stageMs.rewards,
    'skill writing: decoder': decodeSkills,
    'skill writing: grammar, checks': stageMs.skills - decodeSkills,
    'scoring pass with the skill': skillPass,
    'scoring pass, reference weights': refPass,
    're-scoring: batches, inputs': stageMs.rescore - skillPass - refPass,
    'loss + backward': loss,
    'loss: gradient parts read back': stageMs.loss - loss,
    'optimizer step': stageMs.optimizer,
    metrics: metricsMs,
  };
}

/**
 * Times `updates` updates of every algorithm on every thread count (after one warm-up update each) in the
 * world `env`, from its warm start of `preset` (seeded weights where none ships).
 */
export async function measureUpdates(
  env: Environment,
  model: ModelConfig,
  preset: PresetName,
  tok: Tokenizer,
  algos: readonly Algo[],
  counts: readonly number[],
  updates: number,
  seed: number,
  log: (line: string) => void,
): Promise<UpdateTimes> {
  const world = rlWorldOf(env);
  const warm = warmStartPath(preset, env.name as EnvironmentName);
  const init = existsSync(warm) ? warm : `seeded initialisation (seed ${seed})`;
  const params = existsSync(warm) ? (await readCheckpointFile(warm, tok)).params : initParameters(model, seed);
  const config = { ...defaultConfig(preset), ...world.trainDefaults };
  const runs = algos.flatMap((algo) => counts.map((threads) => ({ algo, threads })));
  const trainers = runs.map(({ algo, threads }) => {
    const backend = new TimedBackend(new CpuBackend(model, params, { threads }));
    return { backend, trainer: new Trainer({ backend, tokenizer: tok, algo, config, seed, world }) };
  });
  const times: TimedUpdate[][] = runs.map(() => []);
  for (let u = -1; u < updates; u++) {
    for (let k = 0; k < runs.length; k++) {
      const i = (k + Math.max(0, u)) % runs.length;
      const { backend, trainer } = trainers[i];
      backend.clear();
      const stageMs: Record<string, number> = {};
      const stageCpu: Record<string, number> = {};
      const t0 = performance.now();
      const c0 = cpuMs();
      for (const stage of STAGES) {
        backend.part = stage;
        const s0 = performance.now();
        const sc = cpuMs();
        await trainer.nextStage();
        stageMs[stage] = performance.now() - s0;
        stageCpu[stage] = cpuMs() - sc;
      }
      const m0 = performance.now();
      const mc = cpuMs();
      const metrics = trainer.metrics(trainer.current!);
      const t1 = performance.now();
      const c1 = cpuMs();
      // Its activations go back to the heap, so that one trainer's are held at a time: four trainers' of the
      // shop's windowed steps would outgrow the CPU heap.
      backend.dispose();
      if (u < 0) continue;
      times[i].push({
        parts: partsOf(stageMs, t1 - m0, backend, 'ms'),
        cpuParts: partsOf(stageCpu, c1 - mc, backend, 'cpuMs'),
        totalMs: t1 - t0,
        totalCpuMs: c1 - c0,
        lossPasses: backend.timeOf('loss', 'lossBackward').calls,
        tokens: metrics.tokens,
      });
    }
    log(u < 0 ? 'warm-up update done' : `update ${u + 1}/${updates} done`);
  }
  const weights = await Promise.all(trainers.map((t) => t.backend.readParameters()));
  const sameWeights: Record<string, boolean> = {};
  for (const algo of algos) {
    const mine = weights.filter((_, i) => ofAlgo(algo)(runs[i]));
    sameWeights[algo] = mine.every((w) => Buffer.from(w.buffer).equals(Buffer.from(mine[0].buffer)));
  }
  for (const t of trainers) t.backend.dispose();
  return { init, runs: runs.map((r, i) => ({ ...r, updates: times[i] })), sameWeights };
}
