// `seed bench kernels`: every WebGPU kernel on the model's real shapes (the tiny preset by default) against
// its CPU twin, one whole update (loss-backward + AdamW) on both backends, matmul_forward naive vs tiled and
// vs tfjs-backend-webgpu's matmul on the same adapter, and each kernel's fraction of the adapter's own peak
// (an FMA-bound microbenchmark in the same run). GPU times are wall-clock per dispatch: `reps` copies of a
// kernel in one stage, from submit to the queue's completion, after a warm-up stage (pipeline compiles).
// CPU times are medians of `reps` runs after a warm-up (timing.ts; the cases are in cases.ts). Writes
// kernels.md under --out DIR (default bench/).
import { cpus, loadavg } from 'node:os';
import { Rng } from '../../../common/rng.ts';
import { formatAdapter } from '../../../backend/webgpu/device.ts';
import type { MatmulVariant } from '../../../backend/webgpu/matmul.ts';
import { createNodeRuntime } from '../../../backend/webgpu/node_gpu.ts';
import type { GpuRuntime } from '../../../backend/webgpu/runtime.ts';
import { preferredMatmul } from '../../../backend/webgpu/webgpu_backend.ts';
import { isPresetName, presetConfig, type ModelConfig, type PresetName } from '../../../model/config.ts';
import { defaultTokenizer } from '../../../text/tokenizer.ts';
import { numberOption, parseOptions } from '../../args.ts';
import { LIMITS, withLimits } from '../../limits.ts';
import { quote } from '../../../common/json.ts';
import { CliError } from '../../cli_error.ts';
import { sourceCommit } from '../../provenance.ts';
import { reportHead, reportPath, writeOutput } from '../output.ts';
import { hostData, MATMUL_VARIANTS, shapesOf, timeKernels, timeWholeUpdate, type KernelTimes, type Row, type Shapes } from './cases.ts';
import { fmaPeak, tfjsMatmuls, type TfjsResult } from './timing.ts';

export const summary = 'WebGPU kernels vs the CPU reference on the model shapes, whole update, matmul vs tfjs-webgpu, fraction of the adapter peak';

const usage = withLimits('npm run seed -- bench kernels [--preset tiny] [--seqs 4] [--seq-len 128] [--reps 5] [--seed 1] [--out DIR]', LIMITS.benchKernels);

interface Options {
  preset: PresetName;
  B: number;
  T: number;
  reps: number;
  seed: number;
  out: string | undefined;
}

function parseKernelOptions(args: string[]): Options {
  const { values } = parseOptions(
    args,
    {
      preset: { type: 'string', default: 'tiny' },
      seqs: { type: 'string', default: '4' },
      'seq-len': { type: 'string', default: '128' },
      reps: { type: 'string', default: '5' },
      seed: { type: 'string', default: '1' },
      out: { type: 'string' },
    },
    usage,
  );
  const preset = values.preset ?? 'tiny';
  if (!isPresetName(preset)) throw new CliError(`unknown preset ${quote(preset)}`, 2);
  const limits = LIMITS.benchKernels;
  const B = numberOption(values.seqs, 'seqs', limits.seqs);
  const T = numberOption(values['seq-len'], 'seq-len', limits['seq-len']);
  const reps = numberOption(values.reps, 'reps', limits.reps);
  const seed = numberOption(values.seed, 'seed', limits.seed);
  return { preset, B, T, reps, seed, out: values.out };
}

async function openGpu(): Promise<GpuRuntime> {
  try {
    return await createNodeRuntime();
  } catch (err) {
    throw new CliError(err instanceof Error ? err.message : String(err));
  }
}

interface Results extends KernelTimes {
  adapter: string;
  /** The matmul variant the backend picks on this adapter. */
  variant: MatmulVariant;
  peak: number;
  tfjs: TfjsResult;
}

const gflops = (flop: number, ms: number) => flop / (ms * 1e6);

/** The tables and the lines around them: what stdout shows and the report repeats. */
function resultLines(r: Results): string[] {
  const table = [
    '| kernel | MFLOP | WebGPU ms | CPU ms | CPU / WebGPU time | WebGPU GFLOP/s | CPU GFLOP/s | fraction of WebGPU peak |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...r.rows.map(
      (row: Row) =>
        `| ${row.name} | ${(row.flop / 1e6).toFixed(2)} | ${row.gpuMs.toFixed(2)} | ${row.cpuMs.toFixed(2)} | ${(row.cpuMs / row.gpuMs).toFixed(2)} | ` +
        `${gflops(row.flop, row.gpuMs).toFixed(3)} | ${gflops(row.flop, row.cpuMs).toFixed(3)} | ${(gflops(row.flop, row.gpuMs) / r.peak).toFixed(4)} |`,
    ),
  ];
  const tfjsTable = ['| matmul | ours (naive) ms | ours (vec4) ms | ours (tiled) ms | tfjs-webgpu ms | tfjs / best of ours |', '|---|---:|---:|---:|---:|---:|'];
  for (const name of ['qkv', 'fc', 'head']) {
    const ms = MATMUL_VARIANTS.map((v) => r.rows.find((row) => row.name.startsWith(`matmul_forward ${v}, ${name}`))!.gpuMs);
    const t = r.tfjs.ms[name];
    tfjsTable.push(`| ${name} | ${ms.map((m) => m.toFixed(2)).join(' | ')} | ${t === undefined ? 'n/a' : t.toFixed(2)} | ${t === undefined ? 'n/a' : (t / Math.min(...ms)).toFixed(2)} |`);
  }
  const totals = r.variantTotals;
  const winner = MATMUL_VARIANTS.reduce((a, b) => (totals[b] < totals[a] ? b : a));
  return [
    `Adapter: ${r.adapter}. FMA peak: ${r.peak.toFixed(2)} GFLOP/s.`,
    `Matmul forward on this adapter over the three shapes: naive ${totals.naive.toFixed(2)} ms, vec4 ${totals.vec4.toFixed(2)} ms, tiled ${totals.tiled.toFixed(2)} ms: ${winner} wins; the backend picks ${r.variant} here (preferredMatmul).`,
    '',
    ...table,
    '',
    ...tfjsTable,
    '',
    `tfjs: ${r.tfjs.note}.`,
  ];
}

function report(args: string[], o: Options, config: ModelConfig, s: Shapes, lines: string[], loadAtStart: number, commit: ReturnType<typeof sourceCommit>): string {
  return [
    ...reportHead('Kernel benchmark: WebGPU kernels vs the CPU reference', 'kernels', args, commit),
    `Machine: ${cpus()[0]?.model ?? 'unknown CPU'} (${cpus().length} logical cores, 1-minute load average ${loadAtStart.toFixed(2)} at the start), Node ${process.version}.`,
    `Shapes: the ${o.preset} preset (d ${s.C}, ${config.nLayer} layers, ${s.NH} heads, MLP ${s.M}, vocabulary ${s.V}), a batch of ${s.B} sequences x ${s.T} tokens (${s.N} rows), ${s.R} scored rows, ${s.S} decoding streams.`,
    `WebGPU: ms per dispatch, ${o.reps} copies in one stage timed from submit to completion after a warm-up stage; CPU: median of ${o.reps} runs of the twin in src/backend/cpu.`,
    'MFLOP counts the multiply-adds of matmuls and attention exactly and the elementwise kernels roughly (a tanh or exp as one FLOP);',
    'for memory-bound kernels GFLOP/s and the fraction of the FMA peak are low by nature. The whole update counts 3x the forward (forward + backward).',
    'Reading the ratios: "CPU / WebGPU time" above 1 means the WebGPU kernel is faster. On a software adapter both run on the same CPU cores, so these',
    'ratios measure SwiftShader against V8, not a GPU; on a real GPU the tiled matmul and every kernel are expected to be far faster.',
    '',
    ...lines,
    '',
  ].join('\n');
}

export async function run(args: string[]): Promise<number> {
  const o = parseKernelOptions(args);
  const commit = sourceCommit();
  const config = presetConfig(o.preset, defaultTokenizer().vocabSize);
  if (o.T > config.contextLength) throw new CliError(`--seq-len ${o.T} exceeds the context length ${config.contextLength}`, 2);
  const s = shapesOf(config, o.B, o.T);
  const loadAtStart = loadavg()[0];
  const gpu = await openGpu();
  const adapter = formatAdapter(gpu.adapter);
  process.stderr.write(`bench kernels: ${adapter}; ${o.preset} preset, ${s.B} x ${s.T} tokens, ${s.R} scored\n`);
  const rng = new Rng(o.seed).fork('bench-kernels');
  const host = hostData(config, s, o.seed, rng);
  const { rows, variantTotals } = await timeKernels(gpu, s, host, o.reps);
  rows.push(await timeWholeUpdate(gpu, config, s, host, o.reps));
  process.stderr.write('  peak and tfjs\n');
  const peak = await fmaPeak(gpu);
  const tfjs = await tfjsMatmuls({ qkv: [s.N, s.C, 3 * s.C], fc: [s.N, s.C, s.M], head: [s.R, s.C, s.V] }, o.reps, rng);
  const variant = preferredMatmul(gpu.adapter);
  gpu.dispose();
  const lines = resultLines({ rows, variantTotals, adapter, variant, peak, tfjs });
  process.stdout.write(lines.join('\n') + '\n');
  await writeOutput(reportPath(o.out, 'kernels.md'), report(args, o, config, s, lines, loadAtStart, commit));
  return 0;
}
