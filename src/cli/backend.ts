// The compute backend a CLI command runs on, by name. WebGPU in Node comes from the `webgpu` package (Dawn);
// `npm run seed` sets the Vulkan driver variables it needs (scripts/with-webgpu-env.mjs).
import type { Backend } from '../backend/backend.ts';
import { CpuBackend } from '../backend/cpu/cpu_backend.ts';
import { WebGpuUnavailableError } from '../backend/webgpu/errors.ts';
import { createNodeRuntime } from '../backend/webgpu/node_gpu.ts';
import { WebGpuBackend } from '../backend/webgpu/webgpu_backend.ts';
import type { ModelConfig } from '../model/config.ts';
import { quote } from '../common/json.ts';
import { CliError } from './cli_error.ts';

const BACKENDS = ['cpu', 'webgpu'] as const;

/** The --backend option of a command (openBackend reads its value), with what the backend does there. */
export function backendOption(description: string) {
  return { type: 'string' as const, value: BACKENDS.join('|'), default: 'cpu', description };
}

/** A backend holding `params` as its current and reference weights. */
export async function openBackend(kind: string, config: ModelConfig, params: Float32Array): Promise<Backend> {
  if (kind === 'cpu') return new CpuBackend(config, params);
  if (kind !== 'webgpu') throw new CliError(`--backend must be ${BACKENDS.join(' or ')}, got ${quote(kind)}`, 2);
  try {
    return new WebGpuBackend(await createNodeRuntime(), config, params);
  } catch (err) {
    if (err instanceof WebGpuUnavailableError) throw new CliError(err.message);
    throw err;
  }
}
