// The saved runs in this browser's IndexedDB, shared by its tabs: one record per run under the run's id (its
// latest checkpoint, settings and curves), replaced at every periodic checkpoint of that run. Records are
// returned as stored; the engine checks each one (saved_run.ts) before offering or resuming it. A key that is
// not a string was not written by the page and is left alone.
import { openDB, type IDBPDatabase } from 'idb';
import type { RunStore } from './run_saves.ts';
import { MAX_SAVED_RUNS, runsToDrop } from './saved_run.ts';

const DB_NAME = 'seed-playground';
const STORE = 'runs';

let db: Promise<IDBPDatabase> | null = null;

function database(): Promise<IDBPDatabase> {
  db ??= openDB(DB_NAME, 1, {
    upgrade(d) {
      d.createObjectStore(STORE);
    },
  });
  return db;
}

function savedAtOf(value: unknown): unknown {
  return typeof value === 'object' && value !== null ? (value as { savedAt?: unknown }).savedAt : undefined;
}

export const indexedDbStore: RunStore = {
  async entries() {
    const tx = (await database()).transaction(STORE);
    const [keys, values] = await Promise.all([tx.store.getAllKeys(), tx.store.getAll()]);
    await tx.done;
    return keys.flatMap((key, i) => (typeof key === 'string' ? [{ key, value: values[i] as unknown }] : []));
  },
  async get(key) {
    return (await database()).get(STORE, key);
  },
  async save(run) {
    // One transaction: the put and the drops of the oldest records happen together, whatever other tabs do.
    const tx = (await database()).transaction(STORE, 'readwrite');
    await tx.store.put(run, run.id);
    const [keys, values] = await Promise.all([tx.store.getAllKeys(), tx.store.getAll()]);
    const others = keys.flatMap((key, i) =>
      typeof key === 'string' && key !== run.id ? [{ key, savedAt: savedAtOf(values[i]) }] : [],
    );
    for (const key of runsToDrop(others, MAX_SAVED_RUNS - 1)) await tx.store.delete(key);
    await tx.done;
  },
  async remove(key) {
    await (await database()).delete(STORE, key);
  },
};
