// Masked log-softmax over rows of logits, and the gather of one token's log-probability per row.
// GPU twin of src/backend/cpu/log_softmax.ts (same names, same conventions); wrapper:
// src/backend/webgpu/log_softmax.ts.
//
// masked_log_softmax  @binding(0) shape: Shape (uniform)
//                     @binding(1) logits: f32[rows * vocab]
//                     @binding(2) masks: u32[rows * maskWords], bit v & 31 of word v >> 5 = token v allowed
//                     @binding(3) out: f32[rows * vocab] (read_write; must not alias logits)
//   dispatch: one workgroup of WG threads per row, grid (gridX, ceil(rows / gridX), 1), row = wid.y * gridX + wid.x
// gather_log_probs    @binding(0) shape: Shape (uniform)
//                     @binding(1) log_probs: f32[rows * vocab]
//                     @binding(2) targets: i32[rows]
//                     @binding(3) out: f32[rows]; MASKED_LOG_PROB where a target is outside [0, vocab)
//                     (no token there is allowed; WGSL cannot portably write NaN)
//   dispatch: one thread per row, WG threads per workgroup, grid (gridX, ..., 1) over ceil(rows / WG) groups
//
// Disallowed tokens get MASKED_LOG_PROB (finite; WGSL may assume no infinities). Reductions are fixed-order
// trees over a power-of-two WG, so a row gives the same bits on every run. WG (set per vocabulary by the
// wrapper), flat_index, bit_set, MASKED_LOG_PROB, LOWEST_F32, reduction_scratch, reduce_max and reduce_sum
// come from shaders/prelude.wgsl.

struct Shape {
  rows: u32,
  vocab: u32,
  mask_words: u32,
  grid_x: u32,
}

@group(0) @binding(0) var<uniform> shape: Shape;
@group(0) @binding(1) var<storage, read> logits: array<f32>;
@group(0) @binding(2) var<storage, read> masks: array<u32>;
@group(0) @binding(3) var<storage, read_write> out: array<f32>;

fn is_allowed(mask_base: u32, token: u32) -> bool {
  return bit_set(masks[mask_base + (token >> 5u)], token);
}

@compute @workgroup_size(WG)
fn masked_log_softmax(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) lid: u32) {
  let row = wid.y * shape.grid_x + wid.x;
  if (row >= shape.rows) {
    return;
  }
  let base = row * shape.vocab;
  let mask_base = row * shape.mask_words;

  var local_max = LOWEST_F32;
  for (var v = lid; v < shape.vocab; v += WG) {
    if (is_allowed(mask_base, v)) {
      local_max = max(local_max, logits[base + v]);
    }
  }
  reduce_max(lid, local_max);
  let row_max = reduction_scratch[0];
  // Everyone has read the max before reduction_scratch is reused for the sum.
  workgroupBarrier();

  var local_sum = 0.0;
  for (var v = lid; v < shape.vocab; v += WG) {
    if (is_allowed(mask_base, v)) {
      local_sum += exp(logits[base + v] - row_max);
    }
  }
  reduce_sum(lid, local_sum);
  // With no allowed token log_sum is meaningless, and unused: every entry takes the masked branch.
  let log_sum = row_max + log(reduction_scratch[0]);

  for (var v = lid; v < shape.vocab; v += WG) {
    if (is_allowed(mask_base, v)) {
      out[base + v] = logits[base + v] - log_sum;
    } else {
      out[base + v] = MASKED_LOG_PROB;
    }
  }
}

@group(0) @binding(1) var<storage, read> log_probs: array<f32>;
@group(0) @binding(2) var<storage, read> targets: array<i32>;

@compute @workgroup_size(WG)
fn gather_log_probs(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) lid: u32) {
  let row = flat_index(wid, lid, shape.grid_x);
  if (row >= shape.rows) {
    return;
  }
  let token = targets[row];
  if (token < 0 || u32(token) >= shape.vocab) {
    out[row] = MASKED_LOG_PROB;
    return;
  }
  out[row] = log_probs[row * shape.vocab + u32(token)];
}
