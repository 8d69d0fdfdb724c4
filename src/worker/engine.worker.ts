// The dedicated worker that trains: the engine with the browser's host (the shipped warm start fetched from
// the site's own origin, WebGPU or the CPU backend, IndexedDB for saved runs), exposed to the page by Comlink.
import { expose } from 'comlink';
import type { Backend } from '../backend/backend.ts';
import { CpuBackend } from '../backend/cpu/cpu_backend.ts';
import { browserThreadHost } from '../backend/cpu/thread_browser.ts';
import {
  cpuThreads,
  installThreadHost,
  setCpuThreads,
  singleThreadReason,
  startThreads,
} from '../backend/cpu/threads.ts';
import { WebGpuUnavailableError } from '../backend/webgpu/errors.ts';
import { messageOf } from '../common/errors.ts';
import { createBrowserRuntime, type GpuRuntime } from '../backend/webgpu/runtime.ts';
import { WebGpuBackend } from '../backend/webgpu/webgpu_backend.ts';
import type { EnvironmentName } from '../worlds/names.ts';
import { shipsWarmStart, warmStartFile, type ModelConfig, type PresetName } from '../model/config.ts';
import { decideBackend } from './backend_choice.ts';
import { Engine, type EngineHost } from './engine.ts';
import { engineWorkerOptions } from './engine_worker_name.ts';
import { indexedDbStore } from './persist.ts';
import type { BackendReport } from './protocol.ts';
import type { RunStore } from './run_saves.ts';
import type { BackendChoice } from '../rl/page_settings.ts';

const options = engineWorkerOptions(self.name, self.location.href);
if (options.threads !== null) setCpuThreads(options.threads);

/**
 * The shipped warm start of a world's preset, beside the page (public/ in the repository). The worker's name
 * holds the site's root URL (engine_client.ts, engine_worker_name.ts): the worker's own script lives elsewhere
 * (assets/), and the site may be served from any sub-path.
 */
function warmStartUrl(preset: PresetName, env: EnvironmentName): URL {
  return new URL(warmStartFile(preset, env), options.siteRoot);
}

/** A race arm's store: its run is never checkpointed to the browser, so it never displaces the page's saved runs. */
const keepNothing: RunStore = {
  entries: async () => [],
  get: async () => undefined,
  save: async () => undefined,
  remove: async () => undefined,
};

let runtime: Promise<GpuRuntime> | null = null;

/** One device per worker, shared by the runs; a lost one is replaced at the next start. */
function gpuRuntime(): Promise<GpuRuntime> {
  runtime ??= createBrowserRuntime().then((gpu) => {
    gpu.onLost(() => (runtime = null));
    return gpu;
  });
  runtime.catch(() => (runtime = null));
  return runtime;
}

async function probe(): Promise<{ adapter: GpuRuntime['adapter'] } | { unavailable: { detail: string; fix: string } }> {
  try {
    return { adapter: (await gpuRuntime()).adapter };
  } catch (err) {
    if (err instanceof WebGpuUnavailableError) return { unavailable: { detail: err.detail, fix: err.fix } };
    return { unavailable: { detail: err instanceof Error ? err.message : String(err), fix: 'reload the page' } };
  }
}

async function createBackend(
  choice: BackendChoice,
  config: ModelConfig,
  params: Float32Array,
): Promise<{ backend: Backend; report: BackendReport }> {
  const probed = choice === 'cpu' ? null : await probe();
  const decision = decideBackend(choice, probed);
  const adapter = probed && 'adapter' in probed ? probed.adapter : null;
  if (decision.kind === 'webgpu') {
    // The backend picks its matmul variant from the adapter (vec4 on software adapters, tiled on GPUs).
    const backend = new WebGpuBackend(await gpuRuntime(), config, params);
    return { backend, report: { kind: 'webgpu', requested: choice, reason: decision.reason, adapter, fallback: null } };
  }
  // The CPU backend's workers start now, so that the first update does not wait for them.
  const threads = await startThreads(cpuThreads());
  const single =
    threads > 1
      ? null
      : (singleThreadReason() ??
        (cpuThreads() > 1
          ? 'its worker threads did not start'
          : options.threads === 1
            ? 'the page gave it one thread'
            : 'this machine reports one core'));
  return {
    backend: new CpuBackend(config, params, { threads }),
    report: {
      kind: 'cpu',
      requested: choice,
      reason: decision.reason,
      adapter,
      fallback: decision.fallback,
      cpuThreads: { threads, single },
    },
  };
}

/**
 * Holds a run's id with a Web Lock, shared by the site's tabs and let go when this worker ends. Without the
 * Locks API no tab can tell, so the id is taken as free.
 */
function lockRun(id: string): Promise<(() => void) | null> {
  if (!navigator.locks) return Promise.resolve(() => undefined);
  return new Promise((taken) => {
    void navigator.locks.request(`seed-playground-run-${id}`, { ifAvailable: true }, (lock) => {
      if (!lock) return taken(null);
      return new Promise<void>((release) => taken(() => release()));
    });
  });
}

// Workers of the CPU backend: Web Workers nested in this one, where the page is cross-origin isolated.
installThreadHost(browserThreadHost);

const host: EngineHost = {
  async warmStart(preset, env) {
    // A world's preset without a shipped warm start starts from seeded random weights.
    if (!shipsWarmStart(preset, env)) return null;
    const url = warmStartUrl(preset, env);
    const name = url.pathname.split('/').pop();
    const response = await fetch(url).catch((err: unknown) => {
      throw new Error(`could not load the warm start ${name}: ${messageOf(err)}`);
    });
    if (!response.ok)
      throw new Error(`could not load the warm start ${name}: the server answered HTTP ${response.status}`);
    return { bytes: new Uint8Array(await response.arrayBuffer()), source: `the shipped warm start (${name})` };
  },
  createBackend,
  store: options.keepRuns ? indexedDbStore : keepNothing,
  newRunId: () => crypto.randomUUID(),
  lockRun,
  now: () => Date.now(),
  yieldToEvents: () => new Promise((done) => setTimeout(done, 0)),
  sleep: (ms) => new Promise((done) => setTimeout(done, ms)),
};

expose(new Engine(host));
