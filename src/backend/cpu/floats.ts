// The layer functions run on float32 buffers in training and on float64 copies in the finite-difference
// gradient checks; both share the same code. Sums are accumulated in JS numbers (float64) either way.
export type Floats = Float32Array | Float64Array;
