// Declarations shared by every kernel module: the pipeline cache puts this file in front of each shader's
// source (src/backend/webgpu/prelude.ts), so a shader uses these without declaring them, and declares none
// of these names itself.
//
// WG               threads per workgroup of the one-thread-per-element kernels (log_softmax: per row).
//                  No default: every pipeline sets it, from the constant that also sizes the dispatch.
// flat_index       the thread's element index in a grid folded into y past 65535 workgroups
//                  (src/backend/webgpu/kernel.ts threadGrid): (wid.y * grid_x + wid.x) * WG + lid.
// bit_set          bit i & 31 of a u32 word: allowed-token masks (bit v & 31 of word v >> 5 = token v
//                  allowed) and weight-decay bits.
// MASKED_LOG_PROB  log-probability of a disallowed token: finite, since WGSL may assume no infinities
//                  (src/backend/contract.ts holds its TypeScript twin).
// LOWEST_F32       the most negative finite f32, the start of a running max.

override WG: u32;

const MASKED_LOG_PROB: f32 = -1e30;
const LOWEST_F32: f32 = -3.4028234e38;

fn flat_index(wid: vec3u, lid: u32, grid_x: u32) -> u32 {
  return (wid.y * grid_x + wid.x) * WG + lid;
}

fn bit_set(word: u32, i: u32) -> bool {
  return ((word >> (i & 31u)) & 1u) == 1u;
}
