// The layer functions run on float32 buffers in training and on float64 copies in the finite-difference
// gradient checks; both share the same code. Sums are accumulated in JS numbers (float64) either way.
export type Floats = Float32Array | Float64Array;

/** Index of the first non-finite value, or -1. */
export function firstNonFiniteIndex(a: Floats): number {
  for (let i = 0; i < a.length; i++) if (!Number.isFinite(a[i])) return i;
  return -1;
}
