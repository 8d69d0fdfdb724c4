// How the trainer, the CLI and the worker get a compute backend by name. The CPU reference is always here;
// the WebGPU backend registers its factory (registerBackendFactory('webgpu', ...)) from its own module, and
// until one is registered asking for it is a clear BackendUnavailableError, never a crash.
import type { Backend } from '../backend/backend.ts';
import { CpuBackend } from '../backend/cpu/cpu_backend.ts';
import type { ModelConfig } from '../model/config.ts';

export type BackendKind = 'cpu' | 'webgpu';
export type BackendFactory = (config: ModelConfig, params: Float32Array) => Promise<Backend>;

export class BackendUnavailableError extends Error {
  constructor(readonly kind: string, detail: string) {
    super(`the ${kind} backend is not available: ${detail}`);
    this.name = 'BackendUnavailableError';
  }
}

const factories = new Map<string, BackendFactory>([['cpu', async (config, params) => new CpuBackend(config, params)]]);

export function registerBackendFactory(kind: BackendKind, factory: BackendFactory): void {
  factories.set(kind, factory);
}

export function isBackendKind(kind: string): kind is BackendKind {
  return kind === 'cpu' || kind === 'webgpu';
}

/** A backend holding `params` as its current and reference weights. */
export async function createBackend(kind: string, config: ModelConfig, params: Float32Array): Promise<Backend> {
  if (!isBackendKind(kind)) throw new BackendUnavailableError(kind, 'unknown backend (known: cpu, webgpu)');
  const factory = factories.get(kind);
  if (!factory) throw new BackendUnavailableError(kind, 'no WebGPU backend is registered in this build; use --backend cpu');
  return factory(config, params);
}
