// When a race's next paired point is due: the next evaluation of the schedule (after update 1 and every
// evalEvery updates) after the last one both arms reached, and an estimate of when the slower arm reaches it,
// from each arm's last updates as its engine timed them (pace.ts).
import type { UpdateMetrics } from '../../worker/protocol.ts';
import { timedUpdates } from '../pace.ts';
import { pairedEvaluations } from './pairs.ts';

export interface NextPair {
  /** The update whose evaluation both arms will have next. */
  update: number;
  /** Seconds until the slower arm has it, estimated; null until every arm still short of it has timed an update. */
  seconds: number | null;
}

/** The evaluation of the schedule after update `after`. */
function nextEvaluation(after: number, evalEvery: number): number {
  return after < 1 ? 1 : (Math.floor(after / evalEvery) + 1) * evalEvery;
}

/**
 * Seconds until an arm has the point of update `target`, evaluation included: its remaining updates at the mean
 * time of its last timed ones without their evaluations, and one evaluation at the time its last one took.
 */
function armSeconds(curve: readonly UpdateMetrics[], target: number): number | null {
  const done = curve.at(-1)?.update ?? 0;
  if (done >= target) return 0;
  const timed = timedUpdates(curve);
  if (timed.length === 0) return null;
  const training = timed.reduce((sum, m) => sum + (m.updateMs ?? 0) - (m.evalMs ?? 0), 0) / timed.length;
  const evaluation = curve.findLast((m) => m.evalMs != null)?.evalMs ?? 0;
  return (Math.max(0, (target - done) * training) + evaluation) / 1000;
}

/** The race's next paired point and when it is due, from [GRPO, the hindsight arm]'s curves. */
export function nextPairedPoint(
  grpo: readonly UpdateMetrics[],
  seed: readonly UpdateMetrics[],
  evalEvery: number,
): NextPair {
  const last = pairedEvaluations(grpo, seed, 'evalUnseen').at(-1)?.update ?? 0;
  const update = nextEvaluation(last, evalEvery);
  const each = [armSeconds(grpo, update), armSeconds(seed, update)];
  return { update, seconds: each.includes(null) ? null : Math.max(...(each as number[])) };
}
