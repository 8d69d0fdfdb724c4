// The host's side of whole GRPO and SEED updates on the WebGPU backend in each world, stage by stage (rollout,
// rewards, skills, re-scoring, loss-backward, optimizer): dispatches, compute passes, queue submits, host-to-GPU
// writes, readbacks and the bytes they move, and the share of the stage's wall time the host spent waiting on
// the GPU (inside mapAsync, popErrorScope and onSubmittedWorkDone). The runtime's counters (gpu_counters.ts)
// are on only while a stage runs; the backend's calls in each stage are counted beside them (timed_backend.ts),
// so that each round trip is told to the call that made it. The world trains with its own training defaults
// (windowed steps where it trains on them), from the preset's warm start in that world when one ships (what a
// run trains from, so episodes have their usual length), else the seeded init; the first updates warm the
// pipelines and the buffer pool, and the last one is reported.
import { existsSync } from 'node:fs';
import { addCounters, waitMs, zeroCounters, type GpuCounters } from '../../../backend/webgpu/gpu_counters.ts';
import type { GpuRuntime } from '../../../backend/webgpu/runtime.ts';
import { WebGpuBackend } from '../../../backend/webgpu/webgpu_backend.ts';
import type { Environment } from '../../../env/environment.ts';
import { presetConfig, warmStartPath, type ModelConfig, type PresetName } from '../../../model/config.ts';
import { initParameters } from '../../../model/init.ts';
import type { Algo } from '../../../rl/arms.ts';
import { defaultConfig, type TrainConfig } from '../../../rl/config.ts';
import { Trainer } from '../../../rl/trainer.ts';
import { STAGES, type Stage } from '../../../rl/update_state.ts';
import { tokenizerOf } from '../../../text/tokenizer.ts';
import { readCheckpointFile } from '../../../cli/io.ts';
import type { EnvironmentName } from '../../../worlds/names.ts';
import { rlWorldOf } from '../../../worlds/rl_worlds.ts';
import { TimedBackend } from '../timed_backend.ts';

/** The algorithms whose updates are counted: the baseline and the paper's hindsight arm. */
export const COUNTED_ALGOS: readonly Algo[] = ['grpo', 'seed'];

/** The backend calls a stage made, by name ("score reference", "decode sample", "lossBackward"...). */
export type Calls = Readonly<Record<string, number>>;

interface StageCost {
  stage: Stage | 'update';
  wallMs: number;
  counters: GpuCounters;
  calls: Calls;
}

export interface UpdateCost {
  world: EnvironmentName;
  algo: Algo;
  preset: PresetName;
  model: ModelConfig;
  /** Where the policy came from: the warm-start checkpoint's path or "seeded init". */
  policy: string;
  /** The settings that place the context: past steps in it, the step budget, where the skill block goes. */
  layout: Pick<TrainConfig, 'history' | 'maxSteps' | 'skillAfterPage'>;
  /** A distilling update measures its gradient's parts (one more loss pass) at every N-th update (0: never). */
  gradShareEvery: number;
  /** Index of the reported update (0-based; earlier ones warmed up). */
  update: number;
  /** Response tokens the update trained on. */
  tokens: number;
  /** Trajectories whose skill the teacher read (zero: the update has no scoring pass with a skill). */
  usableSkills: number;
  stages: StageCost[];
  total: StageCost;
}

interface UpdateRun {
  env: Environment;
  preset: PresetName;
  algo: Algo;
  seed: number;
  /** Updates run; the last is reported. */
  updates: number;
  /** Settings over the world's training configuration (a test's smaller batch). */
  settings?: Partial<TrainConfig>;
}

function callsIn(backend: TimedBackend, stage: string): Calls {
  const calls: Record<string, number> = {};
  for (const [key, time] of backend.times)
    if (key.startsWith(`${stage} `)) calls[key.slice(stage.length + 1)] = time.calls;
  return calls;
}

function addCalls(a: Calls, b: Calls): Calls {
  const out: Record<string, number> = { ...a };
  for (const [name, n] of Object.entries(b)) out[name] = (out[name] ?? 0) + n;
  return out;
}

/** Runs `updates` updates of `algo` in the world on gpu and returns the cost of the last one, per stage. */
export async function measureUpdates(gpu: GpuRuntime, run: UpdateRun): Promise<UpdateCost> {
  const { env, preset, algo, seed, updates } = run;
  const world = rlWorldOf(env);
  const name = env.name as EnvironmentName;
  const tok = tokenizerOf(env);
  const model = presetConfig(preset, tok.vocabSize);
  const warmStart = warmStartPath(preset, name);
  const fromCheckpoint = existsSync(warmStart);
  const params = fromCheckpoint ? (await readCheckpointFile(warmStart, tok)).params : initParameters(model, seed);
  const config = { ...defaultConfig(preset), ...world.trainDefaults, ...run.settings };
  const backend = new TimedBackend(new WebGpuBackend(gpu, model, params));
  const trainer = new Trainer({ backend, tokenizer: tok, algo, config, seed, world });
  try {
    let stages: StageCost[] = [];
    let tokens = 0;
    let usableSkills = 0;
    for (let u = 0; u < updates; u++) {
      stages = [];
      backend.clear();
      for (const stage of STAGES) {
        backend.part = stage;
        const counters = gpu.startCounting();
        const t0 = performance.now();
        try {
          const st = await trainer.nextStage();
          tokens = st.tokens;
          usableSkills = st.used.filter((w) => w?.ok).length;
        } finally {
          gpu.stopCounting();
        }
        stages.push({ stage, wallMs: performance.now() - t0, counters, calls: callsIn(backend, stage) });
      }
      process.stderr.write(
        `  ${name} ${algo} ${preset} update ${u + 1}/${updates}: ${stages.reduce((t, s) => t + s.wallMs, 0).toFixed(0)} ms\n`,
      );
    }
    const total: StageCost = {
      stage: 'update',
      wallMs: stages.reduce((t, s) => t + s.wallMs, 0),
      counters: stages.reduce((t, s) => addCounters(t, s.counters), zeroCounters()),
      calls: stages.reduce((t, s) => addCalls(t, s.calls), {}),
    };
    const { history, maxSteps, skillAfterPage, gradShareEvery } = trainer.config;
    return {
      world: name,
      algo,
      preset,
      model,
      policy: fromCheckpoint ? warmStart : 'seeded init',
      layout: { history, maxSteps, skillAfterPage },
      gradShareEvery,
      update: updates - 1,
      tokens,
      usableSkills,
      stages,
      total,
    };
  } finally {
    backend.dispose();
  }
}

/**
 * The backend calls that make round trips, each with the submits and readbacks one call makes: a decoding step
 * (a feed only queues its tokens), a scoring pass, a loss pass, a read or a clearing of the gradient, an
 * optimizer step.
 */
export const ROUND_TRIP_CALLS: Readonly<Record<string, { submits: number; readbacks: number }>> = {
  'decode sample': { submits: 1, readbacks: 1 },
  'score current': { submits: 1, readbacks: 1 },
  'score reference': { submits: 1, readbacks: 1 },
  lossBackward: { submits: 1, readbacks: 1 },
  readGradients: { submits: 1, readbacks: 1 },
  zeroGradients: { submits: 1, readbacks: 0 },
  optimizerStep: { submits: 1, readbacks: 1 },
};

/** The backend calls of a stage in words: "decode sample 68, score reference 1" (the round-trip calls only). */
function callWords(calls: Calls): string {
  const words = Object.keys(ROUND_TRIP_CALLS)
    .filter((name) => (calls[name] ?? 0) > 0)
    .map((name) => `${name} ${calls[name]}`);
  return words.length === 0 ? '-' : words.join(', ');
}

/** The table of one world's updates at one preset: a row per algorithm and stage, and each whole update. */
export function updateTable(costs: readonly UpdateCost[]): string[] {
  const kib = (bytes: number) => (bytes / 1024).toFixed(1);
  const row = (algo: string, { stage, wallMs, counters: c, calls }: StageCost) =>
    `| ${algo} | ${stage === 'update' ? '**whole update**' : stage} | ${wallMs.toFixed(0)} | ${c.dispatches} | ${c.passes} | ${c.submits} | ${c.writes} | ${kib(c.bytesWritten)} | ${c.readbacks} | ${kib(c.bytesRead)} | ` +
    `${c.mapWaitMs.toFixed(0)} | ${c.scopeWaitMs.toFixed(0)} | ${c.finishWaitMs.toFixed(0)} | ${wallMs > 0 ? ((100 * waitMs(c)) / wallMs).toFixed(0) : '0'}% | ${callWords(calls)} |`;
  return [
    '| algorithm | stage | wall ms | dispatches | passes | submits | writes | KiB written | readbacks | KiB read | map wait ms | scope wait ms | finish wait ms | waiting | backend calls |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ...costs.flatMap((cost) => [...cost.stages, cost.total].map((stage) => row(cost.algo, stage))),
  ];
}
