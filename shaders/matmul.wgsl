// Fully connected layer, weights row-major [OC, C] inside the flat parameter buffer (model/layout.ts):
//   out[n, o] = bias[o] + sum_c inp[n, c] * weight[o, c]
// GPU twin of src/backend/cpu/matmul.ts; wrapper: src/backend/webgpu/layers.ts.
//
// matmul_forward         @binding(0) shape: Shape (uniform)
//                        @binding(1) params: f32[], weight at w_off [OC, C], bias at b_off [OC] when has_bias
//                        @binding(2) inp: f32[n * C]   @binding(3) out: f32[n * OC]
//   dispatch: one thread per output element, WG per workgroup, grid (grid_x, ...)
// matmul_forward_tiled   same bindings; 16 x 16 output tiles through workgroup memory (what a real GPU
//   wants); grid (ceil(OC / 16), ceil(n / 16), 1), workgroup (16, 16)
// matmul_backward_input  @binding(0) shape  @binding(1) params  @binding(2) inp  @binding(3) dout: f32[n * OC]
//                        @binding(4) dinp: f32[n * C] (written)   @binding(5) grads: f32[] (accumulated)
//   dispatch: one thread per element of dinp: dinp = dout @ weight
// matmul_backward_weight same bindings; one thread per (o, c) of the weight plus one per o for the bias
//   (c == C): dweight[o, c] += sum_n dout[n, o] inp[n, c], dbias[o] += sum_n dout[n, o], summed over n in
//   order, so the reduction is deterministic without atomics. grid over OC * (C + 1) threads.

struct Shape {
  n: u32,
  c: u32,
  oc: u32,
  w_off: u32,
  b_off: u32,
  has_bias: u32,
  grid_x: u32,
  _pad: u32,
}

override WG: u32 = 64;
const TILE: u32 = 16u;

@group(0) @binding(0) var<uniform> shape: Shape;
@group(0) @binding(1) var<storage, read> params: array<f32>;
@group(0) @binding(2) var<storage, read> inp: array<f32>;
@group(0) @binding(3) var<storage, read_write> out: array<f32>;

fn flat_index(wid: vec3u, lid: u32) -> u32 {
  return (wid.y * shape.grid_x + wid.x) * WG + lid;
}

@compute @workgroup_size(WG)
fn matmul_forward(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) lid: u32) {
  let i = flat_index(wid, lid);
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
    out[row * shape.oc + o] = acc;
  }
}

@group(0) @binding(3) var<storage, read> dout: array<f32>;
@group(0) @binding(4) var<storage, read_write> dinp: array<f32>;
@group(0) @binding(5) var<storage, read_write> grads: array<f32>;

@compute @workgroup_size(WG)
fn matmul_backward_input(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) lid: u32) {
  let i = flat_index(wid, lid);
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
fn matmul_backward_weight(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) lid: u32) {
  let i = flat_index(wid, lid);
  let width = shape.c + 1u;
  if (i >= shape.oc * width) {
    return;
  }
  let o = i / width;
  let k = i % width;
  if (k == shape.c) {
    if (shape.has_bias == 0u) {
      return;
    }
    var db = 0.0;
    for (var row = 0u; row < shape.n; row++) {
      db += dout[row * shape.oc + o];
    }
    grads[shape.b_off + o] += db;
    return;
  }
  var acc = 0.0;
  for (var row = 0u; row < shape.n; row++) {
    acc += dout[row * shape.oc + o] * inp[row * shape.c + k];
  }
  grads[shape.w_off + o * shape.c + k] += acc;
}
