// The random streams of an update: each stage draws from its own, a function of the run seed, the update
// index and the stage's label only, so that a resumed run continues exactly as if it had never stopped.
import { Rng, hashString } from '../common/rng.ts';

/** Per-update Rng streams, derived from the run seed and the update index only. */
export function updateRng(seed: number, update: number, label: string): Rng {
  return new Rng(hashString(`update/${update}/${label}`, seed >>> 0));
}
