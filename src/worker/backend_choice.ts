// Which backend trains, decided from what the settings ask and what adapter WebGPU offers. A software
// adapter (SwiftShader, llvmpipe, WARP, or one the browser marks as fallback) runs WGSL on the CPU, slower
// than the plain TypeScript path (bench/kernels.md measures both); a hardware adapter is far faster.
import { isSoftwareAdapter, type AdapterReport } from '../backend/webgpu/device.ts';
import type { BackendChoice } from '../rl/page_settings.ts';

export { isSoftwareAdapter };

export type Decision =
  | { kind: 'cpu'; reason: string; fallback: { detail: string; fix: string } | null }
  | { kind: 'webgpu'; reason: string; software: boolean };

/**
 * The decision for a request, given the adapter or why there is none. `cpu` never needs an adapter;
 * `webgpu` uses any adapter, software or not; `auto` takes WebGPU only on a hardware adapter.
 */
export function decideBackend(
  requested: BackendChoice,
  probe: { adapter: AdapterReport } | { unavailable: { detail: string; fix: string } } | null,
): Decision {
  if (requested === 'cpu')
    return { kind: 'cpu', reason: 'the CPU backend was requested (backend=cpu)', fallback: null };
  if (probe === null || 'unavailable' in probe) {
    const why =
      probe && 'unavailable' in probe ? probe.unavailable : { detail: 'WebGPU was not probed', fix: 'reload the page' };
    return { kind: 'cpu', reason: 'WebGPU is unavailable here, so the CPU backend trains', fallback: why };
  }
  const software = isSoftwareAdapter(probe.adapter);
  if (requested === 'webgpu') {
    return {
      kind: 'webgpu',
      reason: software
        ? 'WebGPU was requested (backend=webgpu); this adapter is a software one, slower than the CPU path'
        : 'WebGPU was requested (backend=webgpu)',
      software,
    };
  }
  if (software) {
    return {
      kind: 'cpu',
      reason:
        'the only WebGPU adapter is a software rasteriser, slower here than the CPU path; backend=webgpu forces it',
      fallback: null,
    };
  }
  return { kind: 'webgpu', reason: 'a hardware GPU adapter is far faster than the CPU path', software: false };
}
