// LayerNorm over the last dimension with the per-row mean and 1/std kept for the backward pass (llm.c).
// GPU twin of src/backend/cpu/layernorm.ts; wrapper: src/backend/webgpu/layernorm.ts.
//
// layernorm_forward          @binding(0) shape: Shape (uniform)
//                            @binding(1) params: f32[], weight at w_off [C], bias at b_off [C]
//                            @binding(2) inp: f32[n * C]   @binding(3) out: f32[n * C]
//                            @binding(4) stats: f32[n * 2] (mean, rstd of each row)
//   dispatch: one thread per row, WG per workgroup, grid (grid_x, ...)
// layernorm_backward_input   @binding(0) shape  @binding(1) params  @binding(2) inp  @binding(3) stats
//                            @binding(4) dout: f32[n * C]   @binding(5) dinp: f32[n * C] (accumulated)
//                            @binding(6) grads: f32[] (dweight at w_off, dbias at b_off, accumulated)
//   dispatch: one thread per row (dinp)
// layernorm_backward_params  same bindings; one thread per column c, summing over rows in order (dweight,
//   dbias): a deterministic reduction without atomics.
//
// WG and flat_index come from shaders/prelude.wgsl.

struct Shape {
  n: u32,
  c: u32,
  eps: f32,
  w_off: u32,
  b_off: u32,
  grid_x: u32,
  _pad0: u32,
  _pad1: u32,
}

@group(0) @binding(0) var<uniform> shape: Shape;
@group(0) @binding(1) var<storage, read> params: array<f32>;
@group(0) @binding(2) var<storage, read> inp: array<f32>;
@group(0) @binding(3) var<storage, read_write> out: array<f32>;
@group(0) @binding(4) var<storage, read_write> stats_out: array<f32>;

@compute @workgroup_size(WG)
fn layernorm_forward(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) lid: u32) {
  let row = flat_index(wid, lid, shape.grid_x);
  if (row >= shape.n) {
    return;
  }
  let c = shape.c;
  let x = row * c;
  var m = 0.0;
  for (var k = 0u; k < c; k++) {
    m += inp[x + k];
  }
  m /= f32(c);
  var v = 0.0;
  for (var k = 0u; k < c; k++) {
    let d = inp[x + k] - m;
    v += d * d;
  }
  v /= f32(c);
  let s = 1.0 / sqrt(v + shape.eps);
  for (var k = 0u; k < c; k++) {
    out[x + k] = (inp[x + k] - m) * s * params[shape.w_off + k] + params[shape.b_off + k];
  }
  stats_out[2u * row] = m;
  stats_out[2u * row + 1u] = s;
}

@group(0) @binding(3) var<storage, read> stats: array<f32>;
@group(0) @binding(4) var<storage, read> dout: array<f32>;
@group(0) @binding(5) var<storage, read_write> dinp: array<f32>;
@group(0) @binding(6) var<storage, read_write> grads: array<f32>;

@compute @workgroup_size(WG)
fn layernorm_backward_input(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) lid: u32) {
  let row = flat_index(wid, lid, shape.grid_x);
  if (row >= shape.n) {
    return;
  }
  let c = shape.c;
  let x = row * c;
  let m = stats[2u * row];
  let s = stats[2u * row + 1u];
  var dnorm_mean = 0.0;
  var dnorm_norm_mean = 0.0;
  for (var k = 0u; k < c; k++) {
    let norm = (inp[x + k] - m) * s;
    let dnorm = params[shape.w_off + k] * dout[x + k];
    dnorm_mean += dnorm;
    dnorm_norm_mean += dnorm * norm;
  }
  dnorm_mean /= f32(c);
  dnorm_norm_mean /= f32(c);
  for (var k = 0u; k < c; k++) {
    let norm = (inp[x + k] - m) * s;
    let dnorm = params[shape.w_off + k] * dout[x + k];
    dinp[x + k] += (dnorm - dnorm_mean - norm * dnorm_norm_mean) * s;
  }
}

@compute @workgroup_size(WG)
fn layernorm_backward_params(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) lid: u32) {
  let k = flat_index(wid, lid, shape.grid_x);
  if (k >= shape.c) {
    return;
  }
  let c = shape.c;
  var dw = 0.0;
  var db = 0.0;
  for (var row = 0u; row < shape.n; row++) {
    let d = dout[row * c + k];
    let norm = (inp[row * c + k] - stats[2u * row]) * stats[2u * row + 1u];
    db += d;
    dw += norm * d;
  }
  grads[shape.w_off + k] += dw;
  grads[shape.b_off + k] += db;
}
