// The arm the headline of `bench learn` is about: the best distilling arm by its success in the sweep on the
// validation-unseen games (SWEEP_GAMES), never by the eval sets. The headline's sentence, comparing it with GRPO and with its cross-game control on
// eval-unseen, is written in report/learn_prose.ts.
import type { Algo } from '../../../rl/arms.ts';
import type { ArmSettings } from './sweep.ts';
import type { SweepParam, SweepPoint } from './sweep_points.ts';
import { distils, ofAlgo } from '../../../rl/arms.ts';

export interface BestArm {
  algo: Algo;
  /** Its mean success on the sweep's games (SWEEP_GAMES) at its chosen setting; null when no sweep ran. */
  validation: number | null;
  /** The setting whose sweep chose it, and every main distilling arm's success there at its chosen value. */
  param: SweepParam;
  scored: { algo: Algo; validation: number }[];
  /** The main arms that distil: without a sweep, it is the first of them. */
  candidates: number;
}

/**
 * The main distilling arm of best mean success on the sweep's games at its chosen settings (the rehearsal sweep's, the
 * last at all its other settings, else the lambda sweep's, else the learning-rate sweep's); without a sweep the only main distilling arm, or the first given. Null when none.
 */
export function bestDistillingArm(
  algos: readonly Algo[],
  settings: ReadonlyMap<Algo, ArmSettings>,
  points: readonly SweepPoint[],
): BestArm | null {
  const candidates = algos.filter(distils);
  if (!candidates.length) return null;
  const param = points.some((p) => p.param === 'rehearsal')
    ? 'rehearsal'
    : points.some((p) => p.param === 'lambda')
      ? 'lambda'
      : 'lr';
  const scored = candidates.flatMap((algo) => {
    const value = settings.get(algo)?.[param];
    const point = points.filter(ofAlgo(algo)).find((p) => p.param === param && p.value === value);
    return point ? [{ algo, validation: point.success }] : [];
  });
  const found = { param, scored, candidates: candidates.length } as const;
  if (scored.length) return { ...scored.reduce((b, s) => (s.validation > b.validation ? s : b)), ...found };
  return { algo: candidates[0], validation: null, ...found };
}
