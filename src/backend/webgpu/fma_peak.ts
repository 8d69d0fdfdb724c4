// The FMA-bound microbenchmark (shaders/fma_peak.wgsl): the adapter's own arithmetic peak, the roofline
// that `bench kernels` divides every kernel's GFLOP/s by. It has no CPU twin: it computes nothing.
import code from '../../../shaders/fma_peak.wgsl?raw';
import { kernel, type Buf } from './kernel.ts';
import { WG } from './prelude.ts';
import type { Stage } from './stage.ts';
import { wgslStruct } from './wgsl_struct.ts';

/** @public: shaders.test.ts reads the module's exports to check each struct against its shader. */
export const SHAPE = wgslStruct('Shape', { iters: 'u32', threads: 'u32' });

const FMA_PEAK = kernel(code, 'fma_peak', ['uniform', 'write']);

/** FLOP per thread and iteration: four vec4 FMA chains. */
export const FMA_PEAK_FLOPS = 32;

/** Records `threads` threads of `iters` iterations each; out: f32[threads]. */
export function fmaPeak(stage: Stage, out: Buf, iters: number, threads: number): void {
  const groups = Math.ceil(threads / WG);
  if (groups > 65535) throw new RangeError(`fmaPeak: ${threads} threads need more than 65535 workgroups`);
  stage.dispatch(FMA_PEAK, [SHAPE.pack({ iters, threads }), out], [groups, 1, 1]);
}
