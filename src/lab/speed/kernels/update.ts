// The host's side of whole SEED updates on the WebGPU backend, stage by stage (rollout, rewards, skills,
// re-scoring, loss-backward, optimizer): dispatches, compute passes, queue submits, host-to-GPU writes,
// readbacks and the bytes they move, and the share of the stage's wall time the host spent waiting on the
// GPU (inside mapAsync, popErrorScope and onSubmittedWorkDone). The runtime's counters (gpu_counters.ts)
// are on only while a stage runs. The policy is the preset's shipped warm start when there is one (what a
// run trains from, so episodes have their usual length), else the seeded init; the first updates warm the
// pipelines and the buffer pool, and the last one is reported.
import { existsSync } from 'node:fs';
import { addCounters, waitMs, zeroCounters, type GpuCounters } from '../../../backend/webgpu/gpu_counters.ts';
import type { GpuRuntime } from '../../../backend/webgpu/runtime.ts';
import { WebGpuBackend } from '../../../backend/webgpu/webgpu_backend.ts';
import { presetConfig, warmStartPath, type PresetName } from '../../../model/config.ts';
import { initParameters } from '../../../model/init.ts';
import { defaultConfig } from '../../../rl/config.ts';
import { Trainer } from '../../../rl/trainer.ts';
import { STAGES, type Stage } from '../../../rl/update_state.ts';
import { defaultTokenizer } from '../../../text/tokenizer.ts';
import { readCheckpointFile } from '../../../cli/io.ts';
import { environmentOf } from '../../../worlds/environments.ts';
import { DEFAULT_WORLD } from '../../../worlds/names.ts';
import { rlWorldOf } from '../../../worlds/rl_worlds.ts';

interface StageCost {
  stage: Stage | 'update';
  wallMs: number;
  counters: GpuCounters;
}

export interface UpdateCost {
  preset: PresetName;
  /** Where the policy came from: the warm-start checkpoint's path or "seeded init". */
  policy: string;
  /** Index of the reported update (0-based; earlier ones warmed up). */
  update: number;
  /** Response tokens the update trained on. */
  tokens: number;
  stages: StageCost[];
  total: StageCost;
}

/** Runs `updates` SEED updates of `preset` on gpu and returns the cost of the last one, per stage. */
export async function measureUpdates(
  gpu: GpuRuntime,
  preset: PresetName,
  seed: number,
  updates: number,
): Promise<UpdateCost> {
  const tok = defaultTokenizer();
  const model = presetConfig(preset, tok.vocabSize);
  const warmStart = warmStartPath(preset, DEFAULT_WORLD);
  const fromCheckpoint = existsSync(warmStart);
  const params = fromCheckpoint ? (await readCheckpointFile(warmStart, tok)).params : initParameters(model, seed);
  const backend = new WebGpuBackend(gpu, model, params);
  const trainer = new Trainer({
    backend,
    tokenizer: tok,
    algo: 'seed',
    config: defaultConfig(preset),
    seed,
    // A backend's benchmark plays the default world's games (the household's tiny rooms), as it always has.
    world: rlWorldOf(environmentOf(DEFAULT_WORLD)),
  });
  try {
    let stages: StageCost[] = [];
    let tokens = 0;
    for (let u = 0; u < updates; u++) {
      stages = [];
      for (const stage of STAGES) {
        const counters = gpu.startCounting();
        const t0 = performance.now();
        try {
          const st = await trainer.nextStage();
          tokens = st.tokens;
        } finally {
          gpu.stopCounting();
        }
        stages.push({ stage, wallMs: performance.now() - t0, counters });
      }
      process.stderr.write(
        `  ${preset} update ${u + 1}/${updates}: ${stages.reduce((t, s) => t + s.wallMs, 0).toFixed(0)} ms\n`,
      );
    }
    const total: StageCost = {
      stage: 'update',
      wallMs: stages.reduce((t, s) => t + s.wallMs, 0),
      counters: stages.reduce((t, s) => addCounters(t, s.counters), zeroCounters()),
    };
    return { preset, policy: fromCheckpoint ? warmStart : 'seeded init', update: updates - 1, tokens, stages, total };
  } finally {
    backend.dispose();
  }
}

/** The table of one preset's update: one row per stage and the whole update. */
export function updateTable(cost: UpdateCost): string[] {
  const kib = (bytes: number) => (bytes / 1024).toFixed(1);
  const row = ({ stage, wallMs, counters: c }: StageCost) =>
    `| ${stage} | ${wallMs.toFixed(0)} | ${c.dispatches} | ${c.passes} | ${c.submits} | ${c.writes} | ${kib(c.bytesWritten)} | ${c.readbacks} | ${kib(c.bytesRead)} | ` +
    `${c.mapWaitMs.toFixed(0)} | ${c.scopeWaitMs.toFixed(0)} | ${c.finishWaitMs.toFixed(0)} | ${wallMs > 0 ? ((100 * waitMs(c)) / wallMs).toFixed(0) : '0'}% |`;
  return [
    '| stage | wall ms | dispatches | passes | submits | writes | KiB written | readbacks | KiB read | map wait ms | scope wait ms | finish wait ms | waiting |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...cost.stages.map(row),
    row(cost.total).replace('| update |', '| **whole update** |'),
  ];
}
