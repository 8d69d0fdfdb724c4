// `seed bench kernels`: the host round trips of whole GRPO and SEED updates on the WebGPU backend in every world
// (or the --env one) at the micro and tiny shapes (dispatches, submits, writes, readbacks, bytes and the share
// of time waiting on them, per stage: update.ts), every WebGPU kernel on the model's real shapes (the tiny
// preset by default) against its CPU twin, one whole update (loss-backward + AdamW) with each matmul variant
// against the CPU, matmul_forward vs tfjs-backend-webgpu's matmul on the same adapter, and each kernel's
// fraction of the adapter's own peak (an FMA-bound microbenchmark in the same run). GPU times are wall-clock per dispatch (`reps` copies of a
// kernel in one stage, from submit to the queue's completion, after a warm-up stage) and, where the adapter
// has timestamp queries, the GPU's own time. CPU times are medians of `reps` runs after a warm-up
// (timing.ts; the cases are in cases.ts, the report in report.ts). Writes kernels.md under --out DIR
// (default bench/) on a software adapter, kernels-<vendor>-<architecture>.md on a GPU.
import { loadavg } from 'node:os';
import { Rng } from '../../../common/rng.ts';
import { formatAdapter, isSoftwareAdapter } from '../../../backend/webgpu/device.ts';
import { createNodeRuntime } from '../../../backend/webgpu/node_gpu.ts';
import type { GpuRuntime } from '../../../backend/webgpu/runtime.ts';
import { preferredMatmul } from '../../../backend/webgpu/webgpu_backend.ts';
import { PRESET_NAMES, presetConfig, shipsWarmStart, type PresetName } from '../../../model/config.ts';
import { environmentOf } from '../../../worlds/environments.ts';
import { DEFAULT_WORLD, ENVIRONMENT_NAMES, type EnvironmentName } from '../../../worlds/names.ts';
import { defaultTokenizer } from '../../../text/tokenizer.ts';
import { choiceList, numberOption, parseOptions, presetOf, presetOption } from '../../../cli/args.ts';
import { defineCommand, usageLine } from '../../../cli/help.ts';
import { LIMITS } from '../../../cli/limits.ts';
import { CliError } from '../../../cli/cli_error.ts';
import { sourceCommit } from '../../../cli/provenance.ts';
import { outOption, reportPath, writeOutput } from '../../output.ts';
import { timeKernels } from './cases.ts';
import { hostData, shapesOf } from './host_data.ts';
import { reportName, reportText, resultLines } from './report.ts';
import { fmaPeak, tfjsMatmuls } from './timing.ts';
import { COUNTED_ALGOS, measureUpdates, type UpdateCost } from './update.ts';
import { timeWholeUpdates } from './whole_update.ts';

const limits = LIMITS.benchKernels;

export const command = defineCommand({
  name: 'bench kernels',
  summary:
    'WebGPU: round trips of GRPO and SEED updates per stage in each world, kernels vs the CPU reference, whole update per matmul variant, matmul vs tfjs-webgpu, fraction of the adapter peak',
  description:
    "The host round trips of whole GRPO and SEED updates on the WebGPU backend per stage in every world (with its own training settings: windowed steps where it trains on them), every WebGPU kernel on the model's real shapes against its CPU twin, one whole update " +
    "with each matmul variant, matmul_forward against tfjs-backend-webgpu's matmul on the same adapter, and each kernel's fraction of the adapter's own FMA peak. " +
    'Writes kernels.md on a software adapter, kernels-<vendor>-<architecture>.md on a GPU.',
  options: {
    preset: presetOption({ default: 'tiny', description: 'the model whose shapes the kernels run on' }),
    seqs: { type: 'string', value: 'N', limit: limits.seqs, default: '4', description: 'sequences per batch' },
    'seq-len': {
      type: 'string',
      value: 'N',
      limit: limits['seq-len'],
      default: '128',
      description: "tokens per sequence (at most the preset's context length)",
    },
    reps: {
      type: 'string',
      value: 'N',
      limit: limits.reps,
      default: '5',
      description: 'timed repetitions of each kernel',
    },
    seed: {
      type: 'string',
      value: 'S',
      limit: limits.seed,
      default: '1',
      description: 'the seed of the weights and the inputs',
    },
    'update-presets': {
      type: 'string',
      choices: PRESET_NAMES,
      list: true,
      empty: 'none',
      default: PRESET_NAMES.filter((p) => shipsWarmStart(p, DEFAULT_WORLD)).join(','),
      description:
        "presets whose whole GRPO and SEED updates are counted per stage (by default those that ship a warm start in the default world; an update starts from the world's warm start where one ships)",
    },
    env: {
      type: 'string',
      choices: ENVIRONMENT_NAMES,
      defaultText: 'every world',
      description: 'the one world whose updates are counted',
    },
    hardware: {
      type: 'boolean',
      default: false,
      description: 'refuses a software adapter: an unattended run on a GPU machine must measure the GPU',
    },
    adapter: {
      type: 'string',
      value: 'NAME',
      defaultText: "Dawn's high-performance choice",
      description: "the adapter by name as Dawn lists them (Dawn's adapter= option)",
    },
    out: outOption('the report'),
  },
});

interface Options {
  preset: PresetName;
  B: number;
  T: number;
  reps: number;
  seed: number;
  /** Presets whose whole GRPO and SEED updates are counted ('none': no update). */
  updatePresets: PresetName[];
  /** The worlds whose updates are counted: the --env one, else every world. */
  worlds: EnvironmentName[];
  /** Refuse a software adapter: an unattended run on a GPU machine must measure the GPU. */
  hardware: boolean;
  /** The adapter by name as Dawn lists them (Dawn's adapter= option); Dawn's high-performance choice otherwise. */
  adapter: string | undefined;
  out: string | undefined;
}

/** Updates per world, preset and algorithm in the round-trip count: the first warms the pipelines and the pool, the last is reported. */
const COUNTED_UPDATES = 2;

function parseKernelOptions(args: string[]): Options {
  const { values } = parseOptions(args, command);
  const preset = presetOf(values.preset, usageLine(command));
  const B = numberOption(values.seqs, 'seqs', limits.seqs);
  const T = numberOption(values['seq-len'], 'seq-len', limits['seq-len']);
  const reps = numberOption(values.reps, 'reps', limits.reps);
  const seed = numberOption(values.seed, 'seed', limits.seed);
  const updatePresets = choiceList(values['update-presets'], 'update-presets', PRESET_NAMES, 'none');
  return {
    preset,
    B,
    T,
    reps,
    seed,
    updatePresets,
    worlds: values.env === undefined ? [...ENVIRONMENT_NAMES] : [values.env as EnvironmentName],
    hardware: values.hardware === true,
    adapter: values.adapter,
    out: values.out,
  };
}

async function openGpu(adapter: string | undefined): Promise<GpuRuntime> {
  try {
    return await createNodeRuntime({ adapter });
  } catch (err) {
    // Dawn lists the adapters it has on lines of their own; a CLI error is one line.
    throw new CliError((err instanceof Error ? err.message : String(err)).replace(/\s*\n\s*/g, ' '));
  }
}

export async function run(args: string[]): Promise<number> {
  const o = parseKernelOptions(args);
  const commit = sourceCommit();
  const config = presetConfig(o.preset, defaultTokenizer().vocabSize);
  if (o.T > config.contextLength)
    throw new CliError(`--seq-len ${o.T} exceeds the context length ${config.contextLength}`, 2);
  const s = shapesOf(config, o.B, o.T);
  const loadAtStart = loadavg()[0];
  const gpu = await openGpu(o.adapter);
  const software = isSoftwareAdapter(gpu.adapter);
  process.stderr.write(
    `bench kernels: adapter ${formatAdapter(gpu.adapter)} (${software ? 'software' : 'hardware'}); ${o.preset} preset, ${s.B} x ${s.T} tokens, ${s.R} scored\n`,
  );
  if (o.hardware && software) {
    gpu.dispose();
    throw new CliError(
      `--hardware: the adapter is ${formatAdapter(gpu.adapter)}, a software one; give Dawn the GPU's Vulkan driver (DEVELOPERS.md, WebGPU in Node)`,
    );
  }
  const updates: UpdateCost[] = [];
  for (const world of o.worlds)
    for (const preset of o.updatePresets)
      for (const algo of COUNTED_ALGOS) {
        process.stderr.write(`  ${world}, ${preset}: ${COUNTED_UPDATES} ${algo} updates, counted per stage\n`);
        const env = environmentOf(world);
        updates.push(await measureUpdates(gpu, { env, preset, algo, seed: o.seed, updates: COUNTED_UPDATES }));
      }
  const rng = new Rng(o.seed).fork('bench-kernels');
  const host = hostData(config, s, o.seed, rng);
  const { rows, variantTotals } = await timeKernels(gpu, s, host, o.reps);
  const wholeUpdates = await timeWholeUpdates(gpu, config, s, host, o.reps);
  process.stderr.write('  peak and tfjs\n');
  const peak = await fmaPeak(gpu);
  const tfjs = await tfjsMatmuls({ qkv: [s.N, s.C, 3 * s.C], fc: [s.N, s.C, s.M], head: [s.R, s.C, s.V] }, o.reps, rng);
  const variant = preferredMatmul(gpu.adapter);
  const adapter = gpu.adapter;
  gpu.dispose();
  const lines = resultLines({ rows, variantTotals, wholeUpdates, updates, adapter, variant, peak, tfjs });
  process.stdout.write(`${lines.join('\n')}\n`);
  const text = reportText({ args, commit, preset: o.preset, reps: o.reps, loadAtStart, config, shapes: s }, lines);
  await writeOutput(reportPath(o.out, reportName(adapter)), text);
  return 0;
}
