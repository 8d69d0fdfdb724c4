// The WGSL prelude (shaders/prelude.wgsl) and the one value of its `override WG`: the pipeline cache builds
// every shader module from the prelude followed by the shader's own source, and sets WG on every pipeline
// unless a kernel sets its own (log_softmax.ts sizes its row groups by the vocabulary). threadGrid
// (kernel.ts) sizes dispatches with the same WG, so a grid and its kernel cannot disagree.
import prelude from '../../../shaders/prelude.wgsl?raw';

/** Threads per workgroup of the one-thread-per-element kernels. */
export const WG = 64;

/** What a shader module is compiled from: the prelude, then the shader. */
export function moduleSource(code: string): string {
  return `${prelude}\n${code}`;
}

/** The pipeline-overridable constants of a kernel: WG unless the kernel sets it, then the kernel's own. */
export function pipelineConstants(constants?: Readonly<Record<string, number>>): Record<string, number> {
  return { WG, ...constants };
}
