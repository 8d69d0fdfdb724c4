// `seed bench onnx`: the playground's CPU forward against onnxruntime-web's WebAssembly backend on the
// same exported model and the same token ids, in one Node process (where onnxruntime-web's wasm runs on one
// thread). Both compute the logits of every position, on one thread each; the CPU backend's training pass
// (forward, a loss on every position, backward) is timed beside them. Times are the best of --reps
// alternating runs after a warm-up. Writes onnx.md under --out DIR (default bench/). --quick times fewer
// runs, writes no report, and prints one JSON object on stdout instead of the table (quickJson).
import { cpus, loadavg } from 'node:os';
import { maskWords, type TokenBatch } from '../../backend/backend.ts';
import { CpuBackend } from '../../backend/cpu/cpu_backend.ts';
import { Rng } from '../../common/rng.ts';
import {
  PRESET_NAMES,
  presetConfig,
  forwardFlopsPerToken,
  type ModelConfig,
  type PresetName,
} from '../../model/config.ts';
import { initParameters } from '../../model/init.ts';
import { cpuLogits } from '../../onnx/cpu_logits.ts';
import { exportPolicyOnnx } from '../../onnx/export.ts';
import { OnnxPolicySession } from '../../onnx/runtime.ts';
import { maxAbsDiff } from '../../onnx/verify.ts';
import { defaultTokenizer } from '../../text/tokenizer.ts';
import { choiceList, numberList, numberOption, parseOptions } from '../../cli/args.ts';
import { defineCommand } from '../../cli/help.ts';
import { LIMITS } from '../../cli/limits.ts';
import { sourceCommit } from '../../cli/provenance.ts';
import { outOption, reportHead, reportPath, writeOutput } from '../output.ts';
import { BENCH_LOSS } from './bench_loss.ts';

export const command = defineCommand({
  name: 'bench onnx',
  summary: 'CPU forward vs onnxruntime-web (wasm) on the exported policy: time per forward and ratio',
  description:
    "The playground's CPU forward against onnxruntime-web's WebAssembly backend on the same exported model and token ids, both computing the logits of every position " +
    "on one thread; the CPU backend's training pass (forward, a loss on every position, backward) is timed beside them. Times are the best of --reps alternating runs " +
    'after a warm-up. Writes onnx.md and prints its table, or with --quick prints one JSON object instead.',
  options: {
    presets: {
      type: 'string',
      choices: PRESET_NAMES,
      list: true,
      defaultText: 'micro,tiny,small; tiny,small with --quick',
      description: 'the models measured',
    },
    batches: {
      type: 'string',
      value: 'N,...',
      limit: LIMITS.benchOnnx.batches,
      list: true,
      default: '1,4',
      description: 'sequences per forward',
    },
    seqs: {
      type: 'string',
      value: 'N,...',
      limit: LIMITS.benchOnnx.seqs,
      list: true,
      default: '64,256',
      description: 'tokens per sequence',
    },
    reps: {
      type: 'string',
      value: 'N',
      limit: LIMITS.benchOnnx.reps,
      defaultText: '15; 3 with --quick',
      description: 'timed rounds (the best is reported)',
    },
    seed: {
      type: 'string',
      value: 'S',
      limit: LIMITS.benchOnnx.seed,
      default: '1',
      description: 'the seed of the weights and the token ids',
    },
    out: outOption('onnx.md'),
    quick: {
      type: 'boolean',
      default: false,
      description:
        'fewer presets and runs, no report: one JSON object on stdout (rows of preset, batch, seq, cpu_ms, ort_wasm_ms, and threads)',
    },
  },
});

interface Row {
  preset: PresetName;
  batch: number;
  seqLen: number;
  cpuMs: number;
  ortMs: number;
  /** The CPU backend's forward and backward with a loss on every position (not timed with --quick). */
  trainMs: number | null;
  maxDiff: number;
  gflopCpu: number;
}

/** --quick's output: one JSON object, a row per preset and shape run, and the threads each side ran on. */
export function quickJson(
  rows: readonly Pick<Row, 'preset' | 'batch' | 'seqLen' | 'cpuMs' | 'ortMs'>[],
  threads: number,
): string {
  const ms = (x: number) => Math.round(x * 1000) / 1000;
  return JSON.stringify({
    rows: rows.map((r) => ({
      preset: r.preset,
      batch: r.batch,
      seq: r.seqLen,
      cpu_ms: ms(r.cpuMs),
      ort_wasm_ms: ms(r.ortMs),
    })),
    threads,
  });
}

/**
 * Best times of several functions over `reps` rounds in which each runs once, in turn, so that other load
 * on the machine falls on all alike, after warm-up runs of each (at least 3, and for at least `warmMs`) for
 * the JIT. The best run is the one the least disturbed by other processes on a shared machine.
 */
async function alternatingBest(reps: number, warmMs: number, fns: (() => unknown)[]): Promise<number[]> {
  for (const fn of fns) {
    const warmStart = performance.now();
    for (let w = 0; w < 3 || (performance.now() - warmStart < warmMs && w < 200); w++) await fn();
  }
  const times: number[][] = fns.map(() => []);
  for (let r = 0; r < reps; r++) {
    for (const [k, fn] of fns.entries()) {
      const t0 = performance.now();
      await fn();
      times[k].push(performance.now() - t0);
    }
  }
  return times.map((t) => Math.min(...t));
}

/** The training pass on the token ids: every position scored (its target the next id), every token allowed. */
function trainingPass(
  backend: CpuBackend,
  config: ModelConfig,
  ids: Int32Array,
  batch: number,
  seqLen: number,
): () => Promise<unknown> {
  const words = maskWords(config.vocabSize);
  const targets = Int32Array.from(ids, (_, i) => ids[(i + 1) % ids.length]);
  const tokens: TokenBatch = {
    nSeq: batch,
    seqLen,
    tokens: ids,
    targets,
    masks: new Uint32Array(ids.length * words).fill(0xffffffff),
  };
  const n = ids.length;
  const inputs = {
    advantage: new Float32Array(n).fill(1),
    mask: new Float32Array(n).fill(1),
    opdMask: new Float32Array(n).fill(1),
  };
  const near = new Float32Array(n).fill(-5.5);
  // the gradient accumulates across runs, as across the batches of an update
  return () => backend.lossBackward(tokens, { ...inputs, lSkill: near, lOld: near, lRef: near }, BENCH_LOSS);
}

export async function run(args: string[]): Promise<number> {
  const { values } = parseOptions(args, command);
  const commit = sourceCommit();
  const quick = values.quick === true;
  const presets = choiceList(
    values.presets ?? (quick ? 'tiny,small' : PRESET_NAMES.join(',')),
    'presets',
    PRESET_NAMES,
  );
  const limits = LIMITS.benchOnnx;
  const batches = numberList(values.batches ?? '', 'batches', limits.batches);
  const seqs = numberList(values.seqs ?? '', 'seqs', limits.seqs);
  const reps = numberOption(values.reps, 'reps', limits.reps, quick ? 3 : 15);
  const seed = numberOption(values.seed, 'seed', limits.seed);

  const tokenizer = defaultTokenizer();
  const loadAtStart = loadavg()[0];
  const rows: Row[] = [];
  let ortThreads = 1;
  for (const preset of presets) {
    const config = presetConfig(preset, tokenizer.vocabSize);
    const params = initParameters(config, seed);
    const bytes = exportPolicyOnnx({
      config,
      params,
      vocabulary: [...tokenizer.tokens],
      vocabularyHash: tokenizer.hash,
      card: { algorithm: 'init', updates: 0, seed, success: {} },
    });
    const cpu = cpuLogits(config, params);
    const backend = quick ? null : new CpuBackend(config, params, { threads: 1 });
    const session = await OnnxPolicySession.create(bytes, { threads: 1 });
    ortThreads = session.threads;
    const rng = new Rng(seed).fork(`bench-onnx-${preset}`);
    for (const batch of batches) {
      for (const seqLen of seqs) {
        if (seqLen > config.contextLength) continue;
        const ids = Int32Array.from({ length: batch * seqLen }, () => rng.int(config.vocabSize));
        process.stderr.write(`bench onnx: ${preset} batch ${batch} seq ${seqLen}\n`);
        const maxDiff = maxAbsDiff(await session.logits(ids, batch, seqLen), cpu(ids, batch, seqLen) as Float32Array);
        const fns: (() => unknown)[] = [() => cpu(ids, batch, seqLen), () => session.logits(ids, batch, seqLen)];
        if (backend) fns.push(trainingPass(backend, config, ids, batch, seqLen));
        const [cpuMs, ortMs, trainMs] = await alternatingBest(reps, quick ? 200 : 500, fns);
        const flops = batch * seqLen * forwardFlopsPerToken(config, (seqLen + 1) / 2);
        rows.push({
          preset,
          batch,
          seqLen,
          cpuMs,
          ortMs,
          trainMs: trainMs ?? null,
          maxDiff,
          gflopCpu: flops / (cpuMs * 1e6),
        });
      }
    }
    await session.release();
    backend?.dispose();
  }
  if (quick) {
    process.stdout.write(`${quickJson(rows, ortThreads)}\n`);
    return 0;
  }

  const header =
    '| preset | batch | seq | CPU forward ms | onnxruntime-web ms | CPU / ORT time | CPU GFLOP/s | CPU forward+backward ms | forward+backward / forward | max abs logit diff |';
  const table = [header, '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|'];
  for (const r of rows) {
    table.push(
      `| ${r.preset} | ${r.batch} | ${r.seqLen} | ${r.cpuMs.toFixed(2)} | ${r.ortMs.toFixed(2)} | ${(r.cpuMs / r.ortMs).toFixed(2)} | ${r.gflopCpu.toFixed(2)} | ${r.trainMs!.toFixed(2)} | ${(r.trainMs! / r.cpuMs).toFixed(2)} | ${r.maxDiff.toExponential(1)} |`,
    );
  }
  process.stdout.write(`${table.join('\n')}\n`);

  const report = [
    ...reportHead('ONNX benchmark: CPU forward vs onnxruntime-web (wasm) in Node', 'onnx', args, commit),
    `Machine: ${cpus()[0]?.model ?? 'unknown CPU'} (${cpus().length} logical cores, 1-minute load average ${loadAtStart.toFixed(2)} at the start), Node ${process.version}; onnxruntime-web wasm with ${ortThreads} thread(s).`,
    `Vocabulary ${tokenizer.vocabSize} tokens (hash ${tokenizer.hash}); weights: seeded initialisation, seed ${seed}. Each forward computes the logits of every position of every row;`,
    `times are the best of ${reps} runs, the three taking turns, after a warm-up of at least 0.5 s each. "CPU / ORT time" above 1 means onnxruntime-web is faster.`,
    `"CPU forward+backward" is the CPU backend's training pass on the same ids (lossBackward: the forward, a SEED loss on every position with every token allowed, the backward into the gradient), on one thread too.`,
    `The last column is the export check on these inputs.`,
    '',
    ...table,
    '',
  ].join('\n');
  await writeOutput(reportPath(values.out, 'onnx.md'), report);
  return 0;
}
