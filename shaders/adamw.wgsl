// The optimizer step and the gradient bookkeeping around it: deterministic global gradient norm (two
// passes of fixed-order tree sums, no atomics), clipping, AdamW with bias correction and decoupled weight
// decay (llm.c's adamw_update), and the finite check that guards gradient accumulation. GPU twin of
// src/backend/cpu/adamw.ts; wrapper: src/backend/webgpu/adamw.ts.
//
// grad_norm_partial     @binding(0) shape: Shape   @binding(1) grads: f32[n]   @binding(2) partials: f32[groups]
//   dispatch: `groups` workgroups of 256 threads (x only, groups <= 65535); workgroup g sums the squares of
//   elements g * chunk .. (g + 1) * chunk - 1
// grad_norm_final       @binding(0) shape   @binding(1) partials: f32[groups]   @binding(2) state: f32[4]
//   one workgroup: state = (norm, clip scale, 1 if the norm is finite else 0, 0)
// adamw_update          @binding(0) hyper: Hyper   @binding(1) state: f32[4]   @binding(2) decay: u32[ceil(n / 32)]
//                       (bit i: parameter i takes weight decay)   @binding(3) params   @binding(4) grads
//                       @binding(5) m   @binding(6) v (all f32[n], read_write)
//   one thread per parameter, WG per workgroup, grid (grid_x, ...); does nothing when the norm is not finite
//   (the host then refuses the step), else updates and zeroes the gradient.
// count_non_finite      @binding(0) shape (n = length of a, chunk = length of b)   @binding(1) a: f32[]
//                       @binding(2) b: f32[]   @binding(3) flag: u32[1] = number of non-finite values
//   one workgroup of 256 threads
// accumulate_gradients  @binding(0) shape   @binding(1) scratch: f32[n]   @binding(2) flag: u32[1]
//                       @binding(3) grads: f32[n]; grads += scratch unless flag != 0; one thread per element,
//                       WG per workgroup, grid (grid_x, ...)
//
// Finiteness is read from the bits (exponent all ones), which stays exact where an implementation assumes
// that floats are finite. WG, flat_index and bit_set come from shaders/prelude.wgsl.

struct Shape {
  n: u32,
  chunk: u32,
  groups: u32,
  grid_x: u32,
  clip: f32,
  _pad0: u32,
  _pad1: u32,
  _pad2: u32,
}

struct Hyper {
  n: u32,
  grid_x: u32,
  lr: f32,
  beta1: f32,
  beta2: f32,
  eps: f32,
  weight_decay: f32,
  c1: f32,
  c2: f32,
  _pad0: u32,
  _pad1: u32,
  _pad2: u32,
}

const RED: u32 = 256u;

fn is_finite(x: f32) -> bool {
  return (bitcast<u32>(x) & 0x7f800000u) != 0x7f800000u;
}

var<workgroup> partial_sums: array<f32, RED>;
var<workgroup> partial_counts: array<u32, RED>;

fn tree_sum(lid: u32) {
  workgroupBarrier();
  for (var stride = RED / 2u; stride > 0u; stride >>= 1u) {
    if (lid < stride) {
      partial_sums[lid] = partial_sums[lid] + partial_sums[lid + stride];
    }
    workgroupBarrier();
  }
}

@group(0) @binding(0) var<uniform> shape: Shape;
@group(0) @binding(1) var<storage, read> norm_grads: array<f32>;
@group(0) @binding(2) var<storage, read_write> partials_out: array<f32>;

@compute @workgroup_size(256)
fn grad_norm_partial(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) lid: u32) {
  let start = wid.x * shape.chunk;
  let end = min(start + shape.chunk, shape.n);
  var s = 0.0;
  for (var i = start + lid; i < end; i += RED) {
    let g = norm_grads[i];
    s += g * g;
  }
  partial_sums[lid] = s;
  tree_sum(lid);
  if (lid == 0u) {
    partials_out[wid.x] = partial_sums[0];
  }
}

@group(0) @binding(1) var<storage, read> partials: array<f32>;
@group(0) @binding(2) var<storage, read_write> state_out: array<f32>;

@compute @workgroup_size(256)
fn grad_norm_final(@builtin(local_invocation_index) lid: u32) {
  var s = 0.0;
  for (var i = lid; i < shape.groups; i += RED) {
    s += partials[i];
  }
  partial_sums[lid] = s;
  tree_sum(lid);
  if (lid == 0u) {
    let norm = sqrt(partial_sums[0]);
    var scale = 1.0;
    if (shape.clip > 0.0 && norm > shape.clip) {
      scale = shape.clip / norm;
    }
    state_out[0] = norm;
    state_out[1] = scale;
    state_out[2] = select(0.0, 1.0, is_finite(norm));
    state_out[3] = 0.0;
  }
}

@group(0) @binding(0) var<uniform> hyper: Hyper;
@group(0) @binding(1) var<storage, read> state: array<f32>;
@group(0) @binding(2) var<storage, read> decay: array<u32>;
@group(0) @binding(3) var<storage, read_write> params: array<f32>;
@group(0) @binding(4) var<storage, read_write> grads: array<f32>;
@group(0) @binding(5) var<storage, read_write> moment1: array<f32>;
@group(0) @binding(6) var<storage, read_write> moment2: array<f32>;

@compute @workgroup_size(WG)
fn adamw_update(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) lid: u32) {
  let i = flat_index(wid, lid, hyper.grid_x);
  if (i >= hyper.n || state[2] == 0.0) {
    return;
  }
  var wd = 0.0;
  if (bit_set(decay[i >> 5u], i)) {
    wd = hyper.weight_decay;
  }
  let g = grads[i] * state[1];
  let mi = hyper.beta1 * moment1[i] + (1.0 - hyper.beta1) * g;
  let vi = hyper.beta2 * moment2[i] + (1.0 - hyper.beta2) * g * g;
  moment1[i] = mi;
  moment2[i] = vi;
  params[i] -= hyper.lr * (mi / hyper.c1 / (sqrt(vi / hyper.c2) + hyper.eps) + wd * params[i]);
  grads[i] = 0.0;
}

@group(0) @binding(1) var<storage, read> check_a: array<f32>;
@group(0) @binding(2) var<storage, read> check_b: array<f32>;
@group(0) @binding(3) var<storage, read_write> flag_out: array<u32>;

@compute @workgroup_size(256)
fn count_non_finite(@builtin(local_invocation_index) lid: u32) {
  var count = 0u;
  for (var i = lid; i < shape.n; i += RED) {
    count += select(1u, 0u, is_finite(check_a[i]));
  }
  for (var i = lid; i < shape.chunk; i += RED) {
    count += select(1u, 0u, is_finite(check_b[i]));
  }
  partial_counts[lid] = count;
  workgroupBarrier();
  for (var stride = RED / 2u; stride > 0u; stride >>= 1u) {
    if (lid < stride) {
      partial_counts[lid] = partial_counts[lid] + partial_counts[lid + stride];
    }
    workgroupBarrier();
  }
  if (lid == 0u) {
    flag_out[0] = partial_counts[0];
  }
}

@group(0) @binding(1) var<storage, read> scratch: array<f32>;
@group(0) @binding(2) var<storage, read> flag: array<u32>;
@group(0) @binding(3) var<storage, read_write> accumulated: array<f32>;

@compute @workgroup_size(WG)
fn accumulate_gradients(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) lid: u32) {
  let i = flat_index(wid, lid, shape.grid_x);
  if (i >= shape.n || flag[0] != 0u) {
    return;
  }
  accumulated[i] += scratch[i];
}
