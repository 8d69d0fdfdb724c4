// The world the page shows: the training run's, or, while a run starts, the one its settings ask for. What exists
// per world apart from the run (the recorded benchmark and its finding, recorded_store.ts) is that world's.
import type { EnvironmentName } from '../worlds/names.ts';
import { useRecorded } from './recorded_store.ts';
import { usePlayground, type PlaygroundState } from './store.ts';

/** The world of the page's state (usePageWorld, outside React). */
function pageWorldOf(s: Pick<PlaygroundState, 'runSettings' | 'settings'>): EnvironmentName {
  return (s.runSettings ?? s.settings).env;
}

export function usePageWorld(): EnvironmentName {
  return usePlayground(pageWorldOf);
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
