// What `bench kernels` prints and writes: the adapter, the host round trips of whole updates per world, the
// kernel table, the matmul variant measured fastest against the one the backend picks, and tfjs.
import { cpus } from 'node:os';
import { formatAdapter, isSoftwareAdapter, type AdapterReport } from '../../../backend/webgpu/device.ts';
import type { MatmulVariant } from '../../../backend/webgpu/matmul.ts';
import type { ModelConfig } from '../../../model/config.ts';
import { distils } from '../../../rl/arms.ts';
import type { SourceCommit } from '../../../cli/provenance.ts';
import { reportHead } from '../../output.ts';
import { MATMUL_VARIANTS, type KernelTimes, type Row } from './cases.ts';
import type { Shapes } from './host_data.ts';
import type { TfjsResult } from './timing.ts';
import { updateTable, type UpdateCost } from './update.ts';

interface Results extends KernelTimes {
  adapter: AdapterReport;
  /** The matmul variant the backend picks on this adapter (preferredMatmul). */
  variant: MatmulVariant;
  /** Whole update (loss-backward + AdamW) on WebGPU, one row per matmul variant. */
  wholeUpdates: Row[];
  updates: UpdateCost[];
  peak: number;
  tfjs: TfjsResult;
}

/** The report's file: kernels.md for a software adapter, kernels-<vendor>-<architecture>.md beside it for a GPU. */
export function reportName(adapter: AdapterReport): string {
  if (isSoftwareAdapter(adapter)) return 'kernels.md';
  const name = [adapter.vendor, adapter.architecture === 'unknown' ? adapter.description : adapter.architecture].join(
    ' ',
  );
  return `kernels-${
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'gpu'
  }.md`;
}

/** The adapter line: what ran the kernels, and whether this is a hardware measurement. */
export function adapterLine(adapter: AdapterReport): string {
  return isSoftwareAdapter(adapter)
    ? `Adapter: ${formatAdapter(adapter)}: a software adapter, whose WGSL runs on the CPU's cores; not measured on hardware in this report.`
    : `Adapter: ${formatAdapter(adapter)}: a hardware GPU.`;
}

const gflops = (flop: number, ms: number) => flop / (ms * 1e6);
const fastest = (ms: Record<MatmulVariant, number>) => MATMUL_VARIANTS.reduce((a, b) => (ms[b] < ms[a] ? b : a));

/** Where a world's context places the steps and the skill block, in words. */
function layoutWords({ history, maxSteps, skillAfterPage }: UpdateCost['layout']): string {
  if (history >= maxSteps) return `each episode one sequence (up to ${maxSteps} steps)`;
  return `windowed steps (${history} past steps in each step's context, up to ${maxSteps} steps; the skill block ${skillAfterPage === 1 ? 'after the current observation' : 'after the task line'})`;
}

/** Whether each distilling arm's counted update measured its gradient's parts (a loss stage that read gradients). */
export function gradientPartsWords(costs: UpdateCost[]): string {
  const measured = costs.filter((c) => c.stages.some((s) => s.stage === 'loss' && 'readGradients' in s.calls));
  const distilling = costs.filter((c) => distils(c.algo));
  if (distilling.length === 0) return '';
  const every = distilling[0].gradShareEvery;
  const schedule = every === 0 ? 'at no update' : every === 1 ? 'at every update' : `at one update in ${every}`;
  const counted = distilling.map((c) => `${c.algo}'s counted update ${measured.includes(c) ? 'is one' : 'is not'}`);
  return ` A distilling run measures its gradient's parts ${schedule} (gradShareEvery): ${counted.join(', ')}.`;
}

function updateLines(updates: UpdateCost[]): string[] {
  if (updates.length === 0) return [];
  const groups = new Map<string, UpdateCost[]>();
  for (const u of updates) {
    const key = `${u.world} ${u.preset}`;
    groups.set(key, [...(groups.get(key) ?? []), u]);
  }
  return [
    '## Host round trips per update, by world',
    '',
    `Whole updates of ${[...new Set(updates.map((u) => u.algo))].join(' and ')} in each world on this adapter, stage by stage, with the`,
    "preset's default settings and the world's own training settings (windowed steps where a world trains on them), from the preset's warm start",
    `in that world where one ships, else the seeded init; the last of ${updates[0].update + 1} updates of each, the first ones warming the pipelines and the`,
    'buffer pool. Dispatches and compute passes are encoded into one command buffer per submit; writes are queue.writeBuffer calls (each',
    "stage sends its uniforms and uploads in one); readbacks are mapAsync calls. Waiting is the share of the stage's wall time spent inside",
    'mapAsync, popErrorScope and onSubmittedWorkDone. Backend calls are the calls that make the round trips: each decoding step (decode',
    "sample) reads the sampled token and its log-prob per stream (the environment and the skill grammar choose the next step's mask on",
    'the host); each scoring pass reads its log-probs once (score current: l_skill, with the skill in context, which GRPO has no use for;',
    'score reference: l_ref); loss-backward reads the per-token loss terms and the non-finite count once per pass, at its end; with a',
    'distillation term, at one update in gradShareEvery, the loss stage runs a second pass to measure the two parts of the gradient (it',
    "reads the distillation part's gradient, clears it, then reads the whole: readGradients, zeroGradients; each world's line says",
    'whether the counted update is one); the optimizer clips on the device and reads (norm, clip scale, finite flag). A batch over the',
    'activation budget runs its chunks of',
    "sequences one after the other in the same submit. On a software adapter the GPU's work runs on the same CPU, so the waiting is",
    "mostly the kernels' own compute.",
    '',
    ...[...groups.values()].flatMap((costs) => {
      const [u] = costs;
      const c: ModelConfig = u.model;
      return [
        `### ${u.world}, ${u.preset} (d ${c.dModel}, ${c.nLayer} layers, ${c.nHead} heads), policy ${u.policy}`,
        '',
        `Layout: ${layoutWords(u.layout)}. Response tokens: ${costs.map((x) => `${x.algo} ${x.tokens}`).join(', ')}; skills the teacher read: ${costs.map((x) => `${x.algo} ${x.usableSkills}`).join(', ')}.${gradientPartsWords(costs)}`,
        '',
        ...updateTable(costs),
        '',
      ];
    }),
  ];
}

/** The tables and the lines around them: what stdout shows and the report repeats. */
export function resultLines(r: Results): string[] {
  const timestamps = r.rows.some((row) => row.gpuDeviceMs !== null);
  const table = [
    '| kernel | MFLOP | WebGPU ms | WebGPU GPU-time ms | CPU ms | CPU / WebGPU time | WebGPU GFLOP/s | CPU GFLOP/s | fraction of WebGPU peak |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...[...r.rows, ...r.wholeUpdates].map(
      (row: Row) =>
        `| ${row.name} | ${(row.flop / 1e6).toFixed(2)} | ${row.gpuMs.toFixed(2)} | ${row.gpuDeviceMs === null ? 'n/a' : row.gpuDeviceMs.toFixed(3)} | ${row.cpuMs.toFixed(2)} | ` +
        `${(row.cpuMs / row.gpuMs).toFixed(2)} | ${gflops(row.flop, row.gpuMs).toFixed(3)} | ${gflops(row.flop, row.cpuMs).toFixed(3)} | ${(gflops(row.flop, row.gpuMs) / r.peak).toFixed(4)} |`,
    ),
  ];
  const tfjsTable = [
    '| matmul | ours (naive) ms | ours (vec4) ms | ours (tiled) ms | tfjs-webgpu ms | tfjs / best of ours |',
    '|---|---:|---:|---:|---:|---:|',
  ];
  for (const name of ['qkv', 'fc', 'head']) {
    const ms = MATMUL_VARIANTS.map(
      (v) => r.rows.find((row) => row.name.startsWith(`matmul_forward ${v}, ${name}`))!.gpuMs,
    );
    const t = r.tfjs.ms[name];
    tfjsTable.push(
      `| ${name} | ${ms.map((m) => m.toFixed(2)).join(' | ')} | ${t === undefined ? 'n/a' : t.toFixed(2)} | ${t === undefined ? 'n/a' : (t / Math.min(...ms)).toFixed(2)} |`,
    );
  }
  const forward = r.variantTotals;
  const update = Object.fromEntries(MATMUL_VARIANTS.map((v, i) => [v, r.wholeUpdates[i].gpuMs])) as Record<
    MatmulVariant,
    number
  >;
  const measured = fastest(update);
  const ms = (t: Record<MatmulVariant, number>) => MATMUL_VARIANTS.map((v) => `${v} ${t[v].toFixed(2)} ms`).join(', ');
  return [
    adapterLine(r.adapter),
    `FMA peak: ${r.peak.toFixed(2)} GFLOP/s.`,
    '',
    ...updateLines(r.updates),
    '## Kernels',
    '',
    ...table,
    '',
    timestamps
      ? "GPU-time: from timestamp queries around each dispatch in a pass of its own (implementations may coarsen them); the wall-clock column includes each stage's submit and completion."
      : 'GPU-time: n/a, this adapter has no timestamp queries.',
    '',
    '## Matmul variant',
    '',
    `Matmul forward over the three shapes: ${ms(forward)}: ${fastest(forward)} is fastest.`,
    `Whole update: ${ms(update)}: ${measured} is fastest; the backend picks ${r.variant} on this adapter (preferredMatmul)` +
      (measured === r.variant
        ? ', as measured.'
        : `, which this measurement contradicts: here ${measured} trains faster.`),
    '',
    ...tfjsTable,
    '',
    `tfjs: ${r.tfjs.note}.`,
  ];
}

interface ReportHead {
  args: string[];
  commit: SourceCommit | null;
  preset: string;
  reps: number;
  loadAtStart: number;
  config: ModelConfig;
  shapes: Shapes;
}

export function reportText(h: ReportHead, lines: string[]): string {
  const s = h.shapes;
  return [
    ...reportHead('Kernel benchmark: WebGPU kernels vs the CPU reference', 'kernels', h.args, h.commit),
    `Machine: ${cpus()[0]?.model ?? 'unknown CPU'} (${cpus().length} logical cores, 1-minute load average ${h.loadAtStart.toFixed(2)} at the start), Node ${process.version}.`,
    `Kernel shapes: the ${h.preset} preset (d ${s.C}, ${h.config.nLayer} layers, ${s.NH} heads, MLP ${s.M}, vocabulary ${s.V}), a batch of ${s.B} sequences x ${s.T} tokens (${s.N} rows), ${s.R} scored rows, ${s.S} decoding streams.`,
    `WebGPU: ms per dispatch, ${h.reps} copies in one stage timed from submit to completion after a warm-up stage; CPU: median of ${h.reps} runs of the twin in src/backend/cpu.`,
    'MFLOP counts the multiply-adds of matmuls and attention exactly and the elementwise kernels roughly (a tanh or exp as one FLOP);',
    'for memory-bound kernels GFLOP/s and the fraction of the FMA peak are low by nature. The whole update counts 3x the forward (forward + backward).',
    'Reading the ratios: "CPU / WebGPU time" above 1 means the WebGPU kernel is faster. On a software adapter both run on the same CPU cores, so the',
    'ratios measure the software rasteriser against V8, not a GPU; a GPU is measured by running this bench on it (DEVELOPERS.md).',
    '',
    ...lines,
    '',
  ].join('\n');
}
