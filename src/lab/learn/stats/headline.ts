// The headline of `bench learn`: the best distilling arm (by validation success in the sweep, never by the
// eval sets) against GRPO and against its cross-game control on eval-unseen, final success and area under the
// curve, in a sentence written from the numbers.
import type { Algo } from '../../../rl/arms.ts';
import { CROSSGAME_CONTROL } from '../plan/arms.ts';
import { differenceCell, type Difference } from './differences.ts';
import { pct, type Estimate } from './stats.ts';
import type { ArmSettings, SweepPoint } from '../sweeps/sweep.ts';
import { distils, ofAlgo } from '../../../rl/arms.ts';

export interface BestArm {
  algo: Algo;
  /** Its mean validation success at its chosen setting; null when no sweep ran. */
  validation: number | null;
  /** Why it is the one: the phrase the headline gives. */
  why: string;
}

/**
 * The main distilling arm of best mean validation success at its chosen settings (the lambda sweep's, else the
 * learning-rate sweep's); without a sweep the only main distilling arm, or the first given. Null when none.
 */
export function bestDistillingArm(
  algos: readonly Algo[],
  settings: ReadonlyMap<Algo, ArmSettings>,
  points: readonly SweepPoint[],
): BestArm | null {
  const candidates = algos.filter(distils);
  if (!candidates.length) return null;
  const param = points.some((p) => p.param === 'lambda') ? 'lambda' : 'lr';
  const scored = candidates.flatMap((algo) => {
    const value = settings.get(algo)?.[param];
    const point = points.filter(ofAlgo(algo)).find((p) => p.param === param && p.value === value);
    return point ? [{ algo, validation: point.success }] : [];
  });
  if (scored.length) {
    const best = scored.reduce((b, s) => (s.validation > b.validation ? s : b));
    const others =
      scored.length > 1 ? `, the best of ${scored.map((s) => `${s.algo} ${pct(s.validation)}%`).join(', ')}` : '';
    return { ...best, why: `${pct(best.validation)}% on the validation games at its chosen ${param}${others}` };
  }
  return {
    algo: candidates[0],
    validation: null,
    why: candidates.length > 1 ? 'no sweep ran: the first distilling arm given' : 'the only distilling main arm',
  };
}

/** "ahead (interval above zero)", "behind (...)" or "not separable (interval includes zero)". */
export function verdict(e: Estimate): string {
  if (!Number.isFinite(e.value)) return 'without a figure (no seeds in common)';
  if (e.ci[0] > 0) return 'ahead (95% interval above zero)';
  if (e.ci[1] < 0) return 'behind (95% interval below zero)';
  return 'not separable (95% interval includes zero)';
}

/** The headline sentence, or why there is none. */
export function headline(
  best: BestArm | null,
  settings: ReadonlyMap<Algo, ArmSettings>,
  diffs: readonly Difference[],
): string {
  if (!best) return 'No main arm distils: no hindsight arm to compare with GRPO.';
  const s = settings.get(best.algo);
  const against = (b: Algo, name: string): string => {
    const d = diffs.find((x) => x.a === best.algo && x.b === b);
    if (!d) return `No ${b} runs: no difference to ${name}.`;
    return `Against ${name} (${d.label}): final success ${differenceCell(d.unseen)} points, ${verdict(d.unseen)}; area under the curve ${differenceCell(d.auc)}, ${verdict(d.auc)}.`;
  };
  const control = CROSSGAME_CONTROL[best.algo];
  return [
    `Best distilling arm: ${best.algo}${s ? ` (lambda ${s.lambda}, lr ${s.lr})` : ''}, ${best.why}. On eval-unseen, paired by seed:`,
    against('grpo', 'GRPO'),
    control ? against(control, 'its cross-game control') : 'It has no cross-game control.',
  ].join(' ');
}
