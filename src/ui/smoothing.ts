// Smoothing of a noisy curve for reading: an exponential moving average, debiased as TensorBoard's is (the
// average starts at 0, so its first values are divided by 1 - weight^n and the curve does not start low).
// Points without a value (an update that ran no evaluation, a loss refused as non-finite) are skipped: they
// stay empty and do not pull the average.

/** The smoothing a chart opens with. */
export const DEFAULT_SMOOTHING = 0.6;
/** The largest weight offered: at 1 the average would never move. */
export const MAX_SMOOTHING = 0.99;

export function ema(values: readonly (number | null)[], weight: number): (number | null)[] {
  if (!(weight >= 0 && weight < 1)) throw new RangeError(`smoothing weight ${weight} is not in [0, 1)`);
  let average = 0;
  let n = 0;
  return values.map((v) => {
    if (v === null || !Number.isFinite(v)) return null;
    average = weight * average + (1 - weight) * v;
    n += 1;
    return average / (1 - weight ** n);
  });
}
