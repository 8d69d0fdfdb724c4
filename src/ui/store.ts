// Page state: what the GPU is (or why there is none), the kernel self-test, the settings (mirrored in the URL
// hash), and the record of the runs the training worker reports. The GPU runtime and the worker handle are
// not state (neither serialisable nor rendered), so they live beside the store.
import { create } from 'zustand';
import type {
  EngineEvent,
  EngineInfo,
  RunId,
  SavedRunInfo,
  SavedRuns,
  TeacherCheckView,
  TokenTableExport,
} from '../worker/protocol.ts';
import { startEngine, type Engine } from './engine_client.ts';
import {
  EMPTY_RECORD,
  afterImport,
  applyEvent,
  recordWithCurves,
  type ColourBy,
  type OutcomeFilter,
  type RunRecord,
} from './run_record.ts';
import {
  formatHash,
  needsReset,
  parseHash,
  presetDefaultsKeeping,
  runIdsOf,
  type ParsedHash,
  type Settings,
  type SettingNotice,
} from '../rl/page_settings.ts';
import { withRecorded } from './recorded_store.ts';
import type { AdapterReport } from '../backend/webgpu/device.ts';
import { WebGpuUnavailableError, type UnavailableReason } from '../backend/webgpu/errors.ts';
import { createBrowserRuntime, type GpuRuntime } from '../backend/webgpu/runtime.ts';
import { runLogSoftmaxSelfTest, type SelfTestResult } from '../backend/webgpu/self_test.ts';
import { messageOf } from '../common/errors.ts';

export type GpuStatus =
  | { state: 'probing' }
  | { state: 'ready'; adapter: AdapterReport }
  | { state: 'unavailable'; reason: UnavailableReason | 'error'; detail: string; fix: string }
  | { state: 'lost'; adapter: AdapterReport; reason: string; message: string };

type SelfTestStatus =
  | { state: 'idle' }
  | { state: 'running' }
  | { state: 'done'; result: SelfTestResult }
  | { state: 'failed'; message: string };

type EngineStatus =
  | { state: 'starting' }
  | { state: 'ready' }
  | { state: 'playing' }
  | { state: 'busy'; what: string }
  | { state: 'failed'; message: string };

type TeacherStatus =
  | { state: 'idle' }
  | { state: 'running'; games: number }
  | { state: 'done'; result: TeacherCheckView }
  | { state: 'failed'; message: string };

interface ViewState {
  run: RunId;
  filter: OutcomeFilter;
  colourBy: ColourBy;
  selected: number | null;
}

export interface PlaygroundState {
  gpu: GpuStatus;
  selfTest: SelfTestStatus;
  settings: Settings;
  /** Settings of the run now training (they differ from `settings` until an edit is applied). */
  runSettings: Settings | null;
  notices: SettingNotice[];
  engine: EngineStatus;
  info: EngineInfo | null;
  record: RunRecord;
  view: ViewState;
  /** The runs saved in this browser that can be resumed (this tab's training run left out), and those refused. */
  saved: SavedRuns;
  /** Why the last resume failed, shown with the saved runs. */
  savedMessage: string | null;
  /** The outcome of the last checkpoint import or export, shown beside the buttons. */
  checkpointMessage: { ok: boolean; text: string } | null;
  /** The last teacher check of the shown run's policy (cleared when a run starts). */
  teacher: TeacherStatus;
  connectGpu: () => Promise<void>;
  runSelfTest: () => Promise<void>;
  /** Starts the worker and the first run from the URL hash's settings. */
  boot: () => Promise<void>;
  /** Edits settings: lambda, beta and the like apply at the next update; model, algorithm or seed restart. */
  setSettings: (next: Settings) => Promise<void>;
  /** A link opened in the address bar: its settings, and the recorded run's where it names none. */
  openLink: (link: ParsedHash) => Promise<void>;
  /** A preset's defaults in a world (the recorded run's where one ships), the algorithm, seed and backend kept. */
  setDefaults: (preset?: Settings['preset'], env?: Settings['env']) => Promise<void>;
  dismissNotices: () => void;
  play: () => Promise<void>;
  pause: () => Promise<void>;
  stepUpdate: () => Promise<void>;
  stepStage: () => Promise<void>;
  reset: () => Promise<void>;
  resume: (id: string) => Promise<void>;
  discardSaved: (id: string) => Promise<void>;
  setView: (view: Partial<ViewState>) => void;
  exportCheckpoint: () => Promise<Uint8Array | null>;
  /** The shown run's checkpoint, without a message in the checkpoint panel (for the ONNX export). */
  checkpointBytes: () => Promise<Uint8Array | null>;
  importCheckpoint: (bytes: Uint8Array) => Promise<void>;
  /** The shown run's per-token table of its open update, as JSON and CSV. */
  tokenTable: () => Promise<TokenTableExport | null>;
  runTeacherCheck: (games: number) => Promise<void>;
}

let runtime: GpuRuntime | null = null;
// One device and one worker per page, even when React mounts twice (StrictMode in development).
let connecting: Promise<void> | null = null;
let booting: Promise<void> | null = null;
let engine: Engine | null = null;
/** Applies the engine events not yet rendered; called when an engine call returns, so that the controls
 * say "ready" only over a record that holds everything the call produced. */
let flushEvents: () => void = () => undefined;
/** Forgets the events not yet rendered: those of a run that is being replaced. */
let dropEvents: () => void = () => undefined;
// The starts asked of the worker, and the one whose events the page takes: until a start returns, what arrives is
// the replaced run's (a late evaluation of another world must not read as the new run's warm start).
let startsAsked = 0;
let eventsOf = 0;

/** Shortest time between two renders of engine events. */
const FLUSH_MS = 200;

const NO_SAVED_RUNS: SavedRuns = { runs: [], refused: [] };

const initialHash = parseHash(typeof location === 'undefined' ? '' : location.hash);

/** Writes the settings into the URL without adding a history entry per keystroke. */
function writeHash(settings: Settings): void {
  if (typeof history === 'undefined') return;
  const hash = formatHash(settings);
  if (location.hash !== hash) history.replaceState(null, '', hash);
}

export const usePlayground = create<PlaygroundState>()((set, get) => ({
  gpu: { state: 'probing' },
  selfTest: { state: 'idle' },
  settings: initialHash.settings,
  runSettings: null,
  notices: initialHash.notices,
  engine: { state: 'starting' },
  info: null,
  record: EMPTY_RECORD,
  view: { run: runIdsOf(initialHash.settings.algo)[0], filter: 'all', colourBy: 'delta', selected: null },
  saved: NO_SAVED_RUNS,
  savedMessage: null,
  checkpointMessage: null,
  teacher: { state: 'idle' },

  connectGpu: () => {
    connecting ??= connect(set);
    return connecting;
  },

  boot: () => {
    booting ??= (async () => {
      // The link's settings, and the recorded run's where it names none (and a record of its world and preset ships).
      set({ settings: await withRecorded(get().settings, initialHash.named) });
      writeHash(get().settings);
      // Events are applied together, at most every FLUSH_MS and in an animation frame: a fast run sends
      // dozens per second, and re-laying out the page for each would keep the main thread busy. A hidden tab
      // gets no frames, so it flushes on the timer alone.
      let pending: EngineEvent[] = [];
      let lastFlush = 0;
      const flush = () => {
        if (pending.length === 0) return;
        const events = pending;
        pending = [];
        lastFlush = performance.now();
        set((s) => ({ record: events.reduce(applyEvent, s.record) }));
      };
      flushEvents = flush;
      dropEvents = () => {
        pending = [];
      };
      const started = startEngine((event) => {
        // The lost run's last checkpoint is offered at once.
        if (event.type === 'lost') void refreshSaved();
        if (eventsOf !== startsAsked) return;
        if (pending.length === 0) {
          const wait = Math.max(0, lastFlush + FLUSH_MS - performance.now());
          setTimeout(() => (document.hidden ? flush() : requestAnimationFrame(flush)), wait);
        }
        pending.push(event);
      });
      engine = started.engine;
      started.worker.addEventListener('error', (e) =>
        set({ engine: { state: 'failed', message: `the training worker failed: ${e.message || 'no message'}` } }),
      );
      await refreshSaved();
      await startRun(get().settings, null);
    })();
    return booting;
  },

  setSettings: async (next) => {
    const before = get().runSettings;
    set({ settings: next });
    writeHash(next);
    // After a failed start (a warm start that cannot be used) any edit starts a run.
    if (engine && !before && get().engine.state === 'failed') await startRun(next, null);
    if (!engine || !before) return;
    if (needsReset(before, next)) {
      await startRun(next, null);
    } else {
      await engine.configure(next);
      set({ runSettings: next });
    }
  },

  openLink: async (link) => {
    set({ notices: link.notices });
    await get().setSettings(await withRecorded(link.settings, link.named));
  },

  setDefaults: async (preset, env) => {
    const s = get().settings;
    await get().setSettings(await withRecorded(presetDefaultsKeeping(s, preset ?? s.preset, env ?? s.env), []));
  },

  dismissNotices: () => set({ notices: [] }),

  play: async () => {
    if (!engine || get().engine.state !== 'ready') return;
    set({ engine: { state: 'playing' } });
    try {
      await engine.play(Number.MAX_SAFE_INTEGER);
    } catch (err) {
      set((s) => ({ record: applyEvent(s.record, { type: 'error', message: messageOf(err) }) }));
    }
    flushEvents();
    set({ engine: { state: 'ready' } });
  },

  pause: async () => {
    if (!engine) return;
    await engine.pause();
  },

  stepUpdate: () => busy('running one update', async (e) => void (await e.stepUpdate())),

  stepStage: () => busy('running the next stage', async (e) => void (await e.stepStage(get().view.run))),

  reset: async () => {
    if (!engine) return;
    await engine.pause();
    await startRun(get().settings, null);
  },

  resume: async (id) => {
    const saved = get().saved.runs.find((r) => r.id === id);
    if (!engine || !saved) return;
    await engine.pause();
    const before = get().settings;
    set({ settings: saved.settings, savedMessage: null });
    writeHash(saved.settings);
    const failed = await startRun(saved.settings, id, saved);
    if (failed !== null) {
      // The page goes on with a fresh run of the settings it had; the reason stays beside the saved runs.
      set({ settings: before, savedMessage: `The saved run was not resumed: ${failed}` });
      writeHash(before);
      await startRun(before, null);
    }
  },

  discardSaved: async (id) => {
    if (!engine) return;
    try {
      await engine.discardSavedRun(id);
    } catch (err) {
      set({ savedMessage: `The saved run was not discarded: ${messageOf(err)}` });
    }
    await refreshSaved();
  },

  setView: (view) => set((s) => ({ view: { ...s.view, ...view } })),

  exportCheckpoint: async () => {
    if (!engine) return null;
    try {
      const bytes = await engine.exportCheckpoint(get().view.run);
      set({ checkpointMessage: { ok: true, text: `exported ${bytes.length} bytes` } });
      return bytes;
    } catch (err) {
      set({ checkpointMessage: { ok: false, text: `export failed: ${messageOf(err)}` } });
      return null;
    }
  },

  checkpointBytes: async () => (engine ? engine.exportCheckpoint(get().view.run) : null),

  importCheckpoint: async (bytes) => {
    if (!engine) return;
    await engine.pause();
    try {
      const imported = await engine.importCheckpoint(bytes);
      flushEvents();
      set((s) => ({ record: afterImport(s.record, imported.fromCheckpoint), teacher: { state: 'idle' } }));
      const from = imported.fromCheckpoint
        ? `its update ${imported.updates}`
        : `update ${imported.updates} with its weights`;
      set({
        checkpointMessage: {
          ok: true,
          text: `imported a checkpoint of ${bytes.length} bytes; the run goes on from ${from}`,
        },
      });
    } catch (err) {
      set({ checkpointMessage: { ok: false, text: `import refused: ${messageOf(err)}` } });
    }
  },

  tokenTable: async () => {
    if (!engine) return null;
    try {
      return await engine.tokenTable(get().view.run);
    } catch (err) {
      set((s) => ({ record: applyEvent(s.record, { type: 'error', message: messageOf(err) }) }));
      return null;
    }
  },

  runTeacherCheck: async (games) => {
    const run = get().view.run;
    set({ teacher: { state: 'running', games } });
    let teacher: TeacherStatus = { state: 'failed', message: 'the training worker is busy' };
    await busy('running the teacher check', async (e) => {
      try {
        teacher = { state: 'done', result: await e.teacherCheck(run, games) };
      } catch (err) {
        teacher = { state: 'failed', message: messageOf(err) };
      }
    });
    set({ teacher });
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

const setState = usePlayground.setState;
const getState = usePlayground.getState;

/** Reads the saved runs again: after a start (the run that was training may now be offered) and a loss. */
async function refreshSaved(): Promise<void> {
  if (!engine) return;
  try {
    setState({ saved: await engine.savedRuns() });
  } catch {
    // A browser without IndexedDB (private mode) simply has nothing to resume.
  }
}

/**
 * Starts a run in the worker (the saved run of that id when resuming) and resets the page's record to it, or
 * to the saved curves. Returns why it failed, or null.
 */
async function startRun(settings: Settings, resume: string | null, saved?: SavedRunInfo): Promise<string | null> {
  if (!engine) return 'the training worker has not started';
  const start = ++startsAsked;
  dropEvents();
  setState({
    engine: { state: 'starting' },
    record: saved ? recordWithCurves(saved.curves) : EMPTY_RECORD,
    runSettings: null,
    teacher: { state: 'idle' },
  });
  let failed: string | null = null;
  try {
    const info = await engine.start(settings, resume);
    // A later start replaced this one while it ran: that start renders its own run.
    if (start !== startsAsked) return null;
    eventsOf = start;
    const run = info.runs.includes(getState().view.run) ? getState().view.run : info.runs[0];
    flushEvents();
    setState((s) => ({
      info,
      runSettings: settings,
      engine: { state: 'ready' },
      view: { ...s.view, run, selected: null },
    }));
  } catch (err) {
    if (start !== startsAsked) return null;
    eventsOf = start;
    failed = messageOf(err);
    setState({ engine: { state: 'failed', message: failed } });
  }
  await refreshSaved();
  return failed;
}

/** Runs one engine call with the controls locked; an error is reported, never thrown at the page. */
async function busy(what: string, call: (e: Engine) => Promise<void>): Promise<void> {
  if (!engine || getState().engine.state !== 'ready') return;
  setState({ engine: { state: 'busy', what } });
  try {
    await call(engine);
  } catch (err) {
    setState((s) => ({ record: applyEvent(s.record, { type: 'error', message: messageOf(err) }) }));
  }
  flushEvents();
  setState({ engine: { state: 'ready' } });
}
