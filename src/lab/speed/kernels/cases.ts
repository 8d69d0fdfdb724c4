// The cases of `bench kernels`: every WebGPU kernel of an update and of decoding on the model's shapes, each
// next to its CPU twin on the same host data (host_data.ts); the whole update is whole_update.ts.
import { adamwUpdate as adamwCpu, clipScale, gradientNorm } from '../../../backend/cpu/adamw.ts';
import {
  attentionBackward as attentionBackwardCpu,
  attentionForward as attentionForwardCpu,
} from '../../../backend/cpu/attention.ts';
import {
  encoderBackward as encoderBackwardCpu,
  encoderForward as encoderForwardCpu,
} from '../../../backend/cpu/encoder.ts';
import { geluBackward as geluBackwardCpu, geluForward as geluForwardCpu } from '../../../backend/cpu/gelu.ts';
import {
  layernormBackward as layernormBackwardCpu,
  layernormForward as layernormForwardCpu,
} from '../../../backend/cpu/layernorm.ts';
import { isAllowed, lossCounts } from '../../../backend/contract.ts';
import { maskedLogSoftmax as maskedLogSoftmaxCpu } from '../../../backend/cpu/log_softmax.ts';
import { matmulBackward as matmulBackwardCpu, matmulForward as matmulForwardCpu } from '../../../backend/cpu/matmul.ts';
import { allocSampleScratch, sampleToken as sampleTokenCpu } from '../../../backend/cpu/sampling.ts';
import {
  distilDivergence as distilDivergenceCpu,
  distilLogitGradient as distilLogitGradientCpu,
} from '../../../backend/cpu/distil.ts';
import { seedLoss as seedLossCpu } from '../../../backend/cpu/seed_loss.ts';
import { adamwUpdate, decayBits, gradNorm, normPartials } from '../../../backend/webgpu/adamw.ts';
import { attentionBackward, attentionForward, packSeqRows } from '../../../backend/webgpu/attention.ts';
import { distilDivergence, distilLogitGradient } from '../../../backend/webgpu/distil.ts';
import { encoderBackward, encoderForward, tokenRowIndex } from '../../../backend/webgpu/encoder.ts';
import { geluBackward, geluForward } from '../../../backend/webgpu/gelu.ts';
import { layernormBackward, layernormForward } from '../../../backend/webgpu/layernorm.ts';
import { maskedLogSoftmax } from '../../../backend/webgpu/log_softmax.ts';
import { matmulBackward, matmulForward, type MatmulVariant } from '../../../backend/webgpu/matmul.ts';
import type { GpuRuntime } from '../../../backend/webgpu/runtime.ts';
import { sampleToken } from '../../../backend/webgpu/sampling.ts';
import { packLossInputs, seedLogitGradient, seedLoss, TOKEN_OUT_FLOATS } from '../../../backend/webgpu/seed_loss.ts';
import type { Stage } from '../../../backend/webgpu/stage.ts';
import { BENCH_LOSS } from '../bench_loss.ts';
import { ADAM, type HostData, type Shapes } from './host_data.ts';
import { cpuMedian, gpuTime } from './timing.ts';

export const MATMUL_VARIANTS: readonly MatmulVariant[] = ['naive', 'vec4', 'tiled'];

export interface Row {
  name: string;
  flop: number;
  gpuMs: number;
  /** The GPU's own time (timestamps), null where the adapter has none. */
  gpuDeviceMs: number | null;
  cpuMs: number;
}

type Gpu = ReturnType<typeof uploadAll>;

/** The host data on the GPU, with the output and scratch buffers of every case. */
function uploadAll(gpu: GpuRuntime, s: Shapes, h: HostData) {
  const { B, T, N, R, S, V, C, M, NH, P, layout } = s;
  const { starts, order } = tokenRowIndex(h.tokens, V);
  const seqs = packSeqRows(Array.from({ length: B }, (_, b) => ({ slot: b, pos0: 0, count: T })));
  const up = (a: Float32Array<ArrayBuffer> | Int32Array<ArrayBuffer> | Uint32Array<ArrayBuffer>) => gpu.upload(a);
  const buf = (n: number) => gpu.buffer(Math.max(n, 1) * 4);
  return {
    params: up(Float32Array.from(h.params)),
    grads: up(new Float32Array(P)),
    m: up(new Float32Array(P)),
    v: up(new Float32Array(P)),
    decay: up(decayBits(layout)),
    state: buf(4),
    partials: buf(normPartials(P)),
    tokens: up(h.tokens),
    positions: up(h.positions),
    starts: up(starts),
    order: up(order),
    seqs: up(seqs),
    x: up(h.x),
    xm: up(h.xm),
    qkv: up(h.qkv),
    doutC: up(h.doutC),
    doutM: up(h.doutM),
    gathered: up(h.gathered),
    logits: up(h.logits),
    masks: up(h.masks),
    targets: up(h.targets),
    lStudent: up(h.lStudent),
    lossIn: up(packLossInputs(h.lossInputs, R)),
    studentLogp: up(h.studentLogp),
    teacherLogp: up(h.teacherLogp),
    rowWeight: up(h.rowWeight),
    divergence: buf(R),
    tokOut: buf(R * TOKEN_OUT_FLOATS),
    outC: buf(N * C),
    outC2: buf(N * C),
    out3C: buf(3 * N * C),
    outM: buf(N * M),
    stats: buf(2 * N),
    att: buf(B * NH * T * T),
    dpre: buf(B * NH * T * T),
    outV: buf(R * V),
    draws: up(h.draws),
    sampled: buf(S),
    sampledLogp: buf(S),
  };
}

/** Output buffers of the CPU twins. */
function cpuBuffers(s: Shapes) {
  const { N, R, V, C, M, NH, T, P } = s;
  return {
    out: new Float32Array(3 * N * C),
    outM: new Float32Array(N * M),
    mean: new Float32Array(N),
    rstd: new Float32Array(N),
    att: new Float32Array(NH * T * T),
    grads: new Float32Array(P),
    logits: new Float32Array(R * V),
    divergence: new Float32Array(R),
  };
}

type Add = (name: string, flop: number, record: (stage: Stage) => void, cpu: () => unknown) => Promise<void>;

interface Ctx {
  s: Shapes;
  h: HostData;
  g: Gpu;
  c: ReturnType<typeof cpuBuffers>;
  add: Add;
  rows: Row[];
}

/** The forward kernels; returns each matmul variant's total time over the three matmul shapes. */
async function forwardCases({ s, h, g, c, add, rows }: Ctx): Promise<Record<MatmulVariant, number>> {
  const { B, T, N, R, V, C, M, NH, hs, offsets: o } = s;
  const b0 = o.blocks[0];
  const view = (off: number, n: number) => h.params.subarray(off, off + n);
  const causalPairs = B * NH * ((T * (T + 1)) / 2);
  const variantTotals: Record<MatmulVariant, number> = { naive: 0, vec4: 0, tiled: 0 };
  await add(
    'encoder_forward',
    N * C,
    (st) => encoderForward(st, g.outC, g.params, g.tokens, g.positions, N, C, o.wte, o.wpe),
    () => {
      for (let b = 0; b < B; b++)
        encoderForwardCpu(
          c.out.subarray(b * T * C),
          h.tokens.subarray(b * T, b * T + T),
          h.params.subarray(o.wte),
          h.params.subarray(o.wpe),
          T,
          C,
        );
    },
  );
  await add(
    'layernorm_forward',
    7 * N * C,
    (st) => layernormForward(st, g.outC, g.stats, g.x, g.params, b0.ln1w, b0.ln1b, N, C, 1e-5),
    () => layernormForwardCpu(c.out, c.mean, c.rstd, h.x, view(b0.ln1w, C), view(b0.ln1b, C), N, C, 1e-5),
  );
  for (const variant of MATMUL_VARIANTS) {
    const before = rows.length;
    await add(
      `matmul_forward ${variant}, qkv ${N}x${C}x${3 * C}`,
      2 * N * C * 3 * C,
      (st) => matmulForward(st, g.out3C, g.x, g.params, b0.qkvw, b0.qkvb, N, C, 3 * C, variant),
      () => matmulForwardCpu(c.out, h.x, view(b0.qkvw, 3 * C * C), view(b0.qkvb, 3 * C), N, C, 3 * C),
    );
    await add(
      `matmul_forward ${variant}, fc ${N}x${C}x${M}`,
      2 * N * C * M,
      (st) => matmulForward(st, g.outM, g.x, g.params, b0.fcw, b0.fcb, N, C, M, variant),
      () => matmulForwardCpu(c.outM, h.x, view(b0.fcw, M * C), view(b0.fcb, M), N, C, M),
    );
    await add(
      `matmul_forward ${variant}, head ${R}x${C}x${V}`,
      2 * R * C * V,
      (st) => matmulForward(st, g.outV, g.gathered, g.params, o.wte, null, R, C, V, variant),
      () => matmulForwardCpu(c.logits, h.gathered, view(o.wte, V * C), null, R, C, V),
    );
    variantTotals[variant] = rows.slice(before).reduce((t, r) => t + r.gpuMs, 0);
  }
  await add(
    'attention_forward',
    causalPairs * (4 * hs + 5),
    (st) => attentionForward(st, g.outC, g.att, g.qkv, g.seqs, B, T, T, C, NH),
    () => {
      for (let b = 0; b < B; b++)
        attentionForwardCpu(c.out.subarray(b * T * C), c.att, h.qkv.subarray(b * T * 3 * C), 0, T, C, NH);
    },
  );
  await add(
    'gelu_forward',
    15 * N * M,
    (st) => geluForward(st, g.outM, g.xm, N * M),
    () => geluForwardCpu(c.outM, h.xm, N * M),
  );
  return variantTotals;
}

/** The loss kernels and the backward passes, the optimizer step and token sampling. */
async function backwardCases({ s, h, g, c, add }: Ctx): Promise<void> {
  const { B, T, N, R, S, V, C, M, NH, hs, P, words, layout, offsets: o } = s;
  const b0 = o.blocks[0];
  const view = (off: number, n: number) => h.params.subarray(off, off + n);
  const causalPairs = B * NH * ((T * (T + 1)) / 2);
  await add(
    'masked_log_softmax',
    4 * R * V,
    (st) => maskedLogSoftmax(st, g.outV, g.logits, g.masks, R, V),
    () => maskedLogSoftmaxCpu(c.logits, h.logits, h.masks, R, V),
  );
  await add(
    'probability_shift + seed_loss_coefficient',
    40 * R,
    (st) => seedLoss(st, g.tokOut, g.lossIn, g.lStudent, R, lossCounts(h.lossInputs), BENCH_LOSS),
    () => seedLossCpu(h.lStudent, h.lossInputs, BENCH_LOSS),
  );
  await add(
    'seed_logit_gradient',
    3 * R * V,
    (st) => seedLogitGradient(st, g.outV, g.logits, g.masks, g.targets, g.tokOut, R, V),
    () => {
      for (let r = 0; r < R; r++) {
        for (let v = 0; v < V; v++)
          c.logits[r * V + v] = isAllowed(h.masks, r, words, v) ? -0.1 * Math.exp(h.logits[r * V + v]) : 0;
        c.logits[r * V + h.targets[r]] += 0.1;
      }
    },
  );
  // Exact distillation (the seed-exact algorithms): the reverse KL of every scored row and its gradient on the row's logits.
  await add(
    'distil_divergence (reverse KL)',
    6 * R * V,
    (st) => distilDivergence(st, g.divergence, g.studentLogp, g.teacherLogp, g.masks, g.rowWeight, R, V, 0),
    () => distilDivergenceCpu(c.divergence, h.studentLogp, h.teacherLogp, h.masks, R, V, 0),
  );
  await add(
    'distil_logit_gradient (reverse KL)',
    10 * R * V,
    (st) => distilLogitGradient(st, g.outV, g.studentLogp, g.teacherLogp, g.masks, g.rowWeight, R, V, 0),
    () => distilLogitGradientCpu(c.logits, h.studentLogp, h.teacherLogp, h.masks, h.rowWeight, R, V, 0),
  );
  for (const variant of ['naive', 'vec4'] as MatmulVariant[]) {
    await add(
      `matmul_backward ${variant}, fc ${N}x${C}x${M}`,
      4 * N * C * M,
      (st) => matmulBackward(st, g.outC, g.grads, g.doutM, g.x, g.params, b0.fcw, b0.fcb, N, C, M, variant),
      () => matmulBackwardCpu(c.out, c.grads, c.grads.subarray(b0.fcb), h.doutM, h.x, view(b0.fcw, M * C), N, C, M),
    );
  }
  await add(
    'attention_backward',
    causalPairs * (8 * hs + 4),
    (st) => attentionBackward(st, g.out3C, g.dpre, g.doutC, g.qkv, g.att, B, T, C, NH),
    () => {
      for (let b = 0; b < B; b++) {
        attentionForwardCpu(c.out, c.att, h.qkv.subarray(b * T * 3 * C), 0, T, C, NH);
        attentionBackwardCpu(
          c.out.subarray(0, 3 * T * C),
          h.doutC.subarray(b * T * C),
          h.qkv.subarray(b * T * 3 * C),
          c.att,
          T,
          C,
          NH,
        );
      }
    },
  );
  await add(
    'layernorm_backward',
    14 * N * C,
    (st) => layernormBackward(st, g.outC2, g.grads, g.doutC, g.x, g.stats, g.params, b0.ln1w, b0.ln1b, N, C),
    () =>
      layernormBackwardCpu(
        c.out,
        c.grads.subarray(b0.ln1w),
        c.grads.subarray(b0.ln1b),
        h.doutC,
        h.x,
        view(b0.ln1w, C),
        c.mean,
        c.rstd,
        N,
        C,
      ),
  );
  await add(
    'gelu_backward',
    20 * N * M,
    (st) => geluBackward(st, g.outM, g.xm, g.doutM, N * M),
    () => geluBackwardCpu(c.outM, h.xm, h.doutM, N * M),
  );
  await add(
    'encoder_backward',
    2 * N * C,
    (st) => encoderBackward(st, g.grads, g.doutC, g.starts, g.order, N, T, C, V, o.wte, o.wpe),
    () => {
      for (let b = 0; b < B; b++)
        encoderBackwardCpu(
          c.grads.subarray(o.wte),
          c.grads.subarray(o.wpe),
          h.doutC.subarray(b * T * C),
          h.tokens.subarray(b * T, b * T + T),
          T,
          C,
        );
    },
  );
  const cm = new Float32Array(P);
  const cv = new Float32Array(P);
  const cParams = h.params.slice();
  await add(
    'grad_norm + adamw_update',
    20 * P,
    (st) => {
      gradNorm(st, g.state, g.partials, g.grads, P, 1);
      adamwUpdate(st, g.params, g.grads, g.m, g.v, g.decay, g.state, P, ADAM, 1);
    },
    () => adamwCpu(cParams, c.grads, cm, cv, layout, ADAM, 1, clipScale(gradientNorm(c.grads), 1)),
  );
  const sampleScratch = allocSampleScratch(V);
  await add(
    `sample_token, ${S} streams`,
    8 * S * V,
    (st) => sampleToken(st, g.sampled, g.sampledLogp, g.logits, g.masks, g.draws, S, V, 1),
    () => {
      for (let r = 0; r < S; r++)
        sampleTokenCpu(
          h.logits.subarray(r * V, (r + 1) * V),
          h.masks.subarray(r * words, (r + 1) * words),
          V,
          1,
          0.5,
          sampleScratch,
        );
    },
  );
}

export interface KernelTimes {
  rows: Row[];
  /** Per matmul variant, its forward time summed over the qkv, fc and head shapes. */
  variantTotals: Record<MatmulVariant, number>;
}

/** Times every kernel against its CPU twin, in the order of the report's table. */
export async function timeKernels(gpu: GpuRuntime, s: Shapes, h: HostData, reps: number): Promise<KernelTimes> {
  const rows: Row[] = [];
  const add: Add = async (name, flop, record, cpu) => {
    process.stderr.write(`  ${name}\n`);
    const { wallMs, deviceMs } = await gpuTime(gpu, reps, record);
    rows.push({ name, flop, gpuMs: wallMs, gpuDeviceMs: deviceMs, cpuMs: await cpuMedian(reps, cpu) });
  };
  const g = uploadAll(gpu, s, h);
  const ctx: Ctx = { s, h, g, c: cpuBuffers(s), add, rows };
  try {
    const variantTotals = await forwardCases(ctx);
    await backwardCases(ctx);
    return { rows, variantTotals };
  } finally {
    gpu.release(...Object.values(g));
  }
}
