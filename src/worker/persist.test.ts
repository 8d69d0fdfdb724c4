// The page's IndexedDB store of saved runs (over fake-indexeddb): one record per run id, the oldest dropped past
// MAX_SAVED_RUNS, records returned as stored (a damaged one too, so that the page can name it and discard it).
import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import { indexedDbStore as store } from './persist.ts';
import { MAX_SAVED_RUNS, type SavedRun } from './saved_run.ts';
import { DEFAULT_SETTINGS } from '../rl/page_settings.ts';

function run(id: string, savedAt: number): SavedRun {
  return {
    id,
    settings: DEFAULT_SETTINGS,
    updates: 1,
    savedAt,
    curves: [],
    runs: [{ id: 'seed', current: new Uint8Array([1, 2]), reference: new Uint8Array([3]) }],
  };
}

async function keys(): Promise<string[]> {
  return (await store.entries()).map((e) => e.key).sort();
}

beforeEach(async () => {
  for (const key of await keys()) await store.remove(key);
});

describe('the store of saved runs', () => {
  it('keeps each run under its own id, so that one run never replaces another', async () => {
    await store.save(run('a', 1));
    await store.save(run('b', 2));
    await store.save({ ...run('a', 3), updates: 2 });
    expect(await keys()).toEqual(['a', 'b']);
    expect(((await store.get('a')) as SavedRun).updates).toBe(2);
    expect(((await store.get('b')) as SavedRun).runs[0].current).toEqual(new Uint8Array([1, 2]));
    expect(await store.get('c')).toBeUndefined();
  });

  it(`keeps the ${MAX_SAVED_RUNS} runs saved last, a damaged record dropped first, the run being saved never`, async () => {
    const db = await new Promise<IDBDatabase>((done) => {
      const open = indexedDB.open('seed-playground', 1);
      open.onsuccess = () => done(open.result);
    });
    await new Promise<void>((done) => {
      const put = db.transaction('runs', 'readwrite').objectStore('runs').put({ savedAt: 'never' }, 'damaged');
      put.onsuccess = () => done();
    });
    db.close();
    for (let i = 0; i < MAX_SAVED_RUNS; i++) await store.save(run(`r${i}`, 100 + i));
    expect(await keys()).toEqual(['r0', 'r1', 'r2', 'r3', 'r4']);
    await store.save(run('late', 200));
    expect(await keys()).toEqual(['late', 'r1', 'r2', 'r3', 'r4']);
    // A run saved with a clock that went back still keeps its own record.
    await store.save(run('early', 1));
    expect(await keys()).toEqual(['early', 'late', 'r2', 'r3', 'r4']);
  });

  it('returns a damaged record as stored, to be refused by the check and discarded', async () => {
    await store.save(run('a', 1));
    const damaged = { ...run('b', 2), curves: [null], updates: 1e308 };
    await store.save(damaged as unknown as SavedRun);
    const entries = await store.entries();
    expect(entries.find((e) => e.key === 'b')?.value).toEqual(damaged);
    await store.remove('b');
    expect(await keys()).toEqual(['a']);
  });
});
