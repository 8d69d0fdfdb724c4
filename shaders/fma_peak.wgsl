// FMA-bound microbenchmark: the adapter's own arithmetic peak, the roofline that bench kernels divides
// every kernel's GFLOP/s by. Wrapper: src/backend/webgpu/fma_peak.ts (run by src/cli/bench/kernels/).
//
// fma_peak  @binding(0) shape: Shape (uniform)   @binding(1) out: f32[threads] (keeps the result alive)
//   dispatch: `threads` threads in workgroups of WG (x only; WG from shaders/prelude.wgsl). Each thread
//   runs `iters` iterations of four independent vec4 FMA chains: 4 chains x 4 lanes x 2 FLOP = 32 FLOP per
//   iteration, no memory traffic.

struct Shape {
  iters: u32,
  threads: u32,
  _pad0: u32,
  _pad1: u32,
}

@group(0) @binding(0) var<uniform> shape: Shape;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(WG)
fn fma_peak(@builtin(global_invocation_id) gid: vec3u) {
  if (gid.x >= shape.threads) {
    return;
  }
  let seed = f32(gid.x) * 1e-7;
  var a = vec4f(seed, 1.0, 2.0, 3.0);
  var b = a + vec4f(0.5);
  var c = a + vec4f(0.25);
  var d = a + vec4f(0.125);
  let m = vec4f(0.9999999);
  let k = vec4f(1e-7);
  for (var i = 0u; i < shape.iters; i++) {
    a = fma(a, m, k);
    b = fma(b, m, k);
    c = fma(c, m, k);
    d = fma(d, m, k);
  }
  out[gid.x] = dot(a + b + c + d, vec4f(1.0));
}
