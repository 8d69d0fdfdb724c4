// The SEED kernels (docs/seed-loss.md), GPU twins of src/backend/cpu/seed_loss.ts and of the
// dlogits loop of src/backend/cpu/cpu_backend.ts; wrapper: src/backend/webgpu/seed_loss.ts.
//
// probability_shift      @binding(0) hyper: Hyper (uniform)   @binding(1) inputs: TokenIn[n]
//                        @binding(2) l_student: f32[n]        @binding(3) out: TokenOut[n] (read_write)
//                        @binding(4) divergence: f32[n] (read by the coefficient with distil_on only)
//   Per token: Delta = l_skill - l_student and the gate g = sigmoid(beta Delta) (1 with the gate off): the
//   numbers of the UI's heatmap.
// seed_loss_coefficient  same bindings; reads out.gate. Per token, c = d L_SEED / d l_student and its parts
//   grpo = -mask A r / N (0 where the min takes the clipped term), opd = -opd_mask lambda g / N_opd,
//   kl = mask kl_coef (1 - exp(l_ref - l_student)) / N, and the unnormalised loss terms of the token
//   (mask * -min(rA, clip(r)A), opd_mask g Delta, mask k3), which the host sums in float64.
//   With distil_on (exact distillation), the OPD term is opd_mask distil_weight D with D the token's
//   divergence (shaders/distil.wgsl, copied to out.divergence), and opd = 0: its gradient is on the whole
//   row of logits (distil_logit_gradient), not on l_student.
//   dispatch (both): one thread per token, WG per workgroup, grid (grid_x, ...)
// seed_logit_gradient    @binding(0) shape: LogitShape   @binding(1) log_probs: f32[rows * vocab] (masked
//                        log-softmax)   @binding(2) masks: u32[rows * mask_words]   @binding(3) targets: i32[rows]
//                        @binding(4) tokens: TokenOut[rows]   @binding(5) dlogits: f32[rows * vocab] (written)
//   dlogits[r, v] = c_r (onehot(target_r) - p_r) on allowed tokens, 0 elsewhere; one thread per (r, v).
//
// N and N_opd are sums over the whole batch, known on the host before the kernels run: they arrive as
// inv_n = 1 / N and inv_n_opd = 1 / N_opd (0 for an empty mask, which makes that mean 0).
// WG, flat_index and bit_set come from shaders/prelude.wgsl.

struct Hyper {
  n: u32,
  inv_n: f32,
  inv_n_opd: f32,
  lambda: f32,
  beta: f32,
  clip: f32,
  kl_coef: f32,
  gate_on: u32,
  grid_x: u32,
  distil_on: u32,
  _pad0: u32,
  _pad1: u32,
}

struct TokenIn {
  advantage: f32,
  mask: f32,
  opd_mask: f32,
  l_skill: f32,
  l_old: f32,
  l_ref: f32,
  distil_weight: f32,
  _pad0: f32,
}

struct TokenOut {
  l_student: f32,
  delta: f32,
  gate: f32,
  coef: f32,
  coef_grpo: f32,
  coef_opd: f32,
  coef_kl: f32,
  term_grpo: f32,
  term_opd: f32,
  term_kl: f32,
  divergence: f32,
  _pad0: f32,
}

@group(0) @binding(0) var<uniform> hyper: Hyper;
@group(0) @binding(1) var<storage, read> inputs: array<TokenIn>;
@group(0) @binding(2) var<storage, read> l_student: array<f32>;
@group(0) @binding(3) var<storage, read_write> out: array<TokenOut>;
@group(0) @binding(4) var<storage, read> divergence: array<f32>;

// Never evaluates exp of a large positive number.
fn sigmoid(x: f32) -> f32 {
  if (x >= 0.0) {
    return 1.0 / (1.0 + exp(-x));
  }
  let e = exp(x);
  return e / (1.0 + e);
}

@compute @workgroup_size(WG)
fn probability_shift(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) lid: u32) {
  let k = flat_index(wid, lid, hyper.grid_x);
  if (k >= hyper.n) {
    return;
  }
  let ls = l_student[k];
  let delta = inputs[k].l_skill - ls;
  var g = 1.0;
  if (hyper.gate_on != 0u) {
    g = sigmoid(hyper.beta * delta);
  }
  out[k].l_student = ls;
  out[k].delta = delta;
  out[k].gate = g;
}

@compute @workgroup_size(WG)
fn seed_loss_coefficient(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) lid: u32) {
  let k = flat_index(wid, lid, hyper.grid_x);
  if (k >= hyper.n) {
    return;
  }
  let t = inputs[k];
  let ls = l_student[k];
  let g = out[k].gate;
  let a = t.advantage;
  let r = exp(ls - t.l_old);
  let r_clipped = clamp(r, 1.0 - hyper.clip, 1.0 + hyper.clip);
  let clipped = (a > 0.0 && r > 1.0 + hyper.clip) || (a < 0.0 && r < 1.0 - hyper.clip);
  var c_grpo = 0.0;
  if (!clipped) {
    c_grpo = t.mask * -a * r * hyper.inv_n;
  }
  var c_opd = 0.0;
  var term_opd = 0.0;
  var d = 0.0;
  if (hyper.distil_on != 0u) {
    d = divergence[k];
    term_opd = t.opd_mask * t.distil_weight * d;
  } else {
    c_opd = t.opd_mask * hyper.lambda * -g * hyper.inv_n_opd;
    term_opd = t.opd_mask * g * (t.l_skill - ls);
  }
  let ref_shift = t.l_ref - ls;
  let e_ref = exp(ref_shift);
  let c_kl = t.mask * hyper.kl_coef * (1.0 - e_ref) * hyper.inv_n;
  out[k].coef_grpo = c_grpo;
  out[k].coef_opd = c_opd;
  out[k].coef_kl = c_kl;
  out[k].coef = c_grpo + c_opd + c_kl;
  out[k].term_grpo = t.mask * -min(r * a, r_clipped * a);
  out[k].term_opd = term_opd;
  out[k].term_kl = t.mask * (e_ref - ref_shift - 1.0);
  out[k].divergence = d;
}

struct LogitShape {
  rows: u32,
  vocab: u32,
  mask_words: u32,
  grid_x: u32,
}

@group(0) @binding(0) var<uniform> shape: LogitShape;
@group(0) @binding(1) var<storage, read> log_probs: array<f32>;
@group(0) @binding(2) var<storage, read> masks: array<u32>;
@group(0) @binding(3) var<storage, read> targets: array<i32>;
@group(0) @binding(4) var<storage, read> tokens: array<TokenOut>;
@group(0) @binding(5) var<storage, read_write> dlogits: array<f32>;

@compute @workgroup_size(WG)
fn seed_logit_gradient(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) lid: u32) {
  let i = flat_index(wid, lid, shape.grid_x);
  if (i >= shape.rows * shape.vocab) {
    return;
  }
  let r = i / shape.vocab;
  let v = i % shape.vocab;
  let c = tokens[r].coef;
  let allowed = bit_set(masks[r * shape.mask_words + (v >> 5u)], v);
  var d = 0.0;
  if (allowed) {
    d = -c * exp(log_probs[i]);
  }
  if (i32(v) == targets[r]) {
    d += c;
  }
  dlogits[i] = d;
}
