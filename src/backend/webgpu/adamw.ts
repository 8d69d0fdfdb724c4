// The optimizer step on the GPU (shaders/adamw.wgsl): deterministic two-pass gradient norm, clipping and
// AdamW in one stage, plus the finite check that guards gradient accumulation. Twin of
// src/backend/cpu/adamw.ts.
import code from '../../../shaders/adamw.wgsl?raw';
import type { OptimizerHyper } from '../backend.ts';
import type { ParameterLayout } from '../../model/layout.ts';
import { kernel, threadGrid, type Buf } from './kernel.ts';
import type { Stage } from './stage.ts';
import { wgslStruct } from './wgsl_struct.ts';

/** @public: shaders.test.ts reads the module's exports to check each struct against its shader. */
export const SHAPE = wgslStruct('Shape', { n: 'u32', chunk: 'u32', groups: 'u32', grid_x: 'u32', clip: 'f32' });
/** @public: shaders.test.ts reads the module's exports to check each struct against its shader. */
export const HYPER = wgslStruct('Hyper', {
  n: 'u32',
  grid_x: 'u32',
  lr: 'f32',
  beta1: 'f32',
  beta2: 'f32',
  eps: 'f32',
  weight_decay: 'f32',
  c1: 'f32',
  c2: 'f32',
});

const K = {
  normPartial: kernel(code, 'grad_norm_partial', ['uniform', 'read', 'write']),
  normFinal: kernel(code, 'grad_norm_final', ['uniform', 'read', 'write']),
  adamw: kernel(code, 'adamw_update', ['uniform', 'read', 'read', 'write', 'write', 'write', 'write']),
  countNonFinite: kernel(code, 'count_non_finite', ['uniform', 'read', 'read', 'write']),
  accumulate: kernel(code, 'accumulate_gradients', ['uniform', 'read', 'read', 'write']),
};

/** Elements summed by one workgroup of grad_norm_partial. */
const NORM_CHUNK = 4096;

/** Floats of the partial-sum buffer that gradNorm needs for n parameters. */
export function normPartials(n: number): number {
  return Math.max(1, Math.ceil(n / NORM_CHUNK));
}

/** Floats of the norm state: (norm, clip scale, finite flag, 0). */
export const NORM_STATE_FLOATS = 4;

/** Bit i set when parameter i takes weight decay (the layout's `decay` views). */
export function decayBits(layout: ParameterLayout): Uint32Array<ArrayBuffer> {
  const bits = new Uint32Array(Math.ceil(layout.totalFloats / 32));
  for (const view of layout.list) {
    if (!view.decay) continue;
    for (let i = view.offset; i < view.offset + view.size; i++) bits[i >>> 5] |= 1 << (i & 31);
  }
  return bits;
}

/** state = (||grads||, clip scale, finite flag, 0); partials: normPartials(n) floats of scratch. */
export function gradNorm(stage: Stage, state: Buf, partials: Buf, grads: Buf, n: number, clip: number): void {
  const groups = normPartials(n);
  if (groups > 65535) throw new RangeError(`gradNorm: ${n} parameters need more than 65535 workgroups`);
  const u = SHAPE.pack({ n, chunk: NORM_CHUNK, groups, grid_x: groups, clip });
  stage.dispatch(K.normPartial, [u, grads, partials], [groups, 1, 1]);
  stage.dispatch(K.normFinal, [u, partials, state], [1, 1, 1]);
}

/** AdamW step number `step` (1-based) scaled by the clip factor in state; zeroes grads. Skipped when the norm is not finite. */
export function adamwUpdate(
  stage: Stage,
  params: Buf,
  grads: Buf,
  m: Buf,
  v: Buf,
  decay: Buf,
  state: Buf,
  n: number,
  h: OptimizerHyper,
  step: number,
): void {
  const g = threadGrid(n);
  if (!g) return;
  const c1 = 1 - h.beta1 ** step;
  const c2 = 1 - h.beta2 ** step;
  const u = HYPER.pack({
    n,
    grid_x: g.gridX,
    lr: h.lr,
    beta1: h.beta1,
    beta2: h.beta2,
    eps: h.eps,
    weight_decay: h.weightDecay,
    c1,
    c2,
  });
  stage.dispatch(K.adamw, [u, state, decay, params, grads, m, v], g.workgroups);
}

/** flag[0] = number of non-finite floats among a[0 .. nA) and b[0 .. nB). */
export function countNonFinite(stage: Stage, flag: Buf, a: Buf, nA: number, b: Buf, nB: number): void {
  stage.dispatch(
    K.countNonFinite,
    [SHAPE.pack({ n: nA, chunk: nB, groups: 0, grid_x: 0, clip: 0 }), a, b, flag],
    [1, 1, 1],
  );
}

/** grads += scratch (n floats) unless flag[0] != 0. */
export function accumulateGradients(stage: Stage, grads: Buf, scratch: Buf, flag: Buf, n: number): void {
  const g = threadGrid(n);
  if (g)
    stage.dispatch(
      K.accumulate,
      [SHAPE.pack({ n, chunk: 0, groups: 0, grid_x: g.gridX, clip: 0 }), scratch, flag, grads],
      g.workgroups,
    );
}
