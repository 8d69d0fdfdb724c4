// Token + position embedding (llm.c's encoder) and its gradient. GPU twin of src/backend/cpu/encoder.ts;
// wrapper: src/backend/webgpu/encoder.ts.
//
// encoder_forward       @binding(0) shape: Shape (uniform)
//                       @binding(1) params: f32[], wte at wte_off [V, C], wpe at wpe_off [contextLength, C]
//                       @binding(2) tokens: i32[n]     @binding(3) positions: i32[n]
//                       @binding(4) out: f32[n * C]
//   dispatch: one thread per output element, WG per workgroup, grid (grid_x, ...), i = flat_index(wid, lid, grid_x)
// encoder_backward_wte  @binding(0) shape   @binding(1) dout: f32[n * C]
//                       @binding(2) row_starts: u32[V + 1], @binding(3) row_order: u32[n]: the rows of token v are
//                       row_order[row_starts[v] .. row_starts[v + 1]) in ascending order (built on the host)
//                       @binding(4) grads: f32[] (read_write, accumulated at wte_off)
//   dispatch: one thread per (v, c) of wte: each vocabulary row sums its own positions, in row order, so the
//   gradient needs no float atomics and gives the same bits on every run.
// encoder_backward_wpe  same bindings; one thread per (t, c) of the first `seq_len` rows of wpe, summing over
//   the n / seq_len sequences of the batch (row = b * seq_len + t, position t).
//
// WG and flat_index come from shaders/prelude.wgsl.

struct Shape {
  n: u32,
  c: u32,
  vocab: u32,
  seq_len: u32,
  wte_off: u32,
  wpe_off: u32,
  grid_x: u32,
  _pad: u32,
}

@group(0) @binding(0) var<uniform> shape: Shape;
@group(0) @binding(1) var<storage, read> params: array<f32>;
@group(0) @binding(2) var<storage, read> tokens: array<i32>;
@group(0) @binding(3) var<storage, read> positions: array<i32>;
@group(0) @binding(4) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(WG)
fn encoder_forward(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) lid: u32) {
  let i = flat_index(wid, lid, shape.grid_x);
  if (i >= shape.n * shape.c) {
    return;
  }
  let row = i / shape.c;
  let col = i % shape.c;
  let token = u32(tokens[row]);
  let pos = u32(positions[row]);
  out[i] = params[shape.wte_off + token * shape.c + col] + params[shape.wpe_off + pos * shape.c + col];
}

@group(0) @binding(1) var<storage, read> dout: array<f32>;
@group(0) @binding(2) var<storage, read> row_starts: array<u32>;
@group(0) @binding(3) var<storage, read> row_order: array<u32>;
@group(0) @binding(4) var<storage, read_write> grads: array<f32>;

@compute @workgroup_size(WG)
fn encoder_backward_wte(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) lid: u32) {
  let i = flat_index(wid, lid, shape.grid_x);
  if (i >= shape.vocab * shape.c) {
    return;
  }
  let v = i / shape.c;
  let col = i % shape.c;
  let end = row_starts[v + 1u];
  if (row_starts[v] == end) {
    return;
  }
  var acc = grads[shape.wte_off + i];
  for (var k = row_starts[v]; k < end; k++) {
    acc += dout[row_order[k] * shape.c + col];
  }
  grads[shape.wte_off + i] = acc;
}

@compute @workgroup_size(WG)
fn encoder_backward_wpe(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) lid: u32) {
  let i = flat_index(wid, lid, shape.grid_x);
  if (i >= shape.seq_len * shape.c) {
    return;
  }
  let t = i / shape.c;
  let col = i % shape.c;
  let seqs = shape.n / shape.seq_len;
  var acc = grads[shape.wpe_off + i];
  for (var b = 0u; b < seqs; b++) {
    acc += dout[(b * shape.seq_len + t) * shape.c + col];
  }
  grads[shape.wpe_off + i] = acc;
}
