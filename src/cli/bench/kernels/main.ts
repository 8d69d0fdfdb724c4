// `seed bench kernels`: every WebGPU kernel on the model's real shapes (the tiny preset by default) against
// its CPU twin, one whole update (loss-backward + AdamW) on both backends, matmul_forward naive vs tiled and
// vs tfjs-backend-webgpu's matmul on the same adapter, and each kernel's fraction of the adapter's own peak
// (an FMA-bound microbenchmark in the same run). GPU times are wall-clock per dispatch: `reps` copies of a
// kernel in one stage, from submit to the queue's completion, after a warm-up stage (pipeline compiles).
// CPU times are medians of `reps` runs after a warm-up. Writes bench/kernels.md.
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { dirname } from 'node:path';
import fmaCode from '../../../shaders/fma_peak.wgsl?raw';
import { Rng } from '../../common/rng.ts';
import { maskWords, type LossHyper, type LossInputs, type OptimizerHyper, type TokenBatch } from '../../backend/backend.ts';
import { adamwUpdate as adamwCpu, clipScale, gradientNorm } from '../../backend/cpu/adamw.ts';
import { attentionBackward as attentionBackwardCpu, attentionForward as attentionForwardCpu } from '../../backend/cpu/attention.ts';
import { CpuBackend } from '../../backend/cpu/cpu_backend.ts';
import { encoderBackward as encoderBackwardCpu, encoderForward as encoderForwardCpu } from '../../backend/cpu/encoder.ts';
import { geluBackward as geluBackwardCpu, geluForward as geluForwardCpu } from '../../backend/cpu/gelu.ts';
import { layernormBackward as layernormBackwardCpu, layernormForward as layernormForwardCpu } from '../../backend/cpu/layernorm.ts';
import { allowToken, isAllowed, maskedLogSoftmax as maskedLogSoftmaxCpu } from '../../backend/cpu/log_softmax.ts';
import { matmulBackward as matmulBackwardCpu, matmulForward as matmulForwardCpu } from '../../backend/cpu/matmul.ts';
import { residualForward as residualForwardCpu } from '../../backend/cpu/residual.ts';
import { allocSampleScratch, sampleToken as sampleTokenCpu } from '../../backend/cpu/sampling.ts';
import { seedLoss as seedLossCpu } from '../../backend/cpu/seed_loss.ts';
import { formatAdapter } from '../../backend/webgpu/device.ts';
import { uniformWords } from '../../backend/webgpu/dispatch.ts';
import {
  attentionBackward,
  attentionForward,
  encoderBackward,
  encoderForward,
  geluBackward,
  geluForward,
  layernormBackward,
  layernormForward,
  matmulBackward,
  matmulForward,
  packSeqRows,
  residualForward,
  tokenRowIndex,
  type MatmulVariant,
} from '../../backend/webgpu/layers.ts';
import { maskedLogSoftmax } from '../../backend/webgpu/log_softmax.ts';
import { createNodeRuntime } from '../../backend/webgpu/node_gpu.ts';
import { adamwUpdate, decayBits, gradNorm, normPartials } from '../../backend/webgpu/optimizer.ts';
import type { GpuRuntime } from '../../backend/webgpu/runtime.ts';
import { sampleToken } from '../../backend/webgpu/sampling.ts';
import { lossCounts, packLossInputs, seedLogitGradient, seedLoss, TOKEN_OUT_FLOATS } from '../../backend/webgpu/seed_loss.ts';
import type { Stage } from '../../backend/webgpu/stage.ts';
import { preferredMatmul, WebGpuBackend } from '../../backend/webgpu/webgpu_backend.ts';
import { forwardFlopsPerToken, isPresetName, presetConfig, type PresetName } from '../../model/config.ts';
import { initParameters } from '../../model/init.ts';
import { modelOffsets, parameterLayout } from '../../model/layout.ts';
import { defaultTokenizer } from '../../text/tokenizer.ts';
import { parseIntOption, parseOptions } from '../args.ts';
import { CliError } from '../cli_error.ts';

export const summary = 'WebGPU kernels vs the CPU reference on the model shapes, whole update, matmul vs tfjs-webgpu, fraction of the adapter peak';

const usage = 'npm run seed -- bench kernels [--preset tiny] [--seqs 4] [--seq-len 128] [--reps 5] [--seed 1] [--out bench/kernels.md]';

interface Row {
  name: string;
  flop: number;
  gpuMs: number;
  cpuMs: number;
}

async function cpuMedian(reps: number, fn: () => unknown): Promise<number> {
  await fn();
  const times: number[] = [];
  for (let r = 0; r < reps; r++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

/** Milliseconds per dispatch group: `reps` copies recorded in one stage, submit to completion. */
async function gpuTime(gpu: GpuRuntime, reps: number, record: (stage: Stage) => void): Promise<number> {
  const warm = gpu.stage('bench warm-up');
  record(warm);
  await warm.submit();
  await gpu.finish();
  const stage = gpu.stage('bench');
  for (let r = 0; r < reps; r++) record(stage);
  const t0 = performance.now();
  await stage.submit();
  await gpu.finish();
  return (performance.now() - t0) / reps;
}

function randn(rng: Rng, n: number, scale = 1): Float32Array<ArrayBuffer> {
  return Float32Array.from({ length: n }, () => rng.normal() * scale);
}

/** GFLOP/s of the FMA microbenchmark: best of three dispatches. */
async function fmaPeak(gpu: GpuRuntime): Promise<number> {
  const threads = 16384;
  const iters = 2048;
  const out = gpu.buffer(threads * 4);
  const kernel = { entryPoint: 'fma_peak', code: fmaCode, bindings: ['uniform', 'write'] as const };
  let best = 0;
  try {
    for (let i = 0; i < 4; i++) {
      const stage = gpu.stage('fma peak');
      stage.dispatch({ ...kernel, bindings: [...kernel.bindings] }, [uniformWords('uu', [iters, threads]), out], [threads / 64, 1, 1]);
      const t0 = performance.now();
      await stage.submit();
      await gpu.finish();
      const ms = performance.now() - t0;
      if (i > 0) best = Math.max(best, (32 * iters * threads) / (ms * 1e6));
    }
  } finally {
    gpu.release(out);
  }
  return best;
}

interface TfjsResult {
  ms: Record<string, number>;
  note: string;
}

/** tfjs-backend-webgpu's matMul (transposeB, as our [OC, C] weights) on the same shapes, or why it could not run. */
async function tfjsMatmuls(shapes: Record<string, [number, number, number]>, reps: number, rng: Rng): Promise<TfjsResult> {
  const ms: Record<string, number> = {};
  try {
    const { loadNodeGpu } = await import('../../backend/webgpu/node_gpu.ts');
    const gpu = await loadNodeGpu();
    if (!(globalThis.navigator as { gpu?: GPU } | undefined)?.gpu) {
      Object.defineProperty(globalThis, 'navigator', { value: { gpu, userAgent: 'node' }, configurable: true });
    }
    const tf = await import('@tensorflow/tfjs-core');
    await import('@tensorflow/tfjs-backend-webgpu');
    if (!(await tf.setBackend('webgpu'))) return { ms, note: 'tf.setBackend("webgpu") returned false' };
    await tf.ready();
    for (const [name, [N, C, OC]] of Object.entries(shapes)) {
      const a = tf.tensor2d(randn(rng, N * C), [N, C]);
      const w = tf.tensor2d(randn(rng, OC * C), [OC, C]);
      const run = async (n: number) => {
        let last: ReturnType<typeof tf.matMul> | null = null;
        for (let i = 0; i < n; i++) {
          last?.dispose();
          last = tf.matMul(a, w, false, true);
        }
        await last!.data();
        last!.dispose();
      };
      await run(1);
      const t0 = performance.now();
      await run(reps);
      ms[name] = (performance.now() - t0) / reps;
      a.dispose();
      w.dispose();
    }
    return { ms, note: 'tfjs-core + tfjs-backend-webgpu 4.22.0 on the `webgpu` package\'s navigator.gpu (its own device on the same adapter); time per matMul includes one 4-byte-per-output readback amortised over the reps' };
  } catch (err) {
    return { ms, note: `tfjs-backend-webgpu did not run: ${err instanceof Error ? err.message : String(err)}` };
  }
}

export async function run(args: string[]): Promise<number> {
  const { values } = parseOptions(
    args,
    {
      preset: { type: 'string', default: 'tiny' },
      seqs: { type: 'string', default: '4' },
      'seq-len': { type: 'string', default: '128' },
      reps: { type: 'string', default: '5' },
      seed: { type: 'string', default: '1' },
      out: { type: 'string', default: 'bench/kernels.md' },
    },
    usage,
  );
  const preset = values.preset ?? 'tiny';
  if (!isPresetName(preset)) throw new CliError(`unknown preset "${preset}"`, 2);
  const B = parseIntOption(values.seqs, 'seqs');
  const T = parseIntOption(values['seq-len'], 'seq-len');
  const reps = parseIntOption(values.reps, 'reps');
  const seed = parseIntOption(values.seed, 'seed');
  if (B < 1 || T < 4 || reps < 1) throw new CliError('--seqs and --reps must be >= 1, --seq-len >= 4', 2);
  const tokenizer = defaultTokenizer();
  const config = presetConfig(preset as PresetName, tokenizer.vocabSize);
  if (T > config.contextLength) throw new CliError(`--seq-len ${T} exceeds the context length ${config.contextLength}`, 2);
  const { vocabSize: V, dModel: C, dMlp: M, nHead: NH } = config;
  const hs = C / NH;
  const N = B * T;
  const R = Math.max(1, Math.floor(N / 4));
  const S = Math.min(32, R);
  const words = maskWords(V);
  const layout = parameterLayout(config);
  const o = modelOffsets(layout, config.nLayer);
  const P = layout.totalFloats;
  const loadAtStart = loadavg()[0];

  let gpu: GpuRuntime;
  try {
    gpu = await createNodeRuntime();
  } catch (err) {
    throw new CliError(err instanceof Error ? err.message : String(err));
  }
  const adapter = formatAdapter(gpu.adapter);
  process.stderr.write(`bench kernels: ${adapter}; ${preset} preset, ${B} x ${T} tokens, ${R} scored\n`);
  const rng = new Rng(seed).fork('bench-kernels');

  // Host data on the model's shapes.
  const params = initParameters(config, seed);
  const tokens = Int32Array.from({ length: N }, () => rng.int(V));
  const positions = Int32Array.from({ length: N }, (_, i) => i % T);
  const x = randn(rng, N * C);
  const xm = randn(rng, N * M);
  const qkvHost = randn(rng, 3 * N * C);
  const doutC = randn(rng, N * C);
  const doutM = randn(rng, N * M);
  const gathered = randn(rng, R * C);
  const logits = randn(rng, R * V, 3);
  const masks = new Uint32Array(R * words);
  const targets = new Int32Array(R);
  for (let r = 0; r < R; r++) {
    for (let v = 0; v < V; v++) if (rng.float() < 0.3) allowToken(masks, r, words, v);
    targets[r] = rng.int(V);
    allowToken(masks, r, words, targets[r]);
  }
  const lStudent = Float32Array.from({ length: R }, () => -rng.float() * 4);
  const lossInputs: LossInputs = {
    advantage: randn(rng, R),
    mask: new Float32Array(R).fill(1),
    opdMask: new Float32Array(R).fill(1),
    lSkill: lStudent.map((l) => l + 0.3 * rng.normal()),
    lOld: lStudent.map((l) => l + 0.1 * rng.normal()),
    lRef: lStudent.map((l) => l + 0.1 * rng.normal()),
  };
  const hyper: LossHyper = { lambda: 0.5, beta: 5, clip: 0.2, klCoef: 0.01, gate: true };
  const adam: OptimizerHyper = { lr: 1e-3, beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0.1, gradClip: 1 };
  const { starts, order } = tokenRowIndex(tokens, V);
  const seqs = packSeqRows(Array.from({ length: B }, (_, b) => ({ slot: b, pos0: 0, count: T })));

  const up = (a: Float32Array<ArrayBuffer> | Int32Array<ArrayBuffer> | Uint32Array<ArrayBuffer>) => gpu.upload(a);
  const buf = (n: number) => gpu.buffer(Math.max(n, 1) * 4);
  const g = {
    params: up(Float32Array.from(params)),
    grads: up(new Float32Array(P)),
    m: up(new Float32Array(P)),
    v: up(new Float32Array(P)),
    decay: up(decayBits(layout)),
    state: buf(4),
    partials: buf(normPartials(P)),
    tokens: up(tokens),
    positions: up(positions),
    starts: up(starts),
    order: up(order),
    seqs: up(seqs),
    x: up(x),
    xm: up(xm),
    qkv: up(qkvHost),
    doutC: up(doutC),
    doutM: up(doutM),
    gathered: up(gathered),
    logits: up(logits),
    masks: up(masks),
    targets: up(targets),
    lStudent: up(lStudent),
    lossIn: up(packLossInputs(lossInputs, R)),
    tokOut: buf(R * TOKEN_OUT_FLOATS),
    outC: buf(N * C),
    outC2: buf(N * C),
    out3C: buf(3 * N * C),
    outM: buf(N * M),
    stats: buf(2 * N),
    att: buf(B * NH * T * T),
    dpre: buf(B * NH * T * T),
    outV: buf(R * V),
    draws: up(Float32Array.from({ length: S }, () => rng.float())),
    sampled: buf(S),
    sampledLogp: buf(S),
  };

  // CPU twins' buffers.
  const cOut = new Float32Array(3 * N * C);
  const cOutM = new Float32Array(N * M);
  const cMean = new Float32Array(N);
  const cRstd = new Float32Array(N);
  const cAtt = new Float32Array(NH * T * T);
  const cGrads = new Float32Array(P);
  const cLogits = new Float32Array(R * V);
  const b0 = o.blocks[0];
  const view = (off: number, n: number) => params.subarray(off, off + n);
  const variantTotals: Record<MatmulVariant, number> = { naive: 0, vec4: 0, tiled: 0 };

  const causalPairs = B * NH * ((T * (T + 1)) / 2);
  const rows: Row[] = [];
  const add = async (name: string, flop: number, record: (s: Stage) => void, cpu: () => unknown) => {
    process.stderr.write(`  ${name}\n`);
    rows.push({ name, flop, gpuMs: await gpuTime(gpu, reps, record), cpuMs: await cpuMedian(reps, cpu) });
  };

  await add('encoder_forward', N * C, (s) => encoderForward(s, g.outC, g.params, g.tokens, g.positions, N, C, o.wte, o.wpe), () => {
    for (let b = 0; b < B; b++) encoderForwardCpu(cOut.subarray(b * T * C), tokens.subarray(b * T, b * T + T), params.subarray(o.wte), params.subarray(o.wpe), T, C);
  });
  await add('layernorm_forward', 7 * N * C, (s) => layernormForward(s, g.outC, g.stats, g.x, g.params, b0.ln1w, b0.ln1b, N, C, 1e-5), () =>
    layernormForwardCpu(cOut, cMean, cRstd, x, view(b0.ln1w, C), view(b0.ln1b, C), N, C, 1e-5),
  );
  for (const variant of ['naive', 'vec4', 'tiled'] as MatmulVariant[]) {
    const before = rows.length;
    await add(`matmul_forward ${variant}, qkv ${N}x${C}x${3 * C}`, 2 * N * C * 3 * C, (s) => matmulForward(s, g.out3C, g.x, g.params, b0.qkvw, b0.qkvb, N, C, 3 * C, variant), () =>
      matmulForwardCpu(cOut, x, view(b0.qkvw, 3 * C * C), view(b0.qkvb, 3 * C), N, C, 3 * C),
    );
    await add(`matmul_forward ${variant}, fc ${N}x${C}x${M}`, 2 * N * C * M, (s) => matmulForward(s, g.outM, g.x, g.params, b0.fcw, b0.fcb, N, C, M, variant), () =>
      matmulForwardCpu(cOutM, x, view(b0.fcw, M * C), view(b0.fcb, M), N, C, M),
    );
    await add(`matmul_forward ${variant}, head ${R}x${C}x${V}`, 2 * R * C * V, (s) => matmulForward(s, g.outV, g.gathered, g.params, o.wte, null, R, C, V, variant), () =>
      matmulForwardCpu(cLogits, gathered, view(o.wte, V * C), null, R, C, V),
    );
    variantTotals[variant] = rows.slice(before).reduce((t, r) => t + r.gpuMs, 0);
  }
  await add('attention_forward', causalPairs * (4 * hs + 5), (s) => attentionForward(s, g.outC, g.att, g.qkv, g.seqs, B, T, T, C, NH), () => {
    for (let b = 0; b < B; b++) attentionForwardCpu(cOut.subarray(b * T * C), cAtt, qkvHost.subarray(b * T * 3 * C), 0, T, C, NH);
  });
  await add('gelu_forward', 15 * N * M, (s) => geluForward(s, g.outM, g.xm, N * M), () => geluForwardCpu(cOutM, xm, N * M));
  await add('residual_forward', N * C, (s) => residualForward(s, g.outC, g.x, g.doutC, N * C), () => residualForwardCpu(cOut, x, doutC, N * C));
  await add('masked_log_softmax', 4 * R * V, (s) => maskedLogSoftmax(s, g.outV, g.logits, g.masks, R, V), () => maskedLogSoftmaxCpu(cLogits, logits, masks, R, V));
  await add('probability_shift + seed_loss_coefficient', 40 * R, (s) => seedLoss(s, g.tokOut, g.lossIn, g.lStudent, R, lossCounts(lossInputs), hyper), () => seedLossCpu(lStudent, lossInputs, hyper));
  await add('seed_logit_gradient', 3 * R * V, (s) => seedLogitGradient(s, g.outV, g.logits, g.masks, g.targets, g.tokOut, R, V), () => {
    for (let r = 0; r < R; r++) {
      for (let v = 0; v < V; v++) cLogits[r * V + v] = isAllowed(masks, r, words, v) ? -0.1 * Math.exp(logits[r * V + v]) : 0;
      cLogits[r * V + targets[r]] += 0.1;
    }
  });
  for (const variant of ['naive', 'vec4'] as MatmulVariant[]) {
    await add(`matmul_backward ${variant}, fc ${N}x${C}x${M}`, 4 * N * C * M, (s) => matmulBackward(s, g.outC, g.grads, g.doutM, g.x, g.params, b0.fcw, b0.fcb, N, C, M, variant), () =>
      matmulBackwardCpu(cOut, cGrads, cGrads.subarray(b0.fcb), doutM, x, view(b0.fcw, M * C), N, C, M),
    );
  }
  await add('attention_backward', causalPairs * (8 * hs + 4), (s) => attentionBackward(s, g.out3C, g.dpre, g.doutC, g.qkv, g.att, B, T, C, NH), () => {
    for (let b = 0; b < B; b++) {
      attentionForwardCpu(cOut, cAtt, qkvHost.subarray(b * T * 3 * C), 0, T, C, NH);
      attentionBackwardCpu(cOut.subarray(0, 3 * T * C), doutC.subarray(b * T * C), qkvHost.subarray(b * T * 3 * C), cAtt, T, C, NH);
    }
  });
  await add('layernorm_backward', 14 * N * C, (s) => layernormBackward(s, g.outC2, g.grads, g.doutC, g.x, g.stats, g.params, b0.ln1w, b0.ln1b, N, C), () =>
    layernormBackwardCpu(cOut, cGrads.subarray(b0.ln1w), cGrads.subarray(b0.ln1b), doutC, x, view(b0.ln1w, C), cMean, cRstd, N, C),
  );
  await add('gelu_backward', 20 * N * M, (s) => geluBackward(s, g.outM, g.xm, g.doutM, N * M), () => geluBackwardCpu(cOutM, xm, doutM, N * M));
  await add('encoder_backward', 2 * N * C, (s) => encoderBackward(s, g.grads, g.doutC, g.starts, g.order, N, T, C, V, o.wte, o.wpe), () => {
    for (let b = 0; b < B; b++) encoderBackwardCpu(cGrads.subarray(o.wte), cGrads.subarray(o.wpe), doutC.subarray(b * T * C), tokens.subarray(b * T, b * T + T), T, C);
  });
  const cm = new Float32Array(P);
  const cv = new Float32Array(P);
  const cParams = params.slice();
  await add('grad_norm + adamw_update', 20 * P, (s) => {
    gradNorm(s, g.state, g.partials, g.grads, P, 1);
    adamwUpdate(s, g.params, g.grads, g.m, g.v, g.decay, g.state, P, adam, 1);
  }, () => adamwCpu(cParams, cGrads, cm, cv, layout, adam, 1, clipScale(gradientNorm(cGrads), 1)));
  const sampleScratch = allocSampleScratch(V);
  await add(`sample_token, ${S} streams`, 8 * S * V, (s) => sampleToken(s, g.sampled, g.sampledLogp, g.logits, g.masks, g.draws, S, V, 1), () => {
    for (let r = 0; r < S; r++) sampleTokenCpu(logits.subarray(r * V, (r + 1) * V), masks.subarray(r * words, (r + 1) * words), V, 1, 0.5, sampleScratch);
  });
  gpu.release(...Object.values(g));

  // One whole update: loss-backward on the batch, then the optimizer step.
  const batch: TokenBatch = { nSeq: B, seqLen: T, tokens, targets: new Int32Array(N).fill(-1), masks: new Uint32Array(R * words) };
  const scoredAt = Array.from({ length: N }, (_, i) => i).filter((i) => i % 4 === 3).slice(0, R);
  scoredAt.forEach((i, r) => (batch.targets[i] = targets[r]));
  batch.masks.set(masks);
  const variant = preferredMatmul(gpu.adapter);
  const web = new WebGpuBackend(gpu, config, params, { matmul: variant });
  const cpuBackend = new CpuBackend(config, params);
  const update = async (backend: WebGpuBackend | CpuBackend) => {
    await backend.lossBackward(batch, lossInputs, hyper);
    await backend.optimizerStep(adam);
  };
  process.stderr.write('  whole update\n');
  const updateFlop = 3 * N * forwardFlopsPerToken(config, (T + 1) / 2, R / N);
  const updateGpu = await cpuMedian(Math.min(reps, 3), () => update(web));
  const updateCpu = await cpuMedian(Math.min(reps, 3), () => update(cpuBackend));
  rows.push({ name: `whole update (loss-backward + AdamW, matmul ${variant})`, flop: updateFlop, gpuMs: updateGpu, cpuMs: updateCpu });
  web.dispose();

  process.stderr.write('  peak and tfjs\n');
  const peak = await fmaPeak(gpu);
  const tfjs = await tfjsMatmuls({ qkv: [N, C, 3 * C], fc: [N, C, M], head: [R, C, V] }, reps, rng);
  gpu.dispose();

  const gf = (flop: number, ms: number) => flop / (ms * 1e6);
  const table = [
    '| kernel | MFLOP | WebGPU ms | CPU ms | CPU / WebGPU time | WebGPU GFLOP/s | CPU GFLOP/s | fraction of WebGPU peak |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.name} | ${(r.flop / 1e6).toFixed(2)} | ${r.gpuMs.toFixed(2)} | ${r.cpuMs.toFixed(2)} | ${(r.cpuMs / r.gpuMs).toFixed(2)} | ` +
        `${gf(r.flop, r.gpuMs).toFixed(3)} | ${gf(r.flop, r.cpuMs).toFixed(3)} | ${(gf(r.flop, r.gpuMs) / peak).toFixed(4)} |`,
    ),
  ];
  const tfjsTable = ['| matmul | ours (naive) ms | ours (vec4) ms | ours (tiled) ms | tfjs-webgpu ms | tfjs / best of ours |', '|---|---:|---:|---:|---:|---:|'];
  for (const [name, label] of [
    ['qkv', 'qkv'],
    ['fc', 'fc'],
    ['head', 'head'],
  ]) {
    const ms = (['naive', 'vec4', 'tiled'] as MatmulVariant[]).map((v) => rows.find((r) => r.name.startsWith(`matmul_forward ${v}, ${label}`))!.gpuMs);
    const t = tfjs.ms[name];
    tfjsTable.push(`| ${name} | ${ms.map((m) => m.toFixed(2)).join(' | ')} | ${t === undefined ? 'n/a' : t.toFixed(2)} | ${t === undefined ? 'n/a' : (t / Math.min(...ms)).toFixed(2)} |`);
  }
  const winner = (Object.keys(variantTotals) as MatmulVariant[]).reduce((a, b) => (variantTotals[b] < variantTotals[a] ? b : a));
  const lines = [
    `Adapter: ${adapter}. FMA peak: ${peak.toFixed(2)} GFLOP/s.`,
    `Matmul forward on this adapter over the three shapes: naive ${variantTotals.naive.toFixed(2)} ms, vec4 ${variantTotals.vec4.toFixed(2)} ms, tiled ${variantTotals.tiled.toFixed(2)} ms: ${winner} wins; the backend picks ${variant} here (preferredMatmul).`,
    '',
    ...table,
    '',
    ...tfjsTable,
    '',
    `tfjs: ${tfjs.note}.`,
  ];
  process.stdout.write(lines.join('\n') + '\n');

  const report = [
    '# Kernel benchmark: WebGPU kernels vs the CPU reference',
    '',
    `Command: \`npm run seed -- bench kernels${args.length ? ' ' + args.join(' ') : ''}\``,
    '',
    `Machine: ${cpus()[0]?.model ?? 'unknown CPU'} (${cpus().length} logical cores, 1-minute load average ${loadAtStart.toFixed(2)} at the start), Node ${process.version}.`,
    `Shapes: the ${preset} preset (d ${C}, ${config.nLayer} layers, ${NH} heads, MLP ${M}, vocabulary ${V}), a batch of ${B} sequences x ${T} tokens (${N} rows), ${R} scored rows, ${S} decoding streams.`,
    `WebGPU: ms per dispatch, ${reps} copies in one stage timed from submit to completion after a warm-up stage; CPU: median of ${reps} runs of the twin in src/backend/cpu.`,
    'MFLOP counts the multiply-adds of matmuls and attention exactly and the elementwise kernels roughly (a tanh or exp as one FLOP);',
    'for memory-bound kernels GFLOP/s and the fraction of the FMA peak are low by nature. The whole update counts 3x the forward (forward + backward).',
    'Reading the ratios: "CPU / WebGPU time" above 1 means the WebGPU kernel is faster. On a software adapter both run on the same CPU cores, so these',
    'ratios measure SwiftShader against V8, not a GPU; on a real GPU the tiled matmul and every kernel are expected to be far faster.',
    '',
    ...lines,
    '',
  ].join('\n');
  await mkdir(dirname(values.out ?? 'bench/kernels.md'), { recursive: true });
  await writeFile(values.out ?? 'bench/kernels.md', report);
  process.stderr.write(`wrote ${values.out}\n`);
  return 0;
}
