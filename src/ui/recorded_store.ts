// The recorded run's page state, beside the live run's (store.ts): what was loaded from public/runs/ (or why
// nothing was), and the update of it a person is scrubbing, which the charts mark and the episodes follow.
import { create } from 'zustand';
import { recordedUpdates } from './recorded_curves.ts';
import { loadNewestRecord, type RecordedLoad } from './recorded_load.ts';

interface RecordedState {
  recorded: RecordedLoad;
  /** The scrubbed update; the record's last recorded update once it is loaded. */
  update: number | null;
  /** Fetches the newest recorded run, once per page however often it is called. */
  load: () => Promise<void>;
  setUpdate: (update: number) => void;
}

let loading: Promise<void> | null = null;

export const useRecorded = create<RecordedState>()((set) => ({
  recorded: { state: 'loading' },
  update: null,
  load: () => {
    loading ??= loadNewestRecord().then((recorded) => {
      const updates = recorded.state === 'ready' ? recordedUpdates(recorded.run) : [];
      set({ recorded, update: updates.length ? updates[updates.length - 1] : null });
    });
    return loading;
  },
  setUpdate: (update) => set({ update }),
}));
