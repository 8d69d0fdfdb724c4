// Causal multi-head self-attention over a fused qkv buffer (llm.c's attention_forward/backward). GPU twin of
// src/backend/cpu/attention.ts; wrapper: src/backend/webgpu/attention.ts.
//
// qkv: [slots, t_cap, 3C], row t of a slot = [q | k | v], head h at columns h*hs .. (h+1)*hs - 1 of each
// part (hs = C / NH). Sequence b of a dispatch computes rows seqs[b].pos0 .. pos0 + count - 1 of slot
// seqs[b].slot, each attending to keys 0 .. its position: training runs every row of every sequence
// (slot = b, pos0 = 0, t_cap = rows); the decoder runs only the new rows of each stream against its cache.
//
// attention_forward          @binding(0) shape: Shape (uniform)
//                            @binding(1) seqs: SeqRows[b]   @binding(2) qkv: f32[slots * t_cap * 3C]
//                            @binding(3) out: f32[b * rows * C] (rows past count are written as 0)
//                            @binding(4) att: f32[b * NH * rows * att_cap], softmax weights kept for backward
//                            (att_cap >= every computed position + 1: rows in training, the longest stream in decoding)
//   dispatch: one thread per (b, h, r), WG per workgroup, grid (grid_x, ...)
// attention_backward_scores  @binding(0) shape  @binding(1) qkv  @binding(2) att  @binding(3) dout: f32[b * rows * C]
//                            @binding(4) dpre: f32[b * NH * rows * rows] (written: d loss / d pre-softmax score)
//                            @binding(5) dqkv: f32[b * rows * 3C] (written by attention_backward_qkv)
//   dispatch: one thread per (b, h, t); training layout only (slot = b, pos0 = 0, t_cap = rows)
// attention_backward_qkv     same bindings; one thread per element of dqkv, each summing its own terms in order
//   (dq over keys, dk and dv over queries), so no two threads write one value and no atomics are needed.
//
// WG, flat_index and LOWEST_F32 come from shaders/prelude.wgsl.

struct Shape {
  b: u32,
  rows: u32,
  t_cap: u32,
  c: u32,
  nh: u32,
  grid_x: u32,
  att_cap: u32,
  _pad: u32,
}

struct SeqRows {
  slot: u32,
  pos0: u32,
  count: u32,
  _pad: u32,
}

@group(0) @binding(0) var<uniform> shape: Shape;
@group(0) @binding(1) var<storage, read> seqs: array<SeqRows>;
@group(0) @binding(2) var<storage, read> qkv_cache: array<f32>;
@group(0) @binding(3) var<storage, read_write> out: array<f32>;
@group(0) @binding(4) var<storage, read_write> att_out: array<f32>;

@compute @workgroup_size(WG)
fn attention_forward(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) lid: u32) {
  let i = flat_index(wid, lid, shape.grid_x);
  let rows = shape.rows;
  let nh = shape.nh;
  if (i >= shape.b * nh * rows) {
    return;
  }
  let r = i % rows;
  let h = (i / rows) % nh;
  let b = i / (rows * nh);
  let c = shape.c;
  let hs = c / nh;
  let o = (b * rows + r) * c + h * hs;
  let seq = seqs[b];
  if (r >= seq.count) {
    for (var k = 0u; k < hs; k++) {
      out[o + k] = 0.0;
    }
    return;
  }
  let c3 = 3u * c;
  let t = seq.pos0 + r;
  let base = seq.slot * shape.t_cap * c3;
  let q = base + t * c3 + h * hs;
  let a = ((b * nh + h) * rows + r) * shape.att_cap;
  let scale = 1.0 / sqrt(f32(hs));
  var mx = LOWEST_F32;
  for (var t2 = 0u; t2 <= t; t2++) {
    let kk = base + t2 * c3 + c + h * hs;
    var s = 0.0;
    for (var k = 0u; k < hs; k++) {
      s += qkv_cache[q + k] * qkv_cache[kk + k];
    }
    s *= scale;
    att_out[a + t2] = s;
    mx = max(mx, s);
  }
  var sum = 0.0;
  for (var t2 = 0u; t2 <= t; t2++) {
    let e = exp(att_out[a + t2] - mx);
    att_out[a + t2] = e;
    sum += e;
  }
  let inv = 1.0 / sum;
  for (var t2 = 0u; t2 <= t; t2++) {
    att_out[a + t2] *= inv;
  }
  for (var k = 0u; k < hs; k++) {
    var acc = 0.0;
    for (var t2 = 0u; t2 <= t; t2++) {
      acc += att_out[a + t2] * qkv_cache[base + t2 * c3 + 2u * c + h * hs + k];
    }
    out[o + k] = acc;
  }
}

@group(0) @binding(1) var<storage, read> qkv: array<f32>;
@group(0) @binding(2) var<storage, read> att: array<f32>;
@group(0) @binding(3) var<storage, read> dout: array<f32>;
@group(0) @binding(4) var<storage, read_write> dpre: array<f32>;
@group(0) @binding(5) var<storage, read_write> dqkv: array<f32>;

@compute @workgroup_size(WG)
fn attention_backward_scores(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) lid: u32) {
  let i = flat_index(wid, lid, shape.grid_x);
  let rows = shape.rows;
  let nh = shape.nh;
  if (i >= shape.b * nh * rows) {
    return;
  }
  let t = i % rows;
  let h = (i / rows) % nh;
  let b = i / (rows * nh);
  let c = shape.c;
  let c3 = 3u * c;
  let hs = c / nh;
  let scale = 1.0 / sqrt(f32(hs));
  let a = ((b * nh + h) * rows + t) * rows;
  let o = (b * rows + t) * c + h * hs;
  // datt[t2] = v[t2] . dout[t], kept in dpre until the softmax backward overwrites it.
  var dot = 0.0;
  for (var t2 = 0u; t2 <= t; t2++) {
    let v = (b * rows + t2) * c3 + 2u * c + h * hs;
    var s = 0.0;
    for (var k = 0u; k < hs; k++) {
      s += qkv[v + k] * dout[o + k];
    }
    dpre[a + t2] = s;
    dot += att[a + t2] * s;
  }
  for (var t2 = 0u; t2 <= t; t2++) {
    dpre[a + t2] = att[a + t2] * (dpre[a + t2] - dot) * scale;
  }
}

@compute @workgroup_size(WG)
fn attention_backward_qkv(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) lid: u32) {
  let i = flat_index(wid, lid, shape.grid_x);
  let rows = shape.rows;
  let c = shape.c;
  let c3 = 3u * c;
  if (i >= shape.b * rows * c3) {
    return;
  }
  let j = i % c3;
  let t = (i / c3) % rows;
  let b = i / (c3 * rows);
  let part = j / c;
  let nh = shape.nh;
  let hs = c / nh;
  let h = (j % c) / hs;
  let k = j % hs;
  let head = (b * nh + h) * rows;
  var acc = 0.0;
  if (part == 0u) {
    // dq[t] = sum over keys t2 <= t of dpre[t, t2] k[t2]
    for (var t2 = 0u; t2 <= t; t2++) {
      acc += dpre[(head + t) * rows + t2] * qkv[(b * rows + t2) * c3 + c + h * hs + k];
    }
  } else if (part == 1u) {
    // dk[t] = sum over queries t1 >= t of dpre[t1, t] q[t1]
    for (var t1 = t; t1 < rows; t1++) {
      acc += dpre[(head + t1) * rows + t] * qkv[(b * rows + t1) * c3 + h * hs + k];
    }
  } else {
    // dv[t] = sum over queries t1 >= t of att[t1, t] dout[t1]
    for (var t1 = t; t1 < rows; t1++) {
      acc += att[(head + t1) * rows + t] * dout[(b * rows + t1) * c + h * hs + k];
    }
  }
  dqkv[i] = acc;
}
