// The saved run in this browser's IndexedDB: one record (the latest checkpoint of the run, its settings and
// curves), replaced at every periodic checkpoint. Checkpoint bytes are checked again (model/checkpoint.ts)
// when the run is resumed, so a damaged record is refused with a clear message, never half-loaded.
import { openDB, type IDBPDatabase } from 'idb';
import type { RunStore, SavedRun } from './engine.ts';
import { settingsFrom } from './settings.ts';

const DB_NAME = 'seed-playground';
const STORE = 'runs';
const KEY = 'latest';

let db: Promise<IDBPDatabase> | null = null;

function database(): Promise<IDBPDatabase> {
  db ??= openDB(DB_NAME, 1, {
    upgrade(d) {
      d.createObjectStore(STORE);
    },
  });
  return db;
}

function isSavedRun(v: unknown): v is SavedRun {
  if (typeof v !== 'object' || v === null) return false;
  const r = v as Partial<SavedRun>;
  return typeof r.updates === 'number' && typeof r.savedAt === 'number' && typeof r.settings === 'object' && Array.isArray(r.curves) && Array.isArray(r.runs);
}

export const indexedDbStore: RunStore = {
  async load() {
    const value: unknown = await (await database()).get(STORE, KEY);
    if (!isSavedRun(value)) return null;
    return { ...value, settings: settingsFrom(value.settings).settings };
  },
  async save(run) {
    await (await database()).put(STORE, run, KEY);
  },
  async clear() {
    await (await database()).delete(STORE, KEY);
  },
};
