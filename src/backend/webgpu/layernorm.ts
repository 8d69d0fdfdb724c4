// LayerNorm on the GPU (shaders/layernorm.wgsl), twin of src/backend/cpu/layernorm.ts: the forward keeps
// each row's mean and 1/std for the backward. The backward accumulates into dinp (the residual stream's
// gradient) and into the weight and bias gradients, as on the CPU.
import code from '../../../shaders/layernorm.wgsl?raw';
import { kernel, threadGrid, type Buf } from './kernel.ts';
import type { Stage } from './stage.ts';
import { wgslStruct } from './wgsl_struct.ts';

/** @public: shaders.test.ts reads the module's exports to check each struct against its shader. */
export const SHAPE = wgslStruct('Shape', { n: 'u32', c: 'u32', eps: 'f32', w_off: 'u32', b_off: 'u32', grid_x: 'u32' });

const FORWARD = kernel(code, 'layernorm_forward', ['uniform', 'read', 'read', 'write', 'write']);
const BACKWARD_BINDINGS = ['uniform', 'read', 'read', 'read', 'read', 'write', 'write'] as const;
const BACKWARD_INPUT = kernel(code, 'layernorm_backward_input', BACKWARD_BINDINGS);
const BACKWARD_PARAMS = kernel(code, 'layernorm_backward_params', BACKWARD_BINDINGS);

/** out [N, C], stats [N, 2] (mean, rstd) from inp [N, C]. */
export function layernormForward(
  stage: Stage,
  out: Buf,
  stats: Buf,
  inp: Buf,
  params: Buf,
  wOff: number,
  bOff: number,
  N: number,
  C: number,
  eps: number,
): void {
  const g = threadGrid(N);
  if (!g) return;
  const u = SHAPE.pack({ n: N, c: C, eps, w_off: wOff, b_off: bOff, grid_x: g.gridX });
  stage.dispatch(FORWARD, [u, params, inp, out, stats], g.workgroups);
}

/** Accumulates into dinp [N, C] and the weight and bias gradients. */
export function layernormBackward(
  stage: Stage,
  dinp: Buf,
  grads: Buf,
  dout: Buf,
  inp: Buf,
  stats: Buf,
  params: Buf,
  wOff: number,
  bOff: number,
  N: number,
  C: number,
): void {
  const gr = threadGrid(N);
  const gc = threadGrid(C);
  if (!gr || !gc) return;
  const res = (gridX: number) => [
    SHAPE.pack({ n: N, c: C, eps: 0, w_off: wOff, b_off: bOff, grid_x: gridX }),
    params,
    inp,
    stats,
    dout,
    dinp,
    grads,
  ];
  stage.dispatch(BACKWARD_INPUT, res(gr.gridX), gr.workgroups);
  stage.dispatch(BACKWARD_PARAMS, res(gc.gridX), gc.workgroups);
}
