// Sampling one token per row from masked, temperature-scaled logits on the GPU, with the caller's uniform
// draw, so that decoding reads back a token and its log-prob instead of a row of logits. GPU twin of
// src/backend/cpu/sampling.ts (same rule); wrapper: src/backend/webgpu/sampling.ts.
//
// sample_token  @binding(0) shape: Shape (uniform; temperature 0 = greedy)
//               @binding(1) logits: f32[rows * vocab]   @binding(2) masks: u32[rows * mask_words]
//               @binding(3) draws: f32[rows], U[0, 1)   @binding(4) tokens: i32[rows] (written; -1 when the
//               mask allows nothing)   @binding(5) logprobs: f32[rows], masked log-softmax at temperature 1
//   dispatch: one thread per row, WG per workgroup, grid (grid_x, ...)
// Rule: greedy takes the allowed token with the largest logit (lowest id on a tie); otherwise
// q = masked softmax(logits / temperature) and the token is the first allowed id whose running sum of q
// exceeds u * (sum of q). One thread walks the row in id order, as the CPU does; rows are short
// (a vocabulary of a few hundred), and the walk must be sequential to follow that rule.
// WG, flat_index, bit_set, MASKED_LOG_PROB and LOWEST_F32 come from shaders/prelude.wgsl.

struct Shape {
  rows: u32,
  vocab: u32,
  mask_words: u32,
  grid_x: u32,
  temperature: f32,
  _pad0: u32,
  _pad1: u32,
  _pad2: u32,
}

@group(0) @binding(0) var<uniform> shape: Shape;
@group(0) @binding(1) var<storage, read> logits: array<f32>;
@group(0) @binding(2) var<storage, read> masks: array<u32>;
@group(0) @binding(3) var<storage, read> draws: array<f32>;
@group(0) @binding(4) var<storage, read_write> tokens: array<i32>;
@group(0) @binding(5) var<storage, read_write> logprobs: array<f32>;

fn allowed(row: u32, v: u32) -> bool {
  return bit_set(masks[row * shape.mask_words + (v >> 5u)], v);
}

@compute @workgroup_size(WG)
fn sample_token(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) lid: u32) {
  let row = flat_index(wid, lid, shape.grid_x);
  if (row >= shape.rows) {
    return;
  }
  let base = row * shape.vocab;
  var mx = LOWEST_F32;
  var best = -1;
  for (var v = 0u; v < shape.vocab; v++) {
    if (allowed(row, v) && (best < 0 || logits[base + v] > mx)) {
      mx = logits[base + v];
      best = i32(v);
    }
  }
  if (best < 0) {
    tokens[row] = -1;
    logprobs[row] = MASKED_LOG_PROB;
    return;
  }
  var sum = 0.0;
  for (var v = 0u; v < shape.vocab; v++) {
    if (allowed(row, v)) {
      sum += exp(logits[base + v] - mx);
    }
  }
  let log_sum = mx + log(sum);
  var token = best;
  let temp = shape.temperature;
  if (temp > 0.0) {
    let smax = mx / temp;
    var ssum = 0.0;
    for (var v = 0u; v < shape.vocab; v++) {
      if (allowed(row, v)) {
        ssum += exp(logits[base + v] / temp - smax);
      }
    }
    let slog = smax + log(ssum);
    var total = 0.0;
    for (var v = 0u; v < shape.vocab; v++) {
      if (allowed(row, v)) {
        total += exp(logits[base + v] / temp - slog);
      }
    }
    let goal = draws[row] * total;
    var run = 0.0;
    for (var v = 0u; v < shape.vocab; v++) {
      if (allowed(row, v)) {
        token = i32(v);
        run += exp(logits[base + v] / temp - slog);
        if (run > goal) {
          break;
        }
      }
    }
  }
  tokens[row] = token;
  logprobs[row] = logits[base + u32(token)] - log_sum;
}
