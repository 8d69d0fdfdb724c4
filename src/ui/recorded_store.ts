// The recorded run's page state, beside the live run's (store.ts): the record of the world the page shows, loaded
// from public/runs/ (or why there is none), and the update of it a person is scrubbing, which the charts mark and
// the episodes follow. The store follows the page's world (world.ts, followPageWorld): a switch of the World shows
// that world's record, loading it the first time; a record once shown, or a world's lack of one, is kept for the next
// switch, and a load that failed is tried again then. The live run reads a world's record too (recordOf), for the
// settings it starts at, through the same loads.
import { create } from 'zustand';
import type { EnvironmentName } from '../worlds/names.ts';
import { recordedUpdates } from './recorded_curves.ts';
import { loadNewestRecord, type RecordedLoad } from './recorded_load.ts';
import type { Settings } from '../rl/page_settings.ts';
import { withRecordedDefaults } from '../rl/recorded_defaults.ts';

interface RecordedState {
  /** The world whose record `recorded` is (or is being loaded); null before the first load. */
  world: EnvironmentName | null;
  recorded: RecordedLoad;
  /** The scrubbed update; the record's last recorded update once it is loaded. */
  update: number | null;
  /** Shows the newest record of `world`, fetched once per page however often it is called. */
  load: (world: EnvironmentName) => Promise<void>;
  /** The newest record of `world`, or why there is none, without showing it (fetched once, as `load` fetches). */
  recordOf: (world: EnvironmentName) => Promise<RecordedLoad>;
  setUpdate: (update: number) => void;
}

const LOADING: RecordedLoad = { state: 'loading' };

/** A store of the recorded run that loads a world's record with `loader` (tests give their own). */
export function recordedStore(loader: (world: EnvironmentName) => Promise<RecordedLoad> = loadNewestRecord) {
  /** Each world's record once loaded, or why it has none; a failure is not kept, so a later switch tries again. */
  const kept = new Map<EnvironmentName, RecordedLoad>();
  const pending = new Map<EnvironmentName, Promise<RecordedLoad>>();
  return create<RecordedState>()((set, get) => {
    const show = (world: EnvironmentName, recorded: RecordedLoad) => {
      const updates = recorded.state === 'ready' ? recordedUpdates(recorded.run) : [];
      set({ world, recorded, update: updates.length ? updates[updates.length - 1] : null });
    };
    /** The world's record: kept, on its way, or fetched now. */
    const recordOf = async (world: EnvironmentName): Promise<RecordedLoad> => {
      const known = kept.get(world);
      if (known) return known;
      let loading = pending.get(world);
      if (!loading) {
        loading = loader(world);
        pending.set(world, loading);
      }
      const recorded = await loading;
      if (pending.get(world) === loading) pending.delete(world);
      if (recorded.state !== 'failed') kept.set(world, recorded);
      return recorded;
    };
    return {
      world: null,
      recorded: LOADING,
      update: null,
      load: async (world) => {
        if (get().world === world) {
          await pending.get(world);
          return;
        }
        const known = kept.get(world);
        if (known) return show(world, known);
        set({ world, recorded: LOADING, update: null });
        const recorded = await recordOf(world);
        // The page may have gone to another world meanwhile: the record is then kept for it, not shown.
        if (get().world === world) show(world, recorded);
      },
      recordOf,
      setUpdate: (update) => set({ update }),
    };
  });
}

export const useRecorded = recordedStore();

/**
 * The recorded run of `world`: the store's, or loading while the store still holds another world's (a component
 * may render with the page's new world before the store follows it).
 */
export function useRecordedOf(world: EnvironmentName): RecordedLoad {
  return useRecorded((s) => (s.world === world ? s.recorded : LOADING));
}

/** `settings` with the recorded run's of their world where one ships for their preset; the `named` ones kept. */
export async function withRecorded(settings: Settings, named: readonly (keyof Settings)[]): Promise<Settings> {
  const load = await useRecorded.getState().recordOf(settings.env);
  return withRecordedDefaults(settings, load.state === 'ready' ? load.run : null, named);
}
