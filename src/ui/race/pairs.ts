// What a race reads off its two arms' curves: the evaluations both arms have reached, paired by update (the
// same update of both arms ran on the same eval games), SEED − GRPO at each, and the mean of those
// differences so far. An arm that runs ahead adds nothing until the other reaches its evaluation.
import type { UpdateMetrics } from '../../worker/protocol.ts';

export type EvalSplit = 'evalUnseen' | 'evalSeen';

export interface PairedEvaluation {
  update: number;
  grpo: number;
  seed: number;
  /** SEED − GRPO, as a fraction of games. */
  difference: number;
}

export interface DifferenceSoFar {
  /** Evaluations after training began (update 1 on) that both arms reached. */
  pairs: number;
  /** Mean of their differences; null before the first. */
  mean: number | null;
  /** The latest paired evaluation; null before the first. */
  last: PairedEvaluation | null;
}

function evaluations(curve: readonly UpdateMetrics[], split: EvalSplit): Map<number, number> {
  const out = new Map<number, number>();
  for (const m of curve) {
    const v = m[split];
    if (v !== null && Number.isFinite(v)) out.set(m.update, v);
  }
  return out;
}

/** The evaluations of `split` that both arms have reached, by update, ascending. */
export function pairedEvaluations(
  grpo: readonly UpdateMetrics[],
  seed: readonly UpdateMetrics[],
  split: EvalSplit,
): PairedEvaluation[] {
  const seedAt = evaluations(seed, split);
  const pairs: PairedEvaluation[] = [];
  for (const [update, g] of evaluations(grpo, split)) {
    const s = seedAt.get(update);
    if (s !== undefined) pairs.push({ update, grpo: g, seed: s, difference: s - g });
  }
  return pairs.sort((a, b) => a.update - b.update);
}

/**
 * The paired evaluations after training began (update 1 on): the warm start's own (update 0) plays the same weights
 * on the same games in both arms, so its difference is 0 by construction and says nothing of what training did.
 * The readout counts these and the difference chart draws these, so the two never disagree.
 */
export function trainedPairs(pairs: readonly PairedEvaluation[]): PairedEvaluation[] {
  return pairs.filter((p) => p.update >= 1);
}

/** The paired difference so far, over the evaluations after training began. */
export function differenceSoFar(pairs: readonly PairedEvaluation[]): DifferenceSoFar {
  const trained = trainedPairs(pairs);
  const mean = trained.length === 0 ? null : trained.reduce((sum, p) => sum + p.difference, 0) / trained.length;
  return { pairs: trained.length, mean, last: trained.at(-1) ?? null };
}

/** The running mean of the differences at each paired evaluation (update 1 on), for the chart. */
export function runningMeans(pairs: readonly PairedEvaluation[]): { update: number; mean: number }[] {
  let sum = 0;
  return trainedPairs(pairs).map((p, i) => {
    sum += p.difference;
    return { update: p.update, mean: sum / (i + 1) };
  });
}
