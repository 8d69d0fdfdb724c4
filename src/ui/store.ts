// Page state: what the GPU is (or why there is none) and the kernel self-test. The runtime itself is not
// state (it is neither serialisable nor rendered), so it lives beside the store.
import { create } from 'zustand';
import type { AdapterReport } from '../backend/webgpu/device.ts';
import { WebGpuUnavailableError, type UnavailableReason } from '../backend/webgpu/errors.ts';
import { createBrowserRuntime, type GpuRuntime } from '../backend/webgpu/runtime.ts';
import { runLogSoftmaxSelfTest, type SelfTestResult } from '../backend/webgpu/self_test.ts';

export type GpuStatus =
  | { state: 'probing' }
  | { state: 'ready'; adapter: AdapterReport }
  | { state: 'unavailable'; reason: UnavailableReason | 'error'; detail: string; fix: string }
  | { state: 'lost'; adapter: AdapterReport; reason: string; message: string };

export type SelfTestStatus =
  | { state: 'idle' }
  | { state: 'running' }
  | { state: 'done'; result: SelfTestResult }
  | { state: 'failed'; message: string };

export interface PlaygroundState {
  gpu: GpuStatus;
  selfTest: SelfTestStatus;
  connectGpu: () => Promise<void>;
  runSelfTest: () => Promise<void>;
}

let runtime: GpuRuntime | null = null;
// One device per page, even when React mounts twice (StrictMode in development).
let connecting: Promise<void> | null = null;

export const usePlayground = create<PlaygroundState>()((set, get) => ({
  gpu: { state: 'probing' },
  selfTest: { state: 'idle' },

  connectGpu: () => {
    connecting ??= connect(set);
    return connecting;
  },

  runSelfTest: async () => {
    if (get().selfTest.state === 'running') return;
    if (!runtime) {
      set({ selfTest: { state: 'failed', message: 'no WebGPU device' } });
      return;
    }
    set({ selfTest: { state: 'running' } });
    try {
      set({ selfTest: { state: 'done', result: await runLogSoftmaxSelfTest(runtime) } });
    } catch (err) {
      set({ selfTest: { state: 'failed', message: err instanceof Error ? err.message : String(err) } });
    }
  },
}));

async function connect(set: (partial: Partial<PlaygroundState>) => void): Promise<void> {
  set({ gpu: { state: 'probing' } });
  try {
    const gpu = await createBrowserRuntime();
    runtime = gpu;
    gpu.onUncapturedError((message) => console.error(`WebGPU: ${message}`));
    gpu.onLost((info) => {
      runtime = null;
      set({ gpu: { state: 'lost', adapter: gpu.adapter, reason: info.reason, message: info.message } });
    });
    set({ gpu: { state: 'ready', adapter: gpu.adapter } });
  } catch (err) {
    if (err instanceof WebGpuUnavailableError) {
      set({ gpu: { state: 'unavailable', reason: err.reason, detail: err.detail, fix: err.fix } });
    } else {
      const detail = err instanceof Error ? err.message : String(err);
      set({ gpu: { state: 'unavailable', reason: 'error', detail, fix: 'reload the page' } });
    }
  }
}
