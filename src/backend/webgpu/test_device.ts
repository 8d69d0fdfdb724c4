// The Node WebGPU runtime for kernel tests, one per test file. No adapter is a FAILURE whose message names
// the fix (the Vulkan driver variables), never a skipped test.
import { createNodeRuntime } from './node_gpu.ts';
import type { GpuRuntime } from './runtime.ts';

let shared: Promise<GpuRuntime> | null = null;

export function testRuntime(): Promise<GpuRuntime> {
  shared ??= createNodeRuntime();
  return shared;
}
