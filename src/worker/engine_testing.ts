// An engine host for tests in Node: the CPU backend, no warm start, and the page's own IndexedDB store of
// saved runs over an in-memory IndexedDB (fake-indexeddb), with run ids held in a lock table that the hosts of
// one test share, as the tabs of a browser share theirs.
import 'fake-indexeddb/auto';
import { CpuBackend } from '../backend/cpu/cpu_backend.ts';
import type { EngineHost } from './engine.ts';
import { indexedDbStore } from './persist.ts';
import { defaultSettings, type Settings } from '../rl/page_settings.ts';

/** What the tabs of one browser share besides the store: the run ids held. */
export interface Browser {
  locks: Set<string>;
  ids: number;
}

export function memoryBrowser(): Browser {
  return { locks: new Set(), ids: 0 };
}

/** Empties the store, so that each test starts from a browser with no saved run. */
export async function clearStore(): Promise<void> {
  for (const { key } of await indexedDbStore.entries()) await indexedDbStore.remove(key);
}

export function memoryHost(browser: Browser = memoryBrowser()): EngineHost & { browser: Browser } {
  return {
    browser,
    warmStart: async () => null,
    createBackend: async (_choice: Settings['backend'], config, params) => ({
      backend: new CpuBackend(config, params),
      report: { kind: 'cpu', requested: 'cpu', reason: 'requested', adapter: null, fallback: null },
    }),
    store: indexedDbStore,
    newRunId: () => `run-${++browser.ids}`,
    lockRun: async (id) => {
      if (browser.locks.has(id)) return null;
      browser.locks.add(id);
      return () => browser.locks.delete(id);
    },
    now: () => Date.now(),
    yieldToEvents: () => new Promise<void>((r) => setTimeout(r, 0)),
    sleep: (ms: number) => new Promise<void>((r) => setTimeout(r, ms)),
  };
}

// Free decoding: a random policy writes invalid commands, so rewards differ within a group and the gradient is not 0.
export const TEST_SETTINGS: Settings = {
  ...defaultSettings('micro'),
  decoding: 'free',
  groupSize: 2,
  tasksPerUpdate: 2,
  maxSteps: 4,
  history: 4,
  evalEpisodes: 2,
  checkpointEvery: 1,
};
