// Row moves and fills on the GPU (shaders/rows.wgsl): the gather of the rows whose logits are needed, the
// scatter of their gradient back, the KV-cache write of newly decoded rows, and zeroing. On the CPU these
// are plain array copies, so they have no twin there.
import code from '../../../shaders/rows.wgsl?raw';
import { kernel, threadGrid, type Buf } from './kernel.ts';
import type { Stage } from './stage.ts';
import { wgslStruct } from './wgsl_struct.ts';

/** @public: shaders.test.ts reads the module's exports to check each struct against its shader. */
export const SHAPE = wgslStruct('Shape', { rows: 'u32', width: 'u32', value: 'f32', grid_x: 'u32' });

const COPY_ROWS = kernel(code, 'copy_rows', ['uniform', 'read', 'read', 'write']);
const FILL = kernel(code, 'fill', ['uniform', 'write']);

/** out[pairs[2i + 1]] = inp[pairs[2i]] for rows of `width` floats; pairs: u32[rows * 2]. */
export function copyRows(stage: Stage, out: Buf, inp: Buf, pairs: Buf, rows: number, width: number): void {
  const g = threadGrid(rows * width);
  if (g)
    stage.dispatch(COPY_ROWS, [SHAPE.pack({ rows, width, value: 0, grid_x: g.gridX }), pairs, inp, out], g.workgroups);
}

/** out[0 .. n) = value. */
export function fill(stage: Stage, out: Buf, n: number, value = 0): void {
  const g = threadGrid(n);
  if (g) stage.dispatch(FILL, [SHAPE.pack({ rows: n, width: 1, value, grid_x: g.gridX }), out], g.workgroups);
}
