// Compute pipelines keyed by shader source, entry point, binding kinds and constants: every kernel wrapper
// asks for its pipeline on each dispatch and only the first ask compiles. Every module is built with the
// WGSL prelude in front and every pipeline gets its WG (prelude.ts).
import type { BindingKind, KernelSpec } from './kernel.ts';
import { moduleSource, pipelineConstants } from './prelude.ts';

interface CachedPipeline {
  pipeline: GPUComputePipeline;
  layout: GPUBindGroupLayout;
}

export class PipelineCache {
  private readonly modules = new Map<string, { module: GPUShaderModule; id: number }>();
  private readonly layouts = new Map<string, GPUBindGroupLayout>();
  private readonly pipelines = new Map<string, CachedPipeline>();
  /** The same pipelines by kernel object: wrappers hold their specs as constants, so a dispatch builds no key. */
  private readonly byKernel = new WeakMap<KernelSpec, CachedPipeline>();

  constructor(private readonly device: GPUDevice) {}

  get(kernel: KernelSpec): CachedPipeline {
    const known = this.byKernel.get(kernel);
    if (known) return known;
    const module = this.module(kernel.code);
    const bindingsKey = kernel.bindings.join(',');
    const constants = pipelineConstants(kernel.constants);
    const key = `${module.id}|${kernel.entryPoint}|${bindingsKey}|${constantsKey(constants)}`;
    let cached = this.pipelines.get(key);
    if (!cached) {
      const layout = this.layout(kernel.bindings, bindingsKey);
      const pipeline = this.device.createComputePipeline({
        label: kernel.entryPoint,
        layout: this.device.createPipelineLayout({ bindGroupLayouts: [layout] }),
        compute: { module: module.module, entryPoint: kernel.entryPoint, constants },
      });
      cached = { pipeline, layout };
      this.pipelines.set(key, cached);
    }
    this.byKernel.set(kernel, cached);
    return cached;
  }

  /** Number of compiled pipelines. */
  get size(): number {
    return this.pipelines.size;
  }

  private module(code: string): { module: GPUShaderModule; id: number } {
    let entry = this.modules.get(code);
    if (!entry) {
      entry = { module: this.device.createShaderModule({ code: moduleSource(code) }), id: this.modules.size };
      this.modules.set(code, entry);
    }
    return entry;
  }

  private layout(bindings: readonly BindingKind[], key: string): GPUBindGroupLayout {
    let layout = this.layouts.get(key);
    if (!layout) {
      layout = this.device.createBindGroupLayout({
        label: key,
        entries: bindings.map((kind, binding) => ({
          binding,
          visibility: GPUShaderStage.COMPUTE,
          buffer: { type: BUFFER_TYPE[kind] },
        })),
      });
      this.layouts.set(key, layout);
    }
    return layout;
  }
}

const BUFFER_TYPE: Record<BindingKind, GPUBufferBindingType> = {
  uniform: 'uniform',
  read: 'read-only-storage',
  write: 'storage',
};

function constantsKey(constants: Readonly<Record<string, number>>): string {
  return Object.keys(constants)
    .sort()
    .map((name) => `${name}=${constants[name]}`)
    .join(',');
}
