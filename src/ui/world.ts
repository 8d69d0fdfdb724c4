// The world the page shows: the training run's, or, while a run starts, the one its settings ask for. What exists
// per world apart from the run (the recorded benchmark and its finding, recorded_store.ts) is that world's.
import type { EnvironmentName } from '../worlds/names.ts';
import { usePlayground, type PlaygroundState } from './store.ts';

/** The world of the page's state (usePageWorld, outside React). */
export function pageWorldOf(s: Pick<PlaygroundState, 'runSettings' | 'settings'>): EnvironmentName {
  return (s.runSettings ?? s.settings).env;
}

export function usePageWorld(): EnvironmentName {
  return usePlayground(pageWorldOf);
}
