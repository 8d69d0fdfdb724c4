// A control that leads GRPO becomes a main arm: when the controls run fewer seeds than the main arms, a control
// whose success on eval-unseen is above GRPO's (the mean paired difference over the seeds both ran) runs the
// main arms' other seeds too, so that a part of a skill that does better than the reward alone is measured on
// as many seeds as the arm it varies. This is the one use of the eval sets before the reports: it decides how
// many seeds a control runs, never a setting of any arm.
import type { Algo } from '../../../rl/arms.ts';
import type { JobResult } from '../jobs/job.ts';
import { isBaseline, ofAlgo } from '../../../rl/arms.ts';

/** A control that ran the main arms' seeds because it led GRPO on the seeds of the controls. */
export interface PromotedControl {
  algo: Algo;
  /** Its mean lead over GRPO in success on eval-unseen (a fraction), over the seeds both ran before. */
  lead: number;
  /** Those seeds. */
  seeds: number[];
}

/** The controls whose runs lead GRPO's on eval-unseen, paired by seed; none without GRPO runs. */
export function controlsLeadingGrpo(controls: readonly Algo[], runs: readonly JobResult[]): PromotedControl[] {
  const grpo = new Map(runs.filter((r) => isBaseline(r.algo)).map((r) => [r.seed, r.success_unseen]));
  return controls.flatMap((algo) => {
    const paired = runs.filter(ofAlgo(algo)).filter((r) => grpo.has(r.seed));
    if (paired.length === 0) return [];
    const lead = paired.reduce((sum, r) => sum + r.success_unseen - grpo.get(r.seed)!, 0) / paired.length;
    return lead > 0 ? [{ algo, lead, seeds: paired.map((r) => r.seed) }] : [];
  });
}
