// The host data of `bench kernels`: the shapes of a batch on a model, the seeded weights, tokens,
// activations, logits, masks and loss inputs that every kernel case and the whole update read, and the loss
// and optimizer settings they run with.
import { maskWords, type LossInputs, type OptimizerHyper } from '../../../backend/backend.ts';
import { allowToken } from '../../../backend/contract.ts';
import { maskedLogSoftmax as maskedLogSoftmaxCpu } from '../../../backend/cpu/log_softmax.ts';
import type { Rng } from '../../../common/rng.ts';
import type { ModelConfig } from '../../../model/config.ts';
import { initParameters } from '../../../model/init.ts';
import { modelOffsets, parameterLayout, type ModelOffsets, type ParameterLayout } from '../../../model/layout.ts';
import { randn } from './timing.ts';

/** A batch of B sequences x T tokens on a model: N rows, R of them scored, S decoding streams. */
export interface Shapes {
  B: number;
  T: number;
  N: number;
  R: number;
  S: number;
  V: number;
  C: number;
  M: number;
  NH: number;
  hs: number;
  words: number;
  P: number;
  layout: ParameterLayout;
  offsets: ModelOffsets;
}

export function shapesOf(config: ModelConfig, B: number, T: number): Shapes {
  const { vocabSize: V, dModel: C, dMlp: M, nHead: NH } = config;
  const N = B * T;
  const R = Math.max(1, Math.floor(N / 4));
  const layout = parameterLayout(config);
  return {
    B,
    T,
    N,
    R,
    S: Math.min(32, R),
    V,
    C,
    M,
    NH,
    hs: C / NH,
    words: maskWords(V),
    P: layout.totalFloats,
    layout,
    offsets: modelOffsets(layout, config.nLayer),
  };
}

export const ADAM: OptimizerHyper = { lr: 1e-3, beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0.1, gradClip: 1 };

/** The host data every case reads: seeded weights, tokens, activations, logits, masks and loss inputs. */
export interface HostData {
  params: Float32Array;
  tokens: Int32Array<ArrayBuffer>;
  positions: Int32Array<ArrayBuffer>;
  x: Float32Array<ArrayBuffer>;
  xm: Float32Array<ArrayBuffer>;
  qkv: Float32Array<ArrayBuffer>;
  doutC: Float32Array<ArrayBuffer>;
  doutM: Float32Array<ArrayBuffer>;
  gathered: Float32Array<ArrayBuffer>;
  logits: Float32Array<ArrayBuffer>;
  masks: Uint32Array<ArrayBuffer>;
  targets: Int32Array<ArrayBuffer>;
  lStudent: Float32Array<ArrayBuffer>;
  lossInputs: LossInputs;
  /** Masked log-probs of the student and of the skill-conditioned teacher (exact distillation), and a weight per row. */
  studentLogp: Float32Array<ArrayBuffer>;
  teacherLogp: Float32Array<ArrayBuffer>;
  rowWeight: Float32Array<ArrayBuffer>;
  /** Uniform draws of the decoding streams. */
  draws: Float32Array<ArrayBuffer>;
}

export function hostData(config: ModelConfig, s: Shapes, seed: number, rng: Rng): HostData {
  const { N, R, S, V, C, M, T, words } = s;
  const params = initParameters(config, seed);
  const tokens = Int32Array.from({ length: N }, () => rng.int(V));
  const positions = Int32Array.from({ length: N }, (_, i) => i % T);
  const x = randn(rng, N * C);
  const xm = randn(rng, N * M);
  const qkv = randn(rng, 3 * N * C);
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
  const draws = Float32Array.from({ length: S }, () => rng.float());
  const studentLogp = new Float32Array(R * V);
  const teacherLogp = new Float32Array(R * V);
  maskedLogSoftmaxCpu(studentLogp, logits, masks, R, V);
  maskedLogSoftmaxCpu(
    teacherLogp,
    logits.map((z) => z + 0.5 * rng.normal()),
    masks,
    R,
    V,
  );
  const rowWeight = Float32Array.from({ length: R }, () => 0.1);
  return {
    params,
    tokens,
    positions,
    x,
    xm,
    qkv,
    doutC,
    doutM,
    gathered,
    logits,
    masks,
    targets,
    lStudent,
    lossInputs,
    draws,
    studentLogp,
    teacherLogp,
    rowWeight,
  };
}
