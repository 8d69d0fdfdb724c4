// GELU in its tanh form (GPT-2, llm.c). GPU twin of src/backend/cpu/gelu.ts; wrapper:
// src/backend/webgpu/gelu.ts. (The residual connection is added by the projection's matmul_forward,
// shaders/matmul.wgsl.)
//
// gelu_forward      @binding(0) shape: Shape   @binding(1) inp: f32[n]   @binding(2) out: f32[n]
// gelu_backward     @binding(0) shape   @binding(1) inp: f32[n]   @binding(2) dout: f32[n]   @binding(3) dinp: f32[n] (written)
//   dispatch: one thread per element, WG per workgroup, grid (grid_x, ...)
//
// tanh's argument is clamped to +-15, where tanh is 1 to the last float32 bit: some tanh implementations
// overflow an internal exp for large arguments. WG and flat_index come from shaders/prelude.wgsl.

struct Shape {
  n: u32,
  grid_x: u32,
  _pad0: u32,
  _pad1: u32,
}

const GELU_SCALE: f32 = 0.7978845608028654;

@group(0) @binding(0) var<uniform> shape: Shape;
@group(0) @binding(1) var<storage, read> inp: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;

fn safe_tanh(u: f32) -> f32 {
  return tanh(clamp(u, -15.0, 15.0));
}

@compute @workgroup_size(WG)
fn gelu_forward(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) lid: u32) {
  let i = flat_index(wid, lid, shape.grid_x);
  if (i >= shape.n) {
    return;
  }
  let x = inp[i];
  out[i] = 0.5 * x * (1.0 + safe_tanh(GELU_SCALE * (x + 0.044715 * x * x * x)));
}

@group(0) @binding(2) var<storage, read> dout: array<f32>;
@group(0) @binding(3) var<storage, read_write> dinp: array<f32>;

@compute @workgroup_size(WG)
fn gelu_backward(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) lid: u32) {
  let i = flat_index(wid, lid, shape.grid_x);
  if (i >= shape.n) {
    return;
  }
  let x = inp[i];
  let th = safe_tanh(GELU_SCALE * (x + 0.044715 * x * x * x));
  let sech2 = 1.0 - th * th;
  let grad = 0.5 * (1.0 + th) + 0.5 * x * sech2 * GELU_SCALE * (1.0 + 3.0 * 0.044715 * x * x);
  dinp[i] = grad * dout[i];
}
