// How the arms of `bench learn` relate, read from their records (rl/arms.ts): which arm each control or ablation
// is compared with and takes its settings from, and each distilling arm's cross-game control. A part control
// (`<arm>-<part>`) varies its arm.
import { ALGOS, ARMS, distils, type Algo } from '../../../rl/arms.ts';

/**
 * The control that gives a distilling arm another game's skill of the same task type (the right kind of
 * advice, the wrong facts): what the arm must beat for the facts of its own game to carry credit.
 */
export const CROSSGAME_CONTROL: Readonly<Partial<Record<Algo, Algo>>> = Object.fromEntries(
  ALGOS.filter((a) => ARMS[a].part === 'crossgame').map((a) => [ARMS[a].arm, a]),
);

/**
 * The main arm whose learning rate and lambda a control or ablation runs at: the arm it varies when that is a
 * main arm, else seed, else the first main arm that distils; null when no main arm distils.
 */
export function settingsSource(arm: Algo, mains: readonly Algo[]): Algo | null {
  const controlled = ARMS[arm].varies;
  if (controlled !== null && mains.includes(controlled)) return controlled;
  if (mains.includes('seed')) return 'seed';
  return mains.find(distils) ?? null;
}
