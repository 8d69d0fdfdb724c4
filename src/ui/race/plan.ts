// How a race is set up from the page's settings: GRPO against one hindsight arm (the exact arm, seed-exact,
// unless the page already runs another hindsight arm), both with every other setting of the page, so that
// the same seed draws the same training tasks and the same eval games in both; and the cores split between
// the two arms' workers.
import type { Algo } from '../../rl/arms.ts';
import type { Settings } from '../../rl/page_settings.ts';
import { isBaseline } from '../../rl/arms.ts';

/** The arm raced against GRPO when the page's algorithm is not itself a hindsight arm. */
const DEFAULT_SEED_ARM: Algo = 'seed-exact';

export interface RacePlan {
  /** [GRPO, the hindsight arm]: the order of the arms everywhere in the race. */
  arms: readonly [Algo, Algo];
  /** Each arm's settings: the page's, with the arm's algorithm. */
  settings: readonly [Settings, Settings];
  /** CPU threads of each arm's backend: half the cores, at least one. */
  threads: number;
}

export function racePlan(page: Settings, cores: number): RacePlan {
  const seedArm: Algo = page.algo !== 'both' && !isBaseline(page.algo) ? page.algo : DEFAULT_SEED_ARM;
  return {
    arms: ['grpo', seedArm],
    settings: [
      { ...page, algo: 'grpo' },
      { ...page, algo: seedArm },
    ],
    threads: Math.max(1, Math.floor(cores / 2)),
  };
}

/** The page's settings that differ from those a race started with (the algorithm aside): they apply to the next race. */
export function changedSinceStart(started: Settings, page: Settings): (keyof Settings)[] {
  return (Object.keys(started) as (keyof Settings)[]).filter((key) => key !== 'algo' && started[key] !== page[key]);
}

/** The cores the browser reports (1 where it reports none). */
export function coresHere(): number {
  return globalThis.navigator?.hardwareConcurrency || 1;
}
