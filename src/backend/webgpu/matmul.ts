// The fully connected layer on the GPU (shaders/matmul.wgsl), twin of src/backend/cpu/matmul.ts: weights
// row-major [OC, C] in the flat parameter buffer, out = inp @ weight^T + bias, with the residual connection
// (cpu/residual.ts) optionally added in the same pass. The backward writes dinp and accumulates the weight
// and bias gradients, as on the CPU.
import code from '../../../shaders/matmul.wgsl?raw';
import { kernel, threadGrid, type BindingKind, type Buf } from './kernel.ts';
import type { Stage } from './stage.ts';
import { wgslStruct } from './wgsl_struct.ts';

/** @public: shaders.test.ts reads the module's exports to check each struct against its shader. */
export const SHAPE = wgslStruct('Shape', {
  n: 'u32',
  c: 'u32',
  oc: 'u32',
  w_off: 'u32',
  b_off: 'u32',
  has_bias: 'u32',
  grid_x: 'u32',
  has_residual: 'u32',
});

const FORWARD_BINDINGS: BindingKind[] = ['uniform', 'read', 'read', 'write', 'read'];
const BACKWARD_BINDINGS: BindingKind[] = ['uniform', 'read', 'read', 'read', 'write', 'write'];
const K = {
  forward: kernel(code, 'matmul_forward', FORWARD_BINDINGS),
  forwardTiled: kernel(code, 'matmul_forward_tiled', FORWARD_BINDINGS),
  forwardVec4: kernel(code, 'matmul_forward_vec4', FORWARD_BINDINGS),
  backwardInput: kernel(code, 'matmul_backward_input', BACKWARD_BINDINGS),
  backwardWeight: kernel(code, 'matmul_backward_weight', BACKWARD_BINDINGS),
  backwardBias: kernel(code, 'matmul_backward_bias', BACKWARD_BINDINGS),
  backwardInputVec4: kernel(code, 'matmul_backward_input_vec4', BACKWARD_BINDINGS),
  backwardWeightVec4: kernel(code, 'matmul_backward_weight_vec4', BACKWARD_BINDINGS),
};

/** Output tile of matmul_forward_tiled (its TILE). */
const TILE = 16;

/**
 * Which matmul kernels run: one thread per output ('naive'); the same reading the inner dimension four
 * floats at a time ('vec4', when C % 4 == 0, else the scalar kernels); or 16 x 16 tiles in workgroup
 * memory for the forward ('tiled', whose backward is the vec4 one).
 */
export type MatmulVariant = 'naive' | 'vec4' | 'tiled';

function checkAligned(name: string, ...offsets: number[]): void {
  for (const off of offsets)
    if (off % 4 !== 0)
      throw new RangeError(`${name}: vec4 kernels need offsets that are multiples of 4 floats, got ${off}`);
}

function shape(
  N: number,
  C: number,
  OC: number,
  wOff: number,
  bOff: number | null,
  gridX: number,
  residual = false,
): Uint32Array<ArrayBuffer> {
  return SHAPE.pack({
    n: N,
    c: C,
    oc: OC,
    w_off: wOff,
    b_off: bOff ?? 0,
    has_bias: bOff === null ? 0 : 1,
    grid_x: gridX,
    has_residual: residual ? 1 : 0,
  });
}

/**
 * out [N, OC] = inp [N, C] @ weight^T + bias; bOff null = no bias. With `residual` [N, OC], out = residual
 * + that: the residual connection in the same pass (out must be another buffer than residual).
 */
export function matmulForward(
  stage: Stage,
  out: Buf,
  inp: Buf,
  params: Buf,
  wOff: number,
  bOff: number | null,
  N: number,
  C: number,
  OC: number,
  variant: MatmulVariant = 'naive',
  residual: Buf | null = null,
): void {
  if (N === 0 || OC === 0) return;
  // Without a residual, binding 4 holds any read-only buffer: the kernel does not read it.
  const resources = (gridX: number) => [
    shape(N, C, OC, wOff, bOff, gridX, residual !== null),
    params,
    inp,
    out,
    residual ?? inp,
  ];
  if (variant === 'tiled') {
    const wx = Math.ceil(OC / TILE);
    const wy = Math.ceil(N / TILE);
    if (wx > 65535 || wy > 65535) throw new RangeError(`matmulForward: ${N} x ${OC} is too large for the tiled kernel`);
    stage.dispatch(K.forwardTiled, resources(wx), [wx, wy, 1]);
    return;
  }
  const g = threadGrid(N * OC)!;
  const vec4 = variant === 'vec4' && C % 4 === 0;
  if (vec4) checkAligned('matmulForward', wOff, bOff ?? 0);
  stage.dispatch(vec4 ? K.forwardVec4 : K.forward, resources(g.gridX), g.workgroups);
}

/** Writes dinp [N, C] = dout @ weight and accumulates dweight, dbias into grads. */
export function matmulBackward(
  stage: Stage,
  dinp: Buf,
  grads: Buf,
  dout: Buf,
  inp: Buf,
  params: Buf,
  wOff: number,
  bOff: number | null,
  N: number,
  C: number,
  OC: number,
  variant: MatmulVariant = 'naive',
): void {
  const res = (gridX: number) => [shape(N, C, OC, wOff, bOff, gridX), params, inp, dout, dinp, grads];
  const vec4 = variant !== 'naive' && C % 4 === 0;
  if (vec4) checkAligned('matmulBackward', wOff);
  const width = vec4 ? C / 4 : C;
  const gi = threadGrid(N * width);
  if (gi) stage.dispatch(vec4 ? K.backwardInputVec4 : K.backwardInput, res(gi.gridX), gi.workgroups);
  if (N === 0) return;
  const gw = threadGrid(OC * width);
  if (gw) stage.dispatch(vec4 ? K.backwardWeightVec4 : K.backwardWeight, res(gw.gridX), gw.workgroups);
  const gb = threadGrid(OC);
  if (gb && bOff !== null) stage.dispatch(K.backwardBias, res(gb.gridX), gb.workgroups);
}
