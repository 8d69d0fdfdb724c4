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
// reduce_sum,      the fixed-order tree sum and max of one value per thread over a workgroup of WG threads
// reduce_max       (a power of two), left in reduction_scratch[0]. Every thread of the workgroup calls them
//                  (they hold barriers) and reads reduction_scratch[0] before a barrier lets the next
//                  reduction reuse it. A workgroup array takes no memory in an entry point that never uses it.

override WG: u32;

const MASKED_LOG_PROB: f32 = -1e30;
const LOWEST_F32: f32 = -3.4028234e38;

fn flat_index(wid: vec3u, lid: u32, grid_x: u32) -> u32 {
  return (wid.y * grid_x + wid.x) * WG + lid;
}

fn bit_set(word: u32, i: u32) -> bool {
  return ((word >> (i & 31u)) & 1u) == 1u;
}

var<workgroup> reduction_scratch: array<f32, WG>;

fn reduce_sum(lid: u32, value: f32) {
  reduction_scratch[lid] = value;
  workgroupBarrier();
  for (var stride = WG / 2u; stride > 0u; stride >>= 1u) {
    if (lid < stride) {
      reduction_scratch[lid] = reduction_scratch[lid] + reduction_scratch[lid + stride];
    }
    workgroupBarrier();
  }
}

fn reduce_max(lid: u32, value: f32) {
  reduction_scratch[lid] = value;
  workgroupBarrier();
  for (var stride = WG / 2u; stride > 0u; stride >>= 1u) {
    if (lid < stride) {
      reduction_scratch[lid] = max(reduction_scratch[lid], reduction_scratch[lid + stride]);
    }
    workgroupBarrier();
  }
}
