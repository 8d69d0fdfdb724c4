// Row moves and fills: the gather of the rows whose logits are needed, the scatter of their gradient back,
// the KV-cache write of newly decoded rows, and zeroing. Wrapper: src/backend/webgpu/rows.ts.
//
// copy_rows  @binding(0) shape: Shape (uniform)   @binding(1) pairs: u32[rows * 2], (source row, target row)
//            @binding(2) inp: f32[.. * width]   @binding(3) out: f32[.. * width]
//   out[pairs[2i + 1] * width + k] = inp[pairs[2i] * width + k]; one thread per (i, k), grid (grid_x, ...)
// fill       @binding(0) shape (rows = element count, value)   @binding(1) out: f32[rows]; one thread per element
//
// WG and flat_index come from shaders/prelude.wgsl.

struct Shape {
  rows: u32,
  width: u32,
  value: f32,
  grid_x: u32,
}

@group(0) @binding(0) var<uniform> shape: Shape;
@group(0) @binding(1) var<storage, read> pairs: array<u32>;
@group(0) @binding(2) var<storage, read> inp: array<f32>;
@group(0) @binding(3) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(WG)
fn copy_rows(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) lid: u32) {
  let i = flat_index(wid, lid, shape.grid_x);
  if (i >= shape.rows * shape.width) {
    return;
  }
  let r = i / shape.width;
  let k = i % shape.width;
  out[pairs[2u * r + 1u] * shape.width + k] = inp[pairs[2u * r] * shape.width + k];
}

@group(0) @binding(1) var<storage, read_write> filled: array<f32>;

@compute @workgroup_size(WG)
fn fill(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) lid: u32) {
  let i = flat_index(wid, lid, shape.grid_x);
  if (i >= shape.rows) {
    return;
  }
  filled[i] = shape.value;
}
