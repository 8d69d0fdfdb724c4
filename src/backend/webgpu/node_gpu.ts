// WebGPU in Node through the `webgpu` package (Dawn). Only Node code (tests, the CLI) imports this file;
// the dynamic import keeps the native module out of the browser bundle.
import { WebGpuUnavailableError } from './errors.ts';
import { GpuRuntime } from './runtime.ts';
import type { AcquireOptions } from './device.ts';

let nodeGpu: Promise<GPU> | null = null;

/** Node's GPU object, with the WebGPU globals (GPUBufferUsage, ...) installed on globalThis. */
export function loadNodeGpu(): Promise<GPU> {
  nodeGpu ??= import('webgpu').then(
    ({ create, globals }) => {
      Object.assign(globalThis, globals);
      return create([]);
    },
    (err: unknown) => {
      nodeGpu = null;
      throw new WebGpuUnavailableError(
        'no-webgpu',
        'node',
        `the \`webgpu\` package did not load: ${err instanceof Error ? err.message : String(err)}`,
      );
    },
  );
  return nodeGpu;
}

/** A runtime on Node's WebGPU; throws WebGpuUnavailableError naming the Vulkan driver fix. */
export async function createNodeRuntime(options: Omit<AcquireOptions, 'environment'> = {}): Promise<GpuRuntime> {
  return GpuRuntime.create(await loadNodeGpu(), { ...options, environment: 'node' });
}
