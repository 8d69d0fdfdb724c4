// Fully connected layer, weights row-major [OC, C] inside the flat parameter buffer (model/layout.ts):
//   out[n, o] = bias[o] + sum_c inp[n, c] * weight[o, c]
// GPU twin of src/backend/cpu/matmul.ts; wrapper: src/backend/webgpu/matmul.ts.
//
// matmul_forward         @binding(0) shape: Shape (uniform)
//                        @binding(1) params: f32[], weight at w_off [OC, C], bias at b_off [OC] when has_bias
//                        @binding(2) inp: f32[n * C]   @binding(3) out: f32[n * OC]
//                        @binding(4) resid: f32[n * OC], added to the output when has_residual (the
//                        residual connection, CPU residual.ts, fused: the projection's own output is
//                        never stored; the sum is the same float32 add as a separate pass)
//   dispatch: one thread per output element, WG per workgroup, grid (grid_x, ...)
// matmul_forward_tiled   same bindings; 16 x 16 output tiles through workgroup memory (what a real GPU
//   wants); grid (ceil(OC / 16), ceil(n / 16), 1), workgroup (16, 16)
// matmul_backward_input  @binding(0) shape  @binding(1) params  @binding(2) inp  @binding(3) dout: f32[n * OC]
//                        @binding(4) dinp: f32[n * C] (written)   @binding(5) grads: f32[] (accumulated)
//   dispatch: one thread per element of dinp: dinp = dout @ weight
// matmul_backward_weight same bindings; one thread per (o, c) of the weight: dweight[o, c] += sum_n
//   dout[n, o] inp[n, c], summed over n in order, so the reduction is deterministic without atomics.
// matmul_backward_bias   same bindings; one thread per o: dbias[o] += sum_n dout[n, o], in order.
// matmul_forward_vec4, matmul_backward_input_vec4, matmul_backward_weight_vec4: the same three with the
//   inner dimension C read four floats at a time (C % 4 == 0; view offsets are multiples of 64 floats), one
//   output (forward) or four (backward) per thread: a quarter of the loads, which is what software adapters
//   are bound by. Same bindings; threads: n * OC, n * C / 4, OC * C / 4.
//
// WG and flat_index come from shaders/prelude.wgsl.

struct Shape {
  n: u32,
  c: u32,
  oc: u32,
  w_off: u32,
  b_off: u32,
  has_bias: u32,
  grid_x: u32,
  has_residual: u32,
}

const TILE: u32 = 16u;

@group(0) @binding(0) var<uniform> shape: Shape;
@group(0) @binding(1) var<storage, read> params: array<f32>;
@group(0) @binding(2) var<storage, read> inp: array<f32>;
@group(0) @binding(3) var<storage, read_write> out: array<f32>;
@group(0) @binding(4) var<storage, read> resid: array<f32>;

@compute @workgroup_size(WG)
fn matmul_forward(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) lid: u32) {
  let i = flat_index(wid, lid, shape.grid_x);
  if (i >= shape.n * shape.oc) {
    return;
  }
  let row = i / shape.oc;
  let o = i % shape.oc;
  let x = row * shape.c;
  let w = shape.w_off + o * shape.c;
  var acc = 0.0;
  for (var k = 0u; k < shape.c; k++) {
    acc += inp[x + k] * params[w + k];
  }
  if (shape.has_bias != 0u) {
    acc += params[shape.b_off + o];
  }
  if (shape.has_residual != 0u) {
    acc = resid[i] + acc;
  }
  out[i] = acc;
}

var<workgroup> tile_in: array<array<f32, 16>, 16>;
var<workgroup> tile_w: array<array<f32, 16>, 16>;

@compute @workgroup_size(16, 16)
fn matmul_forward_tiled(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_id) lid3: vec3u) {
  let lx = lid3.x;
  let ly = lid3.y;
  let row0 = wid.y * TILE;
  let o0 = wid.x * TILE;
  var acc = 0.0;
  for (var k0 = 0u; k0 < shape.c; k0 += TILE) {
    // tile_in[ly][lx] = inp[row0 + ly, k0 + lx]; tile_w[ly][lx] = weight[o0 + ly, k0 + lx]; zero outside.
    var a = 0.0;
    if (row0 + ly < shape.n && k0 + lx < shape.c) {
      a = inp[(row0 + ly) * shape.c + k0 + lx];
    }
    var b = 0.0;
    if (o0 + ly < shape.oc && k0 + lx < shape.c) {
      b = params[shape.w_off + (o0 + ly) * shape.c + k0 + lx];
    }
    tile_in[ly][lx] = a;
    tile_w[ly][lx] = b;
    workgroupBarrier();
    for (var k = 0u; k < TILE; k++) {
      acc += tile_in[ly][k] * tile_w[lx][k];
    }
    workgroupBarrier();
  }
  let row = row0 + ly;
  let o = o0 + lx;
  if (row < shape.n && o < shape.oc) {
    if (shape.has_bias != 0u) {
      acc += params[shape.b_off + o];
    }
    if (shape.has_residual != 0u) {
      acc = resid[row * shape.oc + o] + acc;
    }
    out[row * shape.oc + o] = acc;
  }
}

@group(0) @binding(3) var<storage, read> dout: array<f32>;
@group(0) @binding(4) var<storage, read_write> dinp: array<f32>;
@group(0) @binding(5) var<storage, read_write> grads: array<f32>;

@compute @workgroup_size(WG)
fn matmul_backward_input(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) lid: u32) {
  let i = flat_index(wid, lid, shape.grid_x);
  if (i >= shape.n * shape.c) {
    return;
  }
  let row = i / shape.c;
  let k = i % shape.c;
  let y = row * shape.oc;
  var acc = 0.0;
  for (var o = 0u; o < shape.oc; o++) {
    acc += dout[y + o] * params[shape.w_off + o * shape.c + k];
  }
  dinp[i] = acc;
}

@compute @workgroup_size(WG)
fn matmul_backward_bias(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) lid: u32) {
  let o = flat_index(wid, lid, shape.grid_x);
  if (o >= shape.oc) {
    return;
  }
  var db = 0.0;
  for (var row = 0u; row < shape.n; row++) {
    db += dout[row * shape.oc + o];
  }
  grads[shape.b_off + o] += db;
}

@compute @workgroup_size(WG)
fn matmul_backward_weight(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) lid: u32) {
  let i = flat_index(wid, lid, shape.grid_x);
  if (i >= shape.oc * shape.c) {
    return;
  }
  let o = i / shape.c;
  let k = i % shape.c;
  var acc = 0.0;
  for (var row = 0u; row < shape.n; row++) {
    acc += dout[row * shape.oc + o] * inp[row * shape.c + k];
  }
  grads[shape.w_off + o * shape.c + k] += acc;
}

@group(0) @binding(1) var<storage, read> params4: array<vec4f>;
@group(0) @binding(2) var<storage, read> inp4: array<vec4f>;
@group(0) @binding(3) var<storage, read_write> out_v4: array<f32>;

@compute @workgroup_size(WG)
fn matmul_forward_vec4(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) lid: u32) {
  let i = flat_index(wid, lid, shape.grid_x);
  if (i >= shape.n * shape.oc) {
    return;
  }
  let c4 = shape.c / 4u;
  let row = i / shape.oc;
  let o = i % shape.oc;
  let x = row * c4;
  let w = shape.w_off / 4u + o * c4;
  var acc = vec4f(0.0);
  for (var k = 0u; k < c4; k++) {
    acc += inp4[x + k] * params4[w + k];
  }
  var sum = (acc.x + acc.y) + (acc.z + acc.w);
  if (shape.has_bias != 0u) {
    sum += params4[(shape.b_off + o) / 4u][o % 4u];
  }
  if (shape.has_residual != 0u) {
    sum = resid[i] + sum;
  }
  out_v4[i] = sum;
}

@group(0) @binding(3) var<storage, read> dout_v4: array<f32>;
@group(0) @binding(4) var<storage, read_write> dinp4: array<vec4f>;
@group(0) @binding(5) var<storage, read_write> grads4: array<vec4f>;

@compute @workgroup_size(WG)
fn matmul_backward_input_vec4(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) lid: u32) {
  let c4 = shape.c / 4u;
  let i = flat_index(wid, lid, shape.grid_x);
  if (i >= shape.n * c4) {
    return;
  }
  let row = i / c4;
  let k = i % c4;
  let y = row * shape.oc;
  let w = shape.w_off / 4u + k;
  var acc = vec4f(0.0);
  for (var o = 0u; o < shape.oc; o++) {
    acc += dout_v4[y + o] * params4[w + o * c4];
  }
  dinp4[i] = acc;
}

@compute @workgroup_size(WG)
fn matmul_backward_weight_vec4(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) lid: u32) {
  let c4 = shape.c / 4u;
  let i = flat_index(wid, lid, shape.grid_x);
  if (i >= shape.oc * c4) {
    return;
  }
  let o = i / c4;
  let k = i % c4;
  var acc = vec4f(0.0);
  for (var row = 0u; row < shape.n; row++) {
    acc += dout_v4[row * shape.oc + o] * inp4[row * c4 + k];
  }
  grads4[shape.w_off / 4u + i] += acc;
}
