// The world the page shows: the training run's, or, while a run starts, the one its settings ask for. What
// exists for one world only (the household's recorded benchmark, its finding) is shown as that world's or
// left out in another.
import type { EnvironmentName } from '../worlds/names.ts';
import { usePlayground } from './store.ts';

export function usePageWorld(): EnvironmentName {
  return usePlayground((s) => (s.runSettings ?? s.settings).env);
}
