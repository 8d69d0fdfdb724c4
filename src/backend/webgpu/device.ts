// Device acquisition from any GPU object: navigator.gpu in a page or worker, or the `webgpu` package in
// Node (see node_gpu.ts, kept apart so the browser bundle never sees that import). Checks the adapter's
// limits before asking for them, so a device either has what the kernels need or fails with a clear reason.
import { messageOf } from '../../common/errors.ts';
import { WebGpuUnavailableError, type GpuEnvironment } from './errors.ts';

export type LimitName =
  | 'maxStorageBufferBindingSize'
  | 'maxBufferSize'
  | 'maxStorageBuffersPerShaderStage'
  | 'maxComputeWorkgroupsPerDimension'
  | 'maxComputeInvocationsPerWorkgroup'
  | 'maxComputeWorkgroupSizeX'
  | 'maxComputeWorkgroupStorageSize'
  | 'maxUniformBufferBindingSize';

/** Minimums every kernel may rely on (the WebGPU core defaults; compatibility-mode adapters fall short). */
const REQUIRED_LIMITS: Readonly<Partial<Record<LimitName, number>>> = {
  maxComputeInvocationsPerWorkgroup: 256,
  maxComputeWorkgroupSizeX: 256,
  maxStorageBuffersPerShaderStage: 8,
  maxComputeWorkgroupStorageSize: 16384,
  maxComputeWorkgroupsPerDimension: 65535,
};

/** Limits raised to what the adapter offers, up to a cap: bigger models need bigger buffers. */
const WANTED_LIMITS: Readonly<Partial<Record<LimitName, number>>> = {
  maxStorageBufferBindingSize: 1 << 30,
  maxBufferSize: 1 << 30,
  maxStorageBuffersPerShaderStage: 10,
};

/** Features asked for when the adapter has them (timestamp-query lets benchmarks time single passes). */
const OPTIONAL_FEATURES: readonly GPUFeatureName[] = ['timestamp-query'];

export interface AdapterReport {
  environment: GpuEnvironment;
  vendor: string;
  architecture: string;
  device: string;
  description: string;
  isFallback: boolean;
}

export interface AcquireOptions {
  environment: GpuEnvironment;
  /** Extra minimums on top of REQUIRED_LIMITS (the larger value wins). */
  required?: Partial<Record<LimitName, number>>;
  powerPreference?: GPUPowerPreference;
}

interface AcquiredDevice {
  device: GPUDevice;
  adapter: AdapterReport;
  /** The limits asked for and granted. */
  limits: Partial<Record<LimitName, number>>;
}

/** The page's or worker's GPU object, or a typed error saying how to get one. */
export function browserGpu(nav: { gpu?: GPU } | undefined = globalThis.navigator as { gpu?: GPU } | undefined): GPU {
  if (!nav?.gpu) {
    const insecure = typeof globalThis.isSecureContext === 'boolean' && !globalThis.isSecureContext;
    throw new WebGpuUnavailableError(
      'no-webgpu',
      'browser',
      insecure
        ? 'navigator.gpu is missing because this page is not a secure context'
        : 'this browser exposes no navigator.gpu',
    );
  }
  return nav.gpu;
}

export async function acquireDevice(gpu: GPU, options: AcquireOptions): Promise<AcquiredDevice> {
  const { environment } = options;
  let adapter: GPUAdapter | null;
  try {
    adapter = await gpu.requestAdapter({ powerPreference: options.powerPreference ?? 'high-performance' });
  } catch (err) {
    throw new WebGpuUnavailableError('no-adapter', environment, `requestAdapter() failed: ${messageOf(err)}`);
  }
  if (!adapter) throw new WebGpuUnavailableError('no-adapter', environment, 'requestAdapter() returned no adapter');

  const limits = chooseLimits(adapter.limits, options.required ?? {}, environment);
  const requiredFeatures = OPTIONAL_FEATURES.filter((feature) => adapter.features.has(feature));
  let device: GPUDevice;
  try {
    device = await adapter.requestDevice({ label: 'seed-playground', requiredLimits: limits, requiredFeatures });
  } catch (err) {
    throw new WebGpuUnavailableError('device-request-failed', environment, `requestDevice() failed: ${messageOf(err)}`);
  }
  return { device, adapter: describeAdapter(adapter, environment), limits };
}

/** Required minimums checked against the adapter, wanted limits raised to min(adapter, cap). */
export function chooseLimits(
  adapterLimits: GPUSupportedLimits,
  extra: Partial<Record<LimitName, number>>,
  environment: GpuEnvironment,
): Partial<Record<LimitName, number>> {
  const chosen: Partial<Record<LimitName, number>> = {};
  const required: Partial<Record<LimitName, number>> = { ...REQUIRED_LIMITS };
  for (const [name, value] of Object.entries(extra) as [LimitName, number][]) {
    required[name] = Math.max(required[name] ?? 0, value);
  }
  const short: string[] = [];
  for (const [name, need] of Object.entries(required) as [LimitName, number][]) {
    const has = adapterLimits[name];
    if (has < need) short.push(`${name} ${has} < ${need}`);
    else chosen[name] = need;
  }
  if (short.length > 0) {
    throw new WebGpuUnavailableError('insufficient-limits', environment, `the adapter lacks ${short.join(', ')}`);
  }
  for (const [name, cap] of Object.entries(WANTED_LIMITS) as [LimitName, number][]) {
    chosen[name] = Math.max(chosen[name] ?? 0, Math.min(adapterLimits[name], cap));
  }
  return chosen;
}

function describeAdapter(adapter: GPUAdapter, environment: GpuEnvironment): AdapterReport {
  const info = adapter.info as Partial<GPUAdapterInfo> | undefined;
  const legacyFallback = (adapter as { isFallbackAdapter?: boolean }).isFallbackAdapter;
  return {
    environment,
    vendor: info?.vendor || 'unknown',
    architecture: info?.architecture || 'unknown',
    device: info?.device || '',
    description: info?.description || '',
    isFallback: Boolean(info?.isFallbackAdapter ?? legacyFallback ?? false),
  };
}

/** Software rasterisers (SwiftShader, llvmpipe, lavapipe, softpipe, WARP): WGSL runs on the CPU's cores. */
const SOFTWARE = /swiftshader|llvmpipe|lavapipe|softpipe|warp|microsoft basic render|software/i;

/** A software adapter, or one the implementation marks as a fallback. */
export function isSoftwareAdapter(a: AdapterReport): boolean {
  return a.isFallback || SOFTWARE.test(`${a.vendor} ${a.architecture} ${a.device} ${a.description}`);
}

/** One line for logs and the CLI: "google swiftshader (SwiftShader driver 5.0.0), fallback". */
export function formatAdapter(report: AdapterReport): string {
  const description = report.description ? ` (${report.description})` : '';
  return `${report.vendor} ${report.architecture}${description}${report.isFallback ? ', fallback' : ''}`;
}
