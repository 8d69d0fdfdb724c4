// Exact on-policy distillation: per scored row, the divergence D(p || q) of the student's masked
// distribution p from the teacher's q over the whole vocabulary, and its gradient by the student's logits.
// GPU twin of src/backend/cpu/distil.ts (same names, same conventions; the math is in its header); wrapper:
// src/backend/webgpu/distil.ts.
//
// distil_divergence      @binding(0) shape: DistilShape (uniform)
//                        @binding(1) student: f32[rows * vocab], masked log-probs (MASKED_LOG_PROB where forbidden)
//                        @binding(2) teacher: f32[rows * vocab], the same under the same masks
//                        @binding(3) masks: u32[rows * mask_words], bit v & 31 of word v >> 5 = token v allowed
//                        @binding(4) row_weight: f32[rows]
//                        @binding(5) divergence: f32[rows] (written)
//   divergence[r] = D(p_r || q_r) where row_weight[r] != 0; 0 elsewhere, and that row's teacher is not read.
// distil_logit_gradient  bindings 0-4 as above, row_weight = the scale of each row
//                        @binding(5) dlogits: f32[rows * vocab] (read_write)
//   dlogits[r, j] += scale[r] p_j (g_j - sum_i p_i g_i) on row r's allowed tokens: the gradient of
//   sum_r scale[r] D_r by the logits, added to what dlogits holds; rows with scale 0 are left as they are.
//   dispatch (both): one workgroup of WG threads per row, grid (grid_x, ceil(rows / grid_x), 1),
//   row = wid.y * grid_x + wid.x.
//
// alpha = 0 is the reverse KL, g_j = log p_j - log q_j; alpha in (0, 1) the JSD of the mixture
// m = alpha p + (1 - alpha) q, g_j = alpha (log p_j - log m_j). A row with one allowed token has p = 1:
// D = 0 and no gradient. Only allowed tokens are read. Sums over a row are fixed-order trees over a
// power-of-two WG (set per vocabulary by the wrapper), so a row gives the same bits on every run.
// WG, bit_set, reduction_scratch and reduce_sum come from shaders/prelude.wgsl.

struct DistilShape {
  rows: u32,
  vocab: u32,
  mask_words: u32,
  grid_x: u32,
  alpha: f32,
  _pad0: u32,
  _pad1: u32,
  _pad2: u32,
}

@group(0) @binding(0) var<uniform> shape: DistilShape;
@group(0) @binding(1) var<storage, read> student: array<f32>;
@group(0) @binding(2) var<storage, read> teacher: array<f32>;
@group(0) @binding(3) var<storage, read> masks: array<u32>;
@group(0) @binding(4) var<storage, read> row_weight: array<f32>;
@group(0) @binding(5) var<storage, read_write> divergence: array<f32>;

fn is_allowed(mask_base: u32, token: u32) -> bool {
  return bit_set(masks[mask_base + (token >> 5u)], token);
}

// log m_j: the larger log-prob plus the log of the mixture relative to it, which is exactly that log-prob
// where the two agree (a forced token's D is then exactly 0). The log's argument lies in (alpha, 1] or
// (1 - alpha, 1], far from 0.
fn log_mixture(lp: f32, lq: f32) -> f32 {
  let alpha = shape.alpha;
  if (lp >= lq) {
    return lp + log(1.0 + (1.0 - alpha) * (exp(lq - lp) - 1.0));
  }
  return lq + log(1.0 + alpha * (exp(lp - lq) - 1.0));
}

// One allowed token's part of D.
fn divergence_term(lp: f32, lq: f32) -> f32 {
  let alpha = shape.alpha;
  if (alpha == 0.0) {
    return exp(lp) * (lp - lq);
  }
  let lm = log_mixture(lp, lq);
  return alpha * exp(lp) * (lp - lm) + (1.0 - alpha) * exp(lq) * (lq - lm);
}

// g_j: the derivative of D by p_j, up to a constant of the row.
fn divergence_slope(lp: f32, lq: f32) -> f32 {
  if (shape.alpha == 0.0) {
    return lp - lq;
  }
  return shape.alpha * (lp - log_mixture(lp, lq));
}

@compute @workgroup_size(WG)
fn distil_divergence(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) lid: u32) {
  let row = wid.y * shape.grid_x + wid.x;
  if (row >= shape.rows) {
    return;
  }
  let base = row * shape.vocab;
  let mask_base = row * shape.mask_words;
  var local_sum = 0.0;
  if (row_weight[row] != 0.0) {
    for (var v = lid; v < shape.vocab; v += WG) {
      if (is_allowed(mask_base, v)) {
        local_sum += divergence_term(student[base + v], teacher[base + v]);
      }
    }
  }
  reduce_sum(lid, local_sum);
  if (lid == 0u) {
    divergence[row] = reduction_scratch[0];
  }
}

@group(0) @binding(5) var<storage, read_write> dlogits: array<f32>;

@compute @workgroup_size(WG)
fn distil_logit_gradient(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) lid: u32) {
  let row = wid.y * shape.grid_x + wid.x;
  if (row >= shape.rows) {
    return;
  }
  let base = row * shape.vocab;
  let mask_base = row * shape.mask_words;
  let scale = row_weight[row];
  var local_sum = 0.0;
  if (scale != 0.0) {
    for (var v = lid; v < shape.vocab; v += WG) {
      if (is_allowed(mask_base, v)) {
        let lp = student[base + v];
        local_sum += exp(lp) * divergence_slope(lp, teacher[base + v]);
      }
    }
  }
  reduce_sum(lid, local_sum);
  let mean = reduction_scratch[0];
  if (scale != 0.0) {
    for (var v = lid; v < shape.vocab; v += WG) {
      if (is_allowed(mask_base, v)) {
        let lp = student[base + v];
        dlogits[base + v] += scale * exp(lp) * (divergence_slope(lp, teacher[base + v]) - mean);
      }
    }
  }
}
