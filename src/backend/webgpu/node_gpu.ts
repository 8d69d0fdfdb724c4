// WebGPU in Node through the `webgpu` package (Dawn). Only Node code (tests, the CLI) imports this file;
// the dynamic import keeps the native module out of the browser bundle.
import { WebGpuUnavailableError } from './errors.ts';
import { GpuRuntime } from './runtime.ts';
import type { AcquireOptions } from './device.ts';

const nodeGpus = new Map<string, Promise<GPU>>();

/**
 * Node's GPU object, with the WebGPU globals (GPUBufferUsage, ...) installed on globalThis. `flags` are
 * Dawn's options (e.g. `adapter=NAME`); one GPU object per set of flags.
 */
export function loadNodeGpu(flags: readonly string[] = []): Promise<GPU> {
  const key = flags.join('\n');
  let gpu = nodeGpus.get(key);
  if (!gpu) {
    gpu = import('webgpu').then(
      ({ create, globals }) => {
        Object.assign(globalThis, globals);
        return create([...flags]);
      },
      (err: unknown) => {
        nodeGpus.delete(key);
        throw new WebGpuUnavailableError(
          'no-webgpu',
          'node',
          `the \`webgpu\` package did not load: ${err instanceof Error ? err.message : String(err)}`,
        );
      },
    );
    nodeGpus.set(key, gpu);
  }
  return gpu;
}

interface NodeRuntimeOptions extends Omit<AcquireOptions, 'environment'> {
  /**
   * The adapter to use instead of Dawn's choice, by name as Dawn lists its adapters (Dawn's `adapter=`
   * option; a name that matches none fails with the list).
   */
  adapter?: string;
}

/** A runtime on Node's WebGPU; throws WebGpuUnavailableError naming the Vulkan driver fix. */
export async function createNodeRuntime(options: NodeRuntimeOptions = {}): Promise<GpuRuntime> {
  const { adapter, ...acquire } = options;
  return GpuRuntime.create(await loadNodeGpu(adapter ? [`adapter=${adapter}`] : []), {
    ...acquire,
    environment: 'node',
  });
}
