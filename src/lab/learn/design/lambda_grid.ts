// A distilling arm's lambda grid stated by the OPD share of the gradient each value should give
// (rl/opd_share.ts: OPD norm / (GRPO norm + OPD norm)). The OPD part of the gradient scales with lambda and the
// GRPO part does not, so over a short run the ratio of the mean norms is close to a constant times lambda; each
// world states that constant per kind of distillation, measured from its tiny warm start
// (WorldFacts.opdRatioPerLambda, bench/notes/opd_share.md). A share s is a ratio s / (1 - s), so
//     lambda = s / ((1 - s) * ratio per lambda)
// The shares the runs then measure are in the sweep's table: the constant is a guide to where to look, not a promise.
import type { WorldFacts } from '../../../env/world_facts.ts';
import { isExactAlgo, type Algo } from '../../../rl/arms.ts';

/** The lambda at which an arm whose OPD / GRPO norm ratio is `ratioPerLambda` x lambda has OPD share `share`. */
export function lambdaForShare(share: number, ratioPerLambda: number): number {
  if (!(share > 0 && share < 1)) throw new RangeError(`an OPD share is in (0, 1), got ${share}`);
  if (!(ratioPerLambda > 0)) throw new RangeError(`a norm ratio per lambda is above 0, got ${ratioPerLambda}`);
  return Number((share / ((1 - share) * ratioPerLambda)).toPrecision(2));
}

/** The measured norm ratio per lambda of `algo`'s kind of distillation in a world. */
function ratioPerLambdaOf(facts: Pick<WorldFacts, 'opdRatioPerLambda'>, algo: Algo): number {
  return facts.opdRatioPerLambda[isExactAlgo(algo) ? 'exact' : 'sampled'];
}

/** `algo`'s lambdas for the OPD shares `shares` in a world, ascending and each once. */
export function lambdaGrid(
  shares: readonly number[],
  facts: Pick<WorldFacts, 'opdRatioPerLambda'>,
  algo: Algo,
): number[] {
  const ratio = ratioPerLambdaOf(facts, algo);
  return [...new Set(shares.map((s) => lambdaForShare(s, ratio)))].sort((a, b) => a - b);
}
