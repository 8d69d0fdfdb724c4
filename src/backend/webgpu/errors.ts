// Typed failures of the WebGPU runtime. Each carries what a person needs to fix it, so the page can show a
// banner and the CLI a one-line message without parsing strings.

export type GpuEnvironment = 'browser' | 'node';

export type UnavailableReason =
  /** No WebGPU API at all (navigator.gpu missing, or the `webgpu` package failed to load). */
  | 'no-webgpu'
  /** The API exists but requestAdapter() gave no adapter (no driver, or WebGPU blocked). */
  | 'no-adapter'
  /** The adapter exists but lacks a limit this project needs. */
  | 'insufficient-limits'
  /** requestDevice() failed. */
  | 'device-request-failed';

const BROWSER_FIX =
  'use a WebGPU-capable browser (Chrome/Edge 113+, Firefox 141+, Safari 26+) on a secure page (https or ' +
  'localhost); in Chromium on Linux start it with --enable-unsafe-webgpu (and check chrome://gpu)';

const NODE_FIX =
  "Node's WebGPU (the `webgpu` package, Dawn) needs a Vulkan driver: a GPU's own (its vendor's Vulkan ICD), or " +
  "the software one of Debian's chromium package, run with " +
  'VK_DRIVER_FILES=/usr/lib/chromium/vk_swiftshader_icd.json LD_LIBRARY_PATH=/usr/lib/chromium ' +
  '(node scripts/with-webgpu-env.mjs <command> sets both on a machine without a GPU driver)';

function fixFor(environment: GpuEnvironment, reason: UnavailableReason): string {
  if (reason === 'insufficient-limits') return 'use a device with a more capable GPU, or a smaller model preset';
  if (environment === 'node' && reason === 'no-webgpu')
    return 'run `npm install` so that the `webgpu` package is present';
  return environment === 'browser' ? BROWSER_FIX : NODE_FIX;
}

export class WebGpuUnavailableError extends Error {
  readonly fix: string;

  constructor(
    readonly reason: UnavailableReason,
    readonly environment: GpuEnvironment,
    readonly detail: string,
    fix?: string,
  ) {
    const resolvedFix = fix ?? fixFor(environment, reason);
    super(`WebGPU unavailable (${reason}): ${detail}. Fix: ${resolvedFix}`);
    this.name = 'WebGpuUnavailableError';
    this.fix = resolvedFix;
  }
}

export interface DeviceLostInfo {
  /** 'destroyed' when this program disposed the device on purpose; anything else is a real loss. */
  reason: GPUDeviceLostReason;
  message: string;
}

export class DeviceLostError extends Error {
  constructor(readonly info: DeviceLostInfo) {
    super(`WebGPU device lost (${info.reason}): ${info.message || 'no message'}`);
    this.name = 'DeviceLostError';
  }
}

/** A validation or out-of-memory error raised by the GPU for one stage of work. */
export class GpuStageError extends Error {
  constructor(
    readonly stage: string,
    readonly gpuMessage: string,
  ) {
    super(`WebGPU error in stage "${stage}": ${gpuMessage}`);
    this.name = 'GpuStageError';
  }
}
