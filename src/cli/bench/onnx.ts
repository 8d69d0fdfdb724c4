// `seed bench onnx`: the playground's CPU forward against onnxruntime-web's WebAssembly backend on the
// same exported model and the same token ids, in one Node process. Both compute the logits of every
// position, on one thread each; times are the best of --reps alternating runs after a warm-up. Writes
// onnx.md under --out DIR (default bench/).
import { cpus, loadavg } from 'node:os';
import { Rng } from '../../common/rng.ts';
import { isPresetName, presetConfig, forwardFlopsPerToken, type PresetName } from '../../model/config.ts';
import { initParameters } from '../../model/init.ts';
import { cpuLogits } from '../../onnx/cpu_logits.ts';
import { exportPolicyOnnx } from '../../onnx/export.ts';
import { OnnxPolicySession } from '../../onnx/runtime.ts';
import { maxAbsDiff } from '../../onnx/verify.ts';
import { defaultTokenizer } from '../../text/tokenizer.ts';
import { numberList, numberOption, parseOptions } from '../args.ts';
import { LIMITS, withLimits } from '../limits.ts';
import { quote } from '../../common/json.ts';
import { CliError } from '../cli_error.ts';
import { sourceCommit } from '../provenance.ts';
import { reportHead, reportPath, writeOutput } from './output.ts';

export const summary = 'CPU forward vs onnxruntime-web (wasm) on the exported policy: time per forward and ratio';

const usage = withLimits(
  'npm run seed -- bench onnx [--presets micro,tiny,small] [--batches 1,4] [--seqs 64,256] [--reps 15] [--seed 1] [--out DIR]',
  LIMITS.benchOnnx,
);

interface Row {
  preset: PresetName;
  batch: number;
  seqLen: number;
  cpuMs: number;
  ortMs: number;
  maxDiff: number;
  gflopCpu: number;
}

/**
 * Best times of two functions over `reps` alternating runs (a, b, a, b, ...), so that other load on the
 * machine falls on both alike, after warm-up runs of each (at least 3, and for at least 0.5 s) for the JIT.
 * The best run is the one the least disturbed by other processes on a shared machine.
 */
async function pairedBest(reps: number, a: () => unknown, b: () => unknown): Promise<[number, number]> {
  for (const fn of [a, b]) {
    const warmStart = performance.now();
    for (let w = 0; w < 3 || (performance.now() - warmStart < 500 && w < 200); w++) await fn();
  }
  const times: [number[], number[]] = [[], []];
  for (let r = 0; r < reps; r++) {
    for (const [k, fn] of [a, b].entries()) {
      const t0 = performance.now();
      await fn();
      times[k].push(performance.now() - t0);
    }
  }
  return [Math.min(...times[0]), Math.min(...times[1])];
}

export async function run(args: string[]): Promise<number> {
  const { values } = parseOptions(
    args,
    {
      presets: { type: 'string', default: 'micro,tiny,small' },
      batches: { type: 'string', default: '1,4' },
      seqs: { type: 'string', default: '64,256' },
      reps: { type: 'string', default: '15' },
      seed: { type: 'string', default: '1' },
      out: { type: 'string' },
    },
    usage,
  );
  const commit = sourceCommit();
  const presets = (values.presets ?? '').split(',').map((p) => p.trim());
  for (const p of presets) if (!isPresetName(p)) throw new CliError(`unknown preset ${quote(p)} in --presets`, 2);
  const limits = LIMITS.benchOnnx;
  const batches = numberList(values.batches ?? '', 'batches', limits.batches);
  const seqs = numberList(values.seqs ?? '', 'seqs', limits.seqs);
  const reps = numberOption(values.reps, 'reps', limits.reps);
  const seed = numberOption(values.seed, 'seed', limits.seed);

  const tokenizer = defaultTokenizer();
  const loadAtStart = loadavg()[0];
  const rows: Row[] = [];
  let ortThreads = 1;
  for (const preset of presets as PresetName[]) {
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
    const session = await OnnxPolicySession.create(bytes, { threads: 1 });
    ortThreads = session.threads;
    const rng = new Rng(seed).fork(`bench-onnx-${preset}`);
    for (const batch of batches) {
      for (const seqLen of seqs) {
        if (seqLen > config.contextLength) continue;
        const ids = Int32Array.from({ length: batch * seqLen }, () => rng.int(config.vocabSize));
        process.stderr.write(`bench onnx: ${preset} batch ${batch} seq ${seqLen}\n`);
        const maxDiff = maxAbsDiff(await session.logits(ids, batch, seqLen), cpu(ids, batch, seqLen) as Float32Array);
        const [cpuMs, ortMs] = await pairedBest(reps, () => cpu(ids, batch, seqLen), () => session.logits(ids, batch, seqLen));
        const flops = batch * seqLen * forwardFlopsPerToken(config, (seqLen + 1) / 2);
        rows.push({ preset, batch, seqLen, cpuMs, ortMs, maxDiff, gflopCpu: flops / (cpuMs * 1e6) });
      }
    }
    await session.release();
  }

  const header = '| preset | batch | seq | CPU forward ms | onnxruntime-web ms | CPU / ORT time | CPU GFLOP/s | max abs logit diff |';
  const table = [header, '|---|---:|---:|---:|---:|---:|---:|---:|'];
  for (const r of rows) {
    table.push(
      `| ${r.preset} | ${r.batch} | ${r.seqLen} | ${r.cpuMs.toFixed(2)} | ${r.ortMs.toFixed(2)} | ${(r.cpuMs / r.ortMs).toFixed(2)} | ${r.gflopCpu.toFixed(2)} | ${r.maxDiff.toExponential(1)} |`,
    );
  }
  process.stdout.write(table.join('\n') + '\n');

  const report = [
    ...reportHead('ONNX benchmark: CPU forward vs onnxruntime-web (wasm) in Node', 'onnx', args, commit),
    `Machine: ${cpus()[0]?.model ?? 'unknown CPU'} (${cpus().length} logical cores, 1-minute load average ${loadAtStart.toFixed(2)} at the start), Node ${process.version}; onnxruntime-web wasm with ${ortThreads} thread(s).`,
    `Vocabulary ${tokenizer.vocabSize} tokens (hash ${tokenizer.hash}); weights: seeded initialisation, seed ${seed}. Each forward computes the logits of every position of every row;`,
    `times are the best of ${reps} runs, the two alternating, after a warm-up of at least 0.5 s each. "CPU / ORT time" above 1 means onnxruntime-web is faster. The last column is the export check on these inputs.`,
    '',
    ...table,
    '',
  ].join('\n');
  await writeOutput(reportPath(values.out, 'onnx.md'), report);
  return 0;
}
