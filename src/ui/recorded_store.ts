// The recorded run's page state, beside the live run's (store.ts): the record of the world the page shows, loaded
// from public/runs/ (or why there is none), and the update of it a person is scrubbing, which the charts mark and
// the episodes follow. The store follows the page's world (followPageWorld): a switch of the World shows that
// world's record, loading it the first time; a record once shown, or a world's lack of one, is kept for the next
// switch, and a load that failed is tried again then.
import { create } from 'zustand';
import type { EnvironmentName } from '../worlds/names.ts';
import { recordedUpdates } from './recorded_curves.ts';
import { loadNewestRecord, type RecordedLoad } from './recorded_load.ts';
import { usePlayground } from './store.ts';
import { pageWorldOf } from './world.ts';

interface RecordedState {
  /** The world whose record `recorded` is (or is being loaded); null before the first load. */
  world: EnvironmentName | null;
  recorded: RecordedLoad;
  /** The scrubbed update; the record's last recorded update once it is loaded. */
  update: number | null;
  /** Shows the newest record of `world`, fetched once per page however often it is called. */
  load: (world: EnvironmentName) => Promise<void>;
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
        let loading = pending.get(world);
        if (!loading) {
          loading = loader(world);
          pending.set(world, loading);
        }
        const recorded = await loading;
        if (pending.get(world) === loading) pending.delete(world);
        if (recorded.state !== 'failed') kept.set(world, recorded);
        // The page may have gone to another world meanwhile: the record is then kept for it, not shown.
        if (get().world === world) show(world, recorded);
      },
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

/**
 * Loads the record of the world the page shows now, and again whenever the page's world changes; called once, as
 * the page starts, so that the record is fetched while React renders. Returns the unsubscribe.
 */
export function followPageWorld(): () => void {
  const follow = () => {
    const world = pageWorldOf(usePlayground.getState());
    if (useRecorded.getState().world !== world) void useRecorded.getState().load(world);
  };
  follow();
  return usePlayground.subscribe(follow);
}
