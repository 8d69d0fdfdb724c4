// GELU (tanh form) on the GPU (shaders/gelu.wgsl), twin of src/backend/cpu/gelu.ts: one thread per element.
// The residual connection is added by matmul.ts's matmulForward, in the projection's own pass.
import code from '../../../shaders/gelu.wgsl?raw';
import { kernel, threadGrid, type Buf } from './kernel.ts';
import type { Stage } from './stage.ts';
import { wgslStruct } from './wgsl_struct.ts';

/** @public: shaders.test.ts reads the module's exports to check each struct against its shader. */
export const SHAPE = wgslStruct('Shape', { n: 'u32', grid_x: 'u32' });

const FORWARD = kernel(code, 'gelu_forward', ['uniform', 'read', 'write']);
const BACKWARD = kernel(code, 'gelu_backward', ['uniform', 'read', 'read', 'write']);

export function geluForward(stage: Stage, out: Buf, inp: Buf, n: number): void {
  const g = threadGrid(n);
  if (g) stage.dispatch(FORWARD, [SHAPE.pack({ n, grid_x: g.gridX }), inp, out], g.workgroups);
}

/** Writes dinp = gelu'(inp) * dout. */
export function geluBackward(stage: Stage, dinp: Buf, inp: Buf, dout: Buf, n: number): void {
  const g = threadGrid(n);
  if (g) stage.dispatch(BACKWARD, [SHAPE.pack({ n, grid_x: g.gridX }), inp, dout, dinp], g.workgroups);
}
