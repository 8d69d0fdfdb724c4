// Saved runs across the tabs of one browser and through a device loss: each run saves under its own id, so a
// second tab is offered the first tab's run and never writes over it; a run whose device is lost offers its
// last checkpoint at once, and a Reset after it starts a new run under a new id.
import { beforeEach, describe, expect, it } from 'vitest';
import { CpuBackend } from '../backend/cpu/cpu_backend.ts';
import { GpuBackendLostError } from '../backend/webgpu/webgpu_backend.ts';
import { Engine } from './engine.ts';
import { TEST_SETTINGS, clearStore, memoryBrowser, memoryHost } from './engine_testing.ts';
import { indexedDbStore } from './persist.ts';
import type { EngineEvent } from './protocol.ts';
import type { SavedRun } from './saved_run.ts';

beforeEach(clearStore);

async function record(id: string): Promise<SavedRun> {
  return (await indexedDbStore.get(id)) as SavedRun;
}

function bytesOf(run: SavedRun): string {
  return run.runs.map((r) => Buffer.from(r.current).toString('base64')).join();
}

/** A host whose backends lose their device at the first loss pass after `lose.now` is set. */
function losingHost(browser = memoryBrowser()) {
  const lose = { now: false };
  const host = memoryHost(browser);
  host.createBackend = async (_choice, config, params) => ({
    backend: new (class extends CpuBackend {
      override async lossBackward(...args: Parameters<CpuBackend['lossBackward']>) {
        if (lose.now)
          throw new GpuBackendLostError({ reason: 'unknown', message: 'the adapter went away' }, 'lossBackward', 1);
        return super.lossBackward(...args);
      }
    })(config, params),
    report: { kind: 'cpu', requested: 'cpu', reason: 'requested', adapter: null, fallback: null },
  });
  return { host, lose };
}

describe('saved runs', () => {
  it("gives each tab its own record: a second tab is offered the first tab's run and never writes over it", async () => {
    const browser = memoryBrowser();
    const tabA = new Engine(memoryHost(browser));
    const a = await tabA.start(TEST_SETTINGS, null);
    await tabA.stepUpdate();
    // A tab does not offer its own training run.
    expect((await tabA.savedRuns()).runs).toEqual([]);

    const tabB = new Engine(memoryHost(browser));
    expect((await tabB.savedRuns()).runs.map((r) => [r.id, r.updates])).toEqual([[a.runId, 1]]);
    const b = await tabB.start({ ...TEST_SETTINGS, seed: 2 }, null);
    expect(b.runId).not.toBe(a.runId);
    const savedA = bytesOf(await record(a.runId));
    await tabB.stepUpdate();
    await tabB.stepUpdate();
    expect(bytesOf(await record(a.runId))).toBe(savedA);
    expect((await record(b.runId)).updates).toBe(2);

    // Resumed while tab A still trains it, the run goes on in tab B as a copy; A's record stays A's.
    const copy = await tabB.start(TEST_SETTINGS, a.runId);
    expect(copy.initial.source).toBe('a copy of the run saved at update 1 (that run is open in another tab)');
    expect(copy.runId).not.toBe(a.runId);
    await tabB.stepUpdate();
    expect(bytesOf(await record(a.runId))).toBe(savedA);
    expect((await record(copy.runId)).updates).toBe(2);
    await tabA.stepUpdate();
    expect((await record(a.runId)).updates).toBe(2);
    // Tab B's first run, let go when B went on with the copy, is offered in B now, newest first.
    expect((await tabB.savedRuns()).runs.map((r) => r.id)).toEqual([a.runId, b.runId]);

    // Once tab A is closed (its lock let go), a resume goes on under the run's own id.
    browser.locks.delete(a.runId);
    const tabC = new Engine(memoryHost(browser));
    const resumed = await tabC.start(TEST_SETTINGS, a.runId);
    expect([resumed.runId, resumed.initial.source]).toEqual([a.runId, 'the run saved at update 2']);
  });

  it('refuses a damaged record at offer time, naming the reason, and resumes nothing from it', async () => {
    const tab = new Engine(memoryHost());
    const info = await tab.start(TEST_SETTINGS, null);
    await tab.stepUpdate();
    const good = await record(info.runId);
    await indexedDbStore.save({ ...good, id: 'old-clip', settings: { ...good.settings, clip: 2 } });
    await indexedDbStore.save({ ...good, id: 'null-curve', curves: [null as never] });
    await indexedDbStore.save({ ...good, id: 'huge', updates: 1e308 });
    await tab.start(TEST_SETTINGS, null);
    const { runs, refused } = await tab.savedRuns();
    expect(runs.map((r) => r.id)).toEqual([info.runId]);
    expect(refused.sort((x, y) => (x.id < y.id ? -1 : 1))).toEqual([
      { id: 'huge', problem: 'updates is 1e+308, not a whole number in [1, 1000000000]' },
      { id: 'null-curve', problem: "curves[0] is null, not an update's metrics" },
      { id: 'old-clip', problem: 'settings: clip=2 is outside [0, 1)' },
    ]);
    await expect(tab.start(TEST_SETTINGS, 'old-clip')).rejects.toThrow(
      'the saved run cannot be resumed: settings: clip=2 is outside [0, 1)',
    );
    await expect(tab.start(TEST_SETTINGS, 'gone')).rejects.toThrow('that saved run is no longer in this browser');
  });

  it("offers the last checkpoint at once after a device loss; Reset and a step leave the lost run's record alone", async () => {
    const browser = memoryBrowser();
    const { host, lose } = losingHost(browser);
    const engine = new Engine(host);
    const events: EngineEvent[] = [];
    await engine.subscribe((e) => events.push(e));
    const lostRun = await engine.start(TEST_SETTINGS, null);
    await engine.stepUpdate();
    const saved = bytesOf(await record(lostRun.runId));

    lose.now = true;
    const message =
      /WebGPU device lost \(unknown\) during lossBackward .*resume from the last checkpoint.*Its last checkpoint \(update 1\) is offered at the top of the page/;
    await expect(engine.stepUpdate()).rejects.toThrow(message);
    expect(events.filter((e) => e.type === 'lost').map((e) => (e as { message: string }).message)).toEqual([
      expect.stringMatching(message),
    ]);
    // The offer needs no reload: the lost run is listed at once, and the run refuses to go on.
    expect((await engine.savedRuns()).runs.map((r) => [r.id, r.updates])).toEqual([[lostRun.runId, 1]]);
    await expect(engine.stepUpdate()).rejects.toThrow('this run stopped when the GPU device was lost');

    lose.now = false;
    const fresh = await engine.start(TEST_SETTINGS, null);
    expect(fresh.runId).not.toBe(lostRun.runId);
    await engine.stepUpdate();
    expect(bytesOf(await record(lostRun.runId))).toBe(saved);
    expect((await engine.savedRuns()).runs.map((r) => r.id)).toEqual([lostRun.runId]);

    const resumed = await engine.start(TEST_SETTINGS, lostRun.runId);
    expect([resumed.runId, resumed.initial.source]).toEqual([lostRun.runId, 'the run saved at update 1']);
    expect((await engine.stepUpdate()).map((m) => m.update)).toEqual([2]);
  });

  it('says so when the device is lost before the run saved anything', async () => {
    const { host, lose } = losingHost();
    const engine = new Engine(host);
    await engine.start({ ...TEST_SETTINGS, checkpointEvery: 5 }, null);
    await engine.stepUpdate();
    lose.now = true;
    await expect(engine.stepUpdate()).rejects.toThrow(/This run saved no checkpoint yet: Reset starts it again\.$/);
    expect((await engine.savedRuns()).runs).toEqual([]);
  });
});
