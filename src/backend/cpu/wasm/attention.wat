;; Causal multi-head self-attention in WebAssembly SIMD (f32x4), forward and backward: the twins of the
;; float64 loops in attention.ts (llm.c's attention_forward/backward).
;;
;; qkv: [T, 3C], row t = q | k | v, head h at floats h hs .. (h+1) hs - 1 of each part (hs = C / NH).
;; Every product goes through the register blocks of blocks.wati, lanes along the output row, so no lane
;; is ever summed across: the scores of 4 queries against 8 keys at a time (keys transposed, kT: [C, kts],
;; kT[c kts + t] = k_t[c], written by attention_keys), att . v, and in the backward datt = dout . v^T,
;; dq = dpre . k, dk = dpre^T . q, dv = att^T . dout. Queries go in blocks of 4 (then one at a time), each
;; block against the keys up to its last query: the products past a query's own row meet weights that the
;; softmax set to 0, which leave every sum unchanged (blocks.wati), so a query's row is the same bits alone
;; (the decoder), in any block, and on any thread.
;;
;; Memory: the module imports the CPU heap ("env" "memory", heap.ts); pointers are in bytes, lengths and
;; strides in floats. Dispatch: one call per layer (and one attention_keys per fed row range).
;;
;; Summation orders: each product as blocks.wati (k in increasing order from +0); a softmax row as
;; $softmaxRow (exp.wati); the backward's sum_j att_j datt_j in four lanes over j mod 4 from +0, then
;; (l0 + l1) + (l2 + l3). All in f32; no fused multiply-add in WebAssembly, so every engine rounds alike.
(module
  (import "env" "memory" (memory 1 65536 shared))

  ;; include lanes.wati
  ;; include exp.wati
  ;; include blocks.wati

  ;; kT[c kts + t] = qkv[t 3C + C + c] for t0 <= t < t1, c < C: the keys of rows t0 .. t1-1, transposed
  (func (export "attention_keys") (param $kT i32) (param $kts i32) (param $qkv i32) (param $t0 i32) (param $t1 i32) (param $C i32)
    (local $t i32) (local $c i32) (local $src i32) (local $dst i32)
    (local.set $t (local.get $t0))
    (block $dt (loop $lt
      (br_if $dt (i32.ge_u (local.get $t) (local.get $t1)))
      (local.set $src (i32.add (local.get $qkv) (i32.shl (i32.add (i32.mul (local.get $t) (i32.mul (local.get $C) (i32.const 3))) (local.get $C)) (i32.const 2))))
      (local.set $dst (i32.add (local.get $kT) (i32.shl (local.get $t) (i32.const 2))))
      (local.set $c (i32.const 0))
      (block $dc (loop $lc
        (br_if $dc (i32.ge_u (local.get $c) (local.get $C)))
        (f32.store (local.get $dst) (f32.load (local.get $src)))
        (local.set $src (i32.add (local.get $src) (i32.const 4)))
        (local.set $dst (i32.add (local.get $dst) (i32.shl (local.get $kts) (i32.const 2))))
        (local.set $c (i32.add (local.get $c) (i32.const 1)))
        (br $lc)))
      (local.set $t (i32.add (local.get $t) (i32.const 1)))
      (br $lt))))

  ;; Queries t0 .. t1-1 against keys 0 .. t each. out row r (query t0 + r) at out + r os floats; att:
  ;; [NH, t1 - t0, t1], the softmax weights with zeros past each query, kept for the backward; kT as written
  ;; by attention_keys for rows 0 .. t1-1. scale = 1 / sqrt(hs), applied inside $softmaxRow.
  (func (export "attention_forward")
    (param $out i32) (param $os i32) (param $att i32) (param $qkv i32) (param $kT i32) (param $kts i32)
    (param $t0 i32) (param $t1 i32) (param $C i32) (param $NH i32) (param $scale f32)
    (local $hs i32) (local $qs i32) (local $rows i32) (local $h i32) (local $tb i32) (local $R i32) (local $keys i32)
    (local $ho i32) (local $p i32) (local $r i32) (local $ws i32)
    (local.set $hs (i32.div_u (local.get $C) (local.get $NH)))
    (local.set $qs (i32.mul (local.get $C) (i32.const 12)))
    (local.set $rows (i32.sub (local.get $t1) (local.get $t0)))
    (local.set $ws (i32.shl (local.get $t1) (i32.const 2)))
    (block $dh (loop $lh
      (br_if $dh (i32.ge_u (local.get $h) (local.get $NH)))
      (local.set $ho (i32.shl (i32.mul (local.get $h) (local.get $hs)) (i32.const 2)))
      (local.set $tb (local.get $t0))
      (block $dt (loop $lt
        (br_if $dt (i32.ge_u (local.get $tb) (local.get $t1)))
        (local.set $R (select (i32.const 4) (i32.const 1) (i32.le_u (i32.add (local.get $tb) (i32.const 4)) (local.get $t1))))
        (local.set $keys (i32.add (local.get $tb) (local.get $R)))
        (local.set $p (i32.add (local.get $att)
          (i32.mul (i32.add (i32.mul (local.get $h) (local.get $rows)) (i32.sub (local.get $tb) (local.get $t0))) (local.get $ws))))
        ;; scores: q rows of the block . kT columns 0 .. keys-1
        (call $rows (local.get $R) (local.get $p) (local.get $ws)
          (i32.add (i32.add (local.get $qkv) (i32.mul (local.get $tb) (local.get $qs))) (local.get $ho)) (local.get $qs) (i32.const 4)
          (i32.add (local.get $kT) (i32.mul (i32.mul (local.get $h) (local.get $hs)) (i32.shl (local.get $kts) (i32.const 2))))
          (i32.shl (local.get $kts) (i32.const 2))
          (local.get $hs) (local.get $keys) (i32.const 0))
        (local.set $r (i32.const 0))
        (block $dr (loop $lr
          (br_if $dr (i32.ge_u (local.get $r) (local.get $R)))
          (call $softmaxRow (i32.add (local.get $p) (i32.mul (local.get $r) (local.get $ws)))
            (i32.add (i32.add (local.get $tb) (local.get $r)) (i32.const 1)) (local.get $scale) (local.get $t1))
          (local.set $r (i32.add (local.get $r) (i32.const 1)))
          (br $lr)))
        ;; out rows = att rows . v rows 0 .. keys-1
        (call $rows (local.get $R)
          (i32.add (i32.add (local.get $out) (i32.shl (i32.mul (i32.sub (local.get $tb) (local.get $t0)) (local.get $os)) (i32.const 2))) (local.get $ho))
          (i32.shl (local.get $os) (i32.const 2))
          (local.get $p) (local.get $ws) (i32.const 4)
          (i32.add (i32.add (local.get $qkv) (i32.shl (local.get $C) (i32.const 3))) (local.get $ho)) (local.get $qs)
          (local.get $keys) (local.get $hs) (i32.const 0))
        (local.set $tb (i32.add (local.get $tb) (local.get $R)))
        (br $lt)))
      (local.set $h (i32.add (local.get $h) (i32.const 1)))
      (br $lh))))

  ;; Backward of attention_forward with t0 = 0, t1 = T, accumulated into dqkv: [T, 3C]. dout: [T, C];
  ;; scratch: T T + hs T floats (dpre, then the head's values transposed). Per head:
  ;;   datt = dout . v^T;  per row t: dot = sum_{j <= t} att_j datt_j, dpre_j = (att_j (datt_j - dot)) scale;
  ;;   dq += dpre . k;  dk += dpre^T . q;  dv += att^T . dout   (each product summed, then added to dqkv)
  (func (export "attention_backward")
    (param $dqkv i32) (param $dout i32) (param $qkv i32) (param $att i32) (param $scratch i32)
    (param $T i32) (param $C i32) (param $NH i32) (param $scale f32)
    (local $hs i32) (local $qs i32) (local $ws i32) (local $h i32) (local $ho i32) (local $tb i32) (local $R i32)
    (local $vT i32) (local $t i32) (local $i i32) (local $src i32) (local $dst i32) (local $a i32) (local $d i32)
    (local $j i32) (local $end i32) (local $rem i32) (local $z i32)
    (local $s v128) (local $dot v128) (local $vscale v128)
    (local.set $hs (i32.div_u (local.get $C) (local.get $NH)))
    (local.set $qs (i32.mul (local.get $C) (i32.const 12)))
    (local.set $ws (i32.shl (local.get $T) (i32.const 2)))
    (local.set $vT (i32.add (local.get $scratch) (i32.mul (local.get $T) (local.get $ws))))
    (local.set $vscale (f32x4.splat (local.get $scale)))
    (block $dh (loop $lh
      (br_if $dh (i32.ge_u (local.get $h) (local.get $NH)))
      (local.set $ho (i32.shl (i32.mul (local.get $h) (local.get $hs)) (i32.const 2)))
      ;; vT[i T + t] = v_t[i]
      (local.set $t (i32.const 0))
      (block $d0 (loop $l0
        (br_if $d0 (i32.ge_u (local.get $t) (local.get $T)))
        (local.set $src (i32.add (i32.add (i32.add (local.get $qkv) (i32.mul (local.get $t) (local.get $qs))) (i32.shl (local.get $C) (i32.const 3))) (local.get $ho)))
        (local.set $dst (i32.add (local.get $vT) (i32.shl (local.get $t) (i32.const 2))))
        (local.set $i (i32.const 0))
        (block $di (loop $li
          (br_if $di (i32.ge_u (local.get $i) (local.get $hs)))
          (f32.store (local.get $dst) (f32.load (local.get $src)))
          (local.set $src (i32.add (local.get $src) (i32.const 4)))
          (local.set $dst (i32.add (local.get $dst) (local.get $ws)))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br $li)))
        (local.set $t (i32.add (local.get $t) (i32.const 1)))
        (br $l0)))
      ;; datt rows of each block of queries, keys up to the block's last query
      (local.set $tb (i32.const 0))
      (block $d1 (loop $l1
        (br_if $d1 (i32.ge_u (local.get $tb) (local.get $T)))
        (local.set $R (select (i32.const 4) (i32.const 1) (i32.le_u (i32.add (local.get $tb) (i32.const 4)) (local.get $T))))
        (call $rows (local.get $R)
          (i32.add (local.get $scratch) (i32.mul (local.get $tb) (local.get $ws))) (local.get $ws)
          (i32.add (i32.add (local.get $dout) (i32.shl (i32.mul (local.get $tb) (local.get $C)) (i32.const 2))) (local.get $ho))
          (i32.shl (local.get $C) (i32.const 2)) (i32.const 4)
          (local.get $vT) (local.get $ws)
          (local.get $hs) (i32.add (local.get $tb) (local.get $R)) (i32.const 0))
        (local.set $tb (i32.add (local.get $tb) (local.get $R)))
        (br $l1)))
      ;; dpre, row by row, in place; zeros past the query for the blocks' products
      (local.set $t (i32.const 0))
      (block $d2 (loop $l2
        (br_if $d2 (i32.ge_u (local.get $t) (local.get $T)))
        (local.set $a (i32.add (local.get $att) (i32.mul (i32.add (i32.mul (local.get $h) (local.get $T)) (local.get $t)) (local.get $ws))))
        (local.set $d (i32.add (local.get $scratch) (i32.mul (local.get $t) (local.get $ws))))
        (local.set $end (i32.shl (i32.and (i32.add (local.get $t) (i32.const 1)) (i32.const -4)) (i32.const 2)))
        (local.set $rem (i32.and (i32.add (local.get $t) (i32.const 1)) (i32.const 3)))
        (local.set $s (v128.const i32x4 0 0 0 0))
        (local.set $j (i32.const 0))
        (block $dj (loop $lj
          (br_if $dj (i32.ge_u (local.get $j) (local.get $end)))
          (local.set $s (f32x4.add (local.get $s) (f32x4.mul
            (v128.load (i32.add (local.get $a) (local.get $j))) (v128.load (i32.add (local.get $d) (local.get $j))))))
          (local.set $j (i32.add (local.get $j) (i32.const 16)))
          (br $lj)))
        (if (local.get $rem)
          (then (local.set $s (f32x4.add (local.get $s) (f32x4.mul
            (call $tail (i32.add (local.get $a) (local.get $end)) (local.get $rem))
            (call $tail (i32.add (local.get $d) (local.get $end)) (local.get $rem)))))))
        (local.set $dot (f32x4.splat (call $hsum (local.get $s))))
        (local.set $j (i32.const 0))
        (block $dk (loop $lk
          (br_if $dk (i32.ge_u (local.get $j) (local.get $end)))
          (v128.store (i32.add (local.get $d) (local.get $j))
            (f32x4.mul (f32x4.mul (v128.load (i32.add (local.get $a) (local.get $j)))
              (f32x4.sub (v128.load (i32.add (local.get $d) (local.get $j))) (local.get $dot))) (local.get $vscale)))
          (local.set $j (i32.add (local.get $j) (i32.const 16)))
          (br $lk)))
        (if (local.get $rem)
          (then (call $storeTail (i32.add (local.get $d) (local.get $end)) (local.get $rem)
            (f32x4.mul (f32x4.mul (call $tail (i32.add (local.get $a) (local.get $end)) (local.get $rem))
              (f32x4.sub (call $tail (i32.add (local.get $d) (local.get $end)) (local.get $rem)) (local.get $dot))) (local.get $vscale)))))
        ;; dpre[t, t+1 .. t+3] = 0 (within the row)
        (local.set $z (i32.add (local.get $t) (i32.const 1)))
        (block $dz (loop $lz
          (br_if $dz (i32.or (i32.ge_u (local.get $z) (local.get $T)) (i32.gt_u (local.get $z) (i32.add (local.get $t) (i32.const 3)))))
          (f32.store (i32.add (local.get $d) (i32.shl (local.get $z) (i32.const 2))) (f32.const 0))
          (local.set $z (i32.add (local.get $z) (i32.const 1)))
          (br $lz)))
        (local.set $t (i32.add (local.get $t) (i32.const 1)))
        (br $l2)))
      ;; dq rows of each block of queries (keys up to its last query); dk and dv rows of each block of keys
      ;; (queries from its first key on)
      (local.set $tb (i32.const 0))
      (block $d3 (loop $l3
        (br_if $d3 (i32.ge_u (local.get $tb) (local.get $T)))
        (local.set $R (select (i32.const 4) (i32.const 1) (i32.le_u (i32.add (local.get $tb) (i32.const 4)) (local.get $T))))
        (call $rows (local.get $R)
          (i32.add (i32.add (local.get $dqkv) (i32.mul (local.get $tb) (local.get $qs))) (local.get $ho)) (local.get $qs)
          (i32.add (local.get $scratch) (i32.mul (local.get $tb) (local.get $ws))) (local.get $ws) (i32.const 4)
          (i32.add (i32.add (local.get $qkv) (i32.shl (local.get $C) (i32.const 2))) (local.get $ho)) (local.get $qs)
          (i32.add (local.get $tb) (local.get $R)) (local.get $hs) (i32.const 1))
        (call $rows (local.get $R)
          (i32.add (i32.add (i32.add (local.get $dqkv) (i32.mul (local.get $tb) (local.get $qs))) (i32.shl (local.get $C) (i32.const 2))) (local.get $ho)) (local.get $qs)
          (i32.add (local.get $scratch) (i32.add (i32.mul (local.get $tb) (local.get $ws)) (i32.shl (local.get $tb) (i32.const 2)))) (i32.const 4) (local.get $ws)
          (i32.add (i32.add (local.get $qkv) (i32.mul (local.get $tb) (local.get $qs))) (local.get $ho)) (local.get $qs)
          (i32.sub (local.get $T) (local.get $tb)) (local.get $hs) (i32.const 1))
        (call $rows (local.get $R)
          (i32.add (i32.add (i32.add (local.get $dqkv) (i32.mul (local.get $tb) (local.get $qs))) (i32.shl (local.get $C) (i32.const 3))) (local.get $ho)) (local.get $qs)
          (i32.add (local.get $att) (i32.add (i32.mul (i32.add (i32.mul (local.get $h) (local.get $T)) (local.get $tb)) (local.get $ws)) (i32.shl (local.get $tb) (i32.const 2))))
          (i32.const 4) (local.get $ws)
          (i32.add (i32.add (local.get $dout) (i32.shl (i32.mul (local.get $tb) (local.get $C)) (i32.const 2))) (local.get $ho)) (i32.shl (local.get $C) (i32.const 2))
          (i32.sub (local.get $T) (local.get $tb)) (local.get $hs) (i32.const 1))
        (local.set $tb (i32.add (local.get $tb) (local.get $R)))
        (br $l3)))
      (local.set $h (i32.add (local.get $h) (i32.const 1)))
      (br $lh))))
)
