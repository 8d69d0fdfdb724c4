;; dot_rows: the CPU backend's matmul kernel in WebAssembly SIMD (f32x4), the twin of dotRows in
;; src/backend/cpu/matmul.ts:
;;
;;   out[n, m] = (accumulate ? out[n, m] : 0) + (bias[m] + sum_k a[n, k] b[m, k])    n < N, m < M, k < K
;;
;; Memory: the module imports the CPU heap ("env" "memory", heap.ts); every operand is a byte pointer into
;; it with a row stride in floats (rows of a and b are contiguous in k). bias = 0 means none; accumulate is
;; 0 or 1. scripts/build-wasm.mjs also writes a variant with the memory not shared, for pages that are not
;; cross-origin isolated (there the operands are staged into the heap for each call).
;; Dispatch: one call computes the whole N x M product in blocks of 2 rows of a x 4 rows of b (8 f32x4
;; accumulators, 13 live vectors: no spills on 16-register SIMD units); the last odd row as 1 x 4 blocks, the
;; last M mod 4 columns one output at a time. A block's four lanes-of-four are reduced together by a 4 x 4
;; transpose, so its 4 outputs of a row leave in one vector store.
;;
;; Summation order, the same in every block so that an output never depends on the block it falls in (a
;; row alone in incremental decoding equals the same row in a batch, bit for bit): four lanes, lane j sums
;; the products of k = j mod 4 in increasing k from +0 (the last K mod 4 products included, each in its
;; own lane), then (lane0 + lane1) + (lane2 + lane3), then + bias, then old out + that. All in f32; there
;; is no fused multiply-add in WebAssembly, so every engine rounds the same way. Zero products appended
;; past the end of a row (causal attention's masked keys) leave every lane unchanged.
(module
  (import "env" "memory" (memory 1 65536 shared))

  ;; the k-tail of one row as a vector: p[0 .. rem-1] in lanes 0 .. rem-1, zeros in the others (rem < 4);
  ;; only the rem floats are read, so a row may end at the end of the heap
  (func $tail (param $p i32) (param $rem i32) (result v128)
    (local $v v128)
    (local.set $v (v128.const i32x4 0 0 0 0))
    (if (i32.gt_u (local.get $rem) (i32.const 0))
      (then (local.set $v (f32x4.replace_lane 0 (local.get $v) (f32.load (local.get $p))))))
    (if (i32.gt_u (local.get $rem) (i32.const 1))
      (then (local.set $v (f32x4.replace_lane 1 (local.get $v) (f32.load offset=4 (local.get $p))))))
    (if (i32.gt_u (local.get $rem) (i32.const 2))
      (then (local.set $v (f32x4.replace_lane 2 (local.get $v) (f32.load offset=8 (local.get $p))))))
    (local.get $v))

  ;; writes one output: the lanes of s summed in the fixed order, + bias, + old out
  (func $finish (param $p i32) (param $s v128) (param $bias i32) (param $acc i32)
    (local $x f32)
    (local.set $x
      (f32.add
        (f32.add (f32x4.extract_lane 0 (local.get $s)) (f32x4.extract_lane 1 (local.get $s)))
        (f32.add (f32x4.extract_lane 2 (local.get $s)) (f32x4.extract_lane 3 (local.get $s)))))
    (if (local.get $bias) (then (local.set $x (f32.add (local.get $x) (f32.load (local.get $bias))))))
    (if (local.get $acc) (then (local.set $x (f32.add (f32.load (local.get $p)) (local.get $x)))))
    (f32.store (local.get $p) (local.get $x)))

  ;; writes 4 consecutive outputs of one row (accumulators s0 .. s3): the same arithmetic as $finish, lane
  ;; for lane, after a 4 x 4 transpose puts lane i of every accumulator in vector u_i
  (func $finish4 (param $p i32) (param $s0 v128) (param $s1 v128) (param $s2 v128) (param $s3 v128)
                 (param $bias i32) (param $acc i32)
    (local $t0 v128) (local $t1 v128) (local $t2 v128) (local $t3 v128) (local $x v128)
    (local.set $t0 (i8x16.shuffle 0 1 2 3 16 17 18 19 4 5 6 7 20 21 22 23 (local.get $s0) (local.get $s1)))
    (local.set $t1 (i8x16.shuffle 8 9 10 11 24 25 26 27 12 13 14 15 28 29 30 31 (local.get $s0) (local.get $s1)))
    (local.set $t2 (i8x16.shuffle 0 1 2 3 16 17 18 19 4 5 6 7 20 21 22 23 (local.get $s2) (local.get $s3)))
    (local.set $t3 (i8x16.shuffle 8 9 10 11 24 25 26 27 12 13 14 15 28 29 30 31 (local.get $s2) (local.get $s3)))
    (local.set $x
      (f32x4.add
        (f32x4.add
          (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $t0) (local.get $t2))
          (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $t0) (local.get $t2)))
        (f32x4.add
          (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $t1) (local.get $t3))
          (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $t1) (local.get $t3)))))
    (if (local.get $bias) (then (local.set $x (f32x4.add (local.get $x) (v128.load (local.get $bias))))))
    (if (local.get $acc) (then (local.set $x (f32x4.add (v128.load (local.get $p)) (local.get $x)))))
    (v128.store (local.get $p) (local.get $x)))

  ;; 2 rows of a (a0, a0 + as) against 4 rows of b (b0, b0 + bs, ...): 8 outputs, 4 consecutive per row
  (func $block2x4 (param $o i32) (param $os i32) (param $a0 i32) (param $as i32) (param $b0 i32) (param $bs i32)
                 (param $K i32) (param $bias i32) (param $acc i32)
    (local $a1 i32) (local $b1 i32) (local $b2 i32) (local $b3 i32) (local $k i32) (local $rem i32)
    (local $x v128) (local $y0 v128) (local $y1 v128) (local $y2 v128) (local $y3 v128)
    (local $s00 v128) (local $s01 v128) (local $s02 v128) (local $s03 v128)
    (local $s10 v128) (local $s11 v128) (local $s12 v128) (local $s13 v128)
    (local.set $a1 (i32.add (local.get $a0) (local.get $as)))
    (local.set $b1 (i32.add (local.get $b0) (local.get $bs)))
    (local.set $b2 (i32.add (local.get $b1) (local.get $bs)))
    (local.set $b3 (i32.add (local.get $b2) (local.get $bs)))
    (local.set $k (i32.shr_u (local.get $K) (i32.const 2)))
    (block $done
      (loop $chunks
        (br_if $done (i32.eqz (local.get $k)))
        (local.set $y0 (v128.load (local.get $b0)))
        (local.set $y1 (v128.load (local.get $b1)))
        (local.set $y2 (v128.load (local.get $b2)))
        (local.set $y3 (v128.load (local.get $b3)))
        (local.set $x (v128.load (local.get $a0)))
        (local.set $s00 (f32x4.add (local.get $s00) (f32x4.mul (local.get $x) (local.get $y0))))
        (local.set $s01 (f32x4.add (local.get $s01) (f32x4.mul (local.get $x) (local.get $y1))))
        (local.set $s02 (f32x4.add (local.get $s02) (f32x4.mul (local.get $x) (local.get $y2))))
        (local.set $s03 (f32x4.add (local.get $s03) (f32x4.mul (local.get $x) (local.get $y3))))
        (local.set $x (v128.load (local.get $a1)))
        (local.set $s10 (f32x4.add (local.get $s10) (f32x4.mul (local.get $x) (local.get $y0))))
        (local.set $s11 (f32x4.add (local.get $s11) (f32x4.mul (local.get $x) (local.get $y1))))
        (local.set $s12 (f32x4.add (local.get $s12) (f32x4.mul (local.get $x) (local.get $y2))))
        (local.set $s13 (f32x4.add (local.get $s13) (f32x4.mul (local.get $x) (local.get $y3))))
        (local.set $a0 (i32.add (local.get $a0) (i32.const 16)))
        (local.set $a1 (i32.add (local.get $a1) (i32.const 16)))
        (local.set $b0 (i32.add (local.get $b0) (i32.const 16)))
        (local.set $b1 (i32.add (local.get $b1) (i32.const 16)))
        (local.set $b2 (i32.add (local.get $b2) (i32.const 16)))
        (local.set $b3 (i32.add (local.get $b3) (i32.const 16)))
        (local.set $k (i32.sub (local.get $k) (i32.const 1)))
        (br $chunks)))
    (local.set $rem (i32.and (local.get $K) (i32.const 3)))
    (if (local.get $rem)
      (then
        (local.set $y0 (call $tail (local.get $b0) (local.get $rem)))
        (local.set $y1 (call $tail (local.get $b1) (local.get $rem)))
        (local.set $y2 (call $tail (local.get $b2) (local.get $rem)))
        (local.set $y3 (call $tail (local.get $b3) (local.get $rem)))
        (local.set $x (call $tail (local.get $a0) (local.get $rem)))
        (local.set $s00 (f32x4.add (local.get $s00) (f32x4.mul (local.get $x) (local.get $y0))))
        (local.set $s01 (f32x4.add (local.get $s01) (f32x4.mul (local.get $x) (local.get $y1))))
        (local.set $s02 (f32x4.add (local.get $s02) (f32x4.mul (local.get $x) (local.get $y2))))
        (local.set $s03 (f32x4.add (local.get $s03) (f32x4.mul (local.get $x) (local.get $y3))))
        (local.set $x (call $tail (local.get $a1) (local.get $rem)))
        (local.set $s10 (f32x4.add (local.get $s10) (f32x4.mul (local.get $x) (local.get $y0))))
        (local.set $s11 (f32x4.add (local.get $s11) (f32x4.mul (local.get $x) (local.get $y1))))
        (local.set $s12 (f32x4.add (local.get $s12) (f32x4.mul (local.get $x) (local.get $y2))))
        (local.set $s13 (f32x4.add (local.get $s13) (f32x4.mul (local.get $x) (local.get $y3))))))
    (call $finish4 (local.get $o) (local.get $s00) (local.get $s01) (local.get $s02) (local.get $s03) (local.get $bias) (local.get $acc))
    (local.set $o (i32.add (local.get $o) (local.get $os)))
    (call $finish4 (local.get $o) (local.get $s10) (local.get $s11) (local.get $s12) (local.get $s13) (local.get $bias) (local.get $acc)))

  ;; 1 row of a (a0) against 4 rows of b (b0, b0 + bs, ...): 4 outputs, 4 consecutive per row
  (func $block1x4 (param $o i32) (param $os i32) (param $a0 i32) (param $as i32) (param $b0 i32) (param $bs i32)
                 (param $K i32) (param $bias i32) (param $acc i32)
    (local $b1 i32) (local $b2 i32) (local $b3 i32) (local $k i32) (local $rem i32)
    (local $x v128) (local $y0 v128) (local $y1 v128) (local $y2 v128) (local $y3 v128)
    (local $s00 v128) (local $s01 v128) (local $s02 v128) (local $s03 v128)
    (local.set $b1 (i32.add (local.get $b0) (local.get $bs)))
    (local.set $b2 (i32.add (local.get $b1) (local.get $bs)))
    (local.set $b3 (i32.add (local.get $b2) (local.get $bs)))
    (local.set $k (i32.shr_u (local.get $K) (i32.const 2)))
    (block $done
      (loop $chunks
        (br_if $done (i32.eqz (local.get $k)))
        (local.set $y0 (v128.load (local.get $b0)))
        (local.set $y1 (v128.load (local.get $b1)))
        (local.set $y2 (v128.load (local.get $b2)))
        (local.set $y3 (v128.load (local.get $b3)))
        (local.set $x (v128.load (local.get $a0)))
        (local.set $s00 (f32x4.add (local.get $s00) (f32x4.mul (local.get $x) (local.get $y0))))
        (local.set $s01 (f32x4.add (local.get $s01) (f32x4.mul (local.get $x) (local.get $y1))))
        (local.set $s02 (f32x4.add (local.get $s02) (f32x4.mul (local.get $x) (local.get $y2))))
        (local.set $s03 (f32x4.add (local.get $s03) (f32x4.mul (local.get $x) (local.get $y3))))
        (local.set $a0 (i32.add (local.get $a0) (i32.const 16)))
        (local.set $b0 (i32.add (local.get $b0) (i32.const 16)))
        (local.set $b1 (i32.add (local.get $b1) (i32.const 16)))
        (local.set $b2 (i32.add (local.get $b2) (i32.const 16)))
        (local.set $b3 (i32.add (local.get $b3) (i32.const 16)))
        (local.set $k (i32.sub (local.get $k) (i32.const 1)))
        (br $chunks)))
    (local.set $rem (i32.and (local.get $K) (i32.const 3)))
    (if (local.get $rem)
      (then
        (local.set $y0 (call $tail (local.get $b0) (local.get $rem)))
        (local.set $y1 (call $tail (local.get $b1) (local.get $rem)))
        (local.set $y2 (call $tail (local.get $b2) (local.get $rem)))
        (local.set $y3 (call $tail (local.get $b3) (local.get $rem)))
        (local.set $x (call $tail (local.get $a0) (local.get $rem)))
        (local.set $s00 (f32x4.add (local.get $s00) (f32x4.mul (local.get $x) (local.get $y0))))
        (local.set $s01 (f32x4.add (local.get $s01) (f32x4.mul (local.get $x) (local.get $y1))))
        (local.set $s02 (f32x4.add (local.get $s02) (f32x4.mul (local.get $x) (local.get $y2))))
        (local.set $s03 (f32x4.add (local.get $s03) (f32x4.mul (local.get $x) (local.get $y3))))))
    (call $finish4 (local.get $o) (local.get $s00) (local.get $s01) (local.get $s02) (local.get $s03) (local.get $bias) (local.get $acc)))

  ;; one row of a against one row of b
  (func $block1x1 (param $o i32) (param $a0 i32) (param $b0 i32) (param $K i32) (param $bias i32) (param $acc i32)
    (local $k i32) (local $rem i32) (local $s v128)
    (local.set $k (i32.shr_u (local.get $K) (i32.const 2)))
    (block $done
      (loop $chunks
        (br_if $done (i32.eqz (local.get $k)))
        (local.set $s (f32x4.add (local.get $s) (f32x4.mul (v128.load (local.get $a0)) (v128.load (local.get $b0)))))
        (local.set $a0 (i32.add (local.get $a0) (i32.const 16)))
        (local.set $b0 (i32.add (local.get $b0) (i32.const 16)))
        (local.set $k (i32.sub (local.get $k) (i32.const 1)))
        (br $chunks)))
    (local.set $rem (i32.and (local.get $K) (i32.const 3)))
    (if (local.get $rem)
      (then
        (local.set $s (f32x4.add (local.get $s)
          (f32x4.mul (call $tail (local.get $a0) (local.get $rem)) (call $tail (local.get $b0) (local.get $rem)))))))
    (call $finish (local.get $o) (local.get $s) (local.get $bias) (local.get $acc)))

  (func (export "dot_rows")
    (param $out i32) (param $os i32) (param $a i32) (param $as i32) (param $b i32) (param $bs i32)
    (param $bias i32) (param $N i32) (param $K i32) (param $M i32) (param $acc i32)
    (local $n i32) (local $m i32) (local $pa i32) (local $po i32) (local $r i32)
    (local.set $os (i32.shl (local.get $os) (i32.const 2)))
    (local.set $as (i32.shl (local.get $as) (i32.const 2)))
    (local.set $bs (i32.shl (local.get $bs) (i32.const 2)))
    (block $rowsDone
      (loop $rows
        (br_if $rowsDone (i32.ge_s (local.get $n) (local.get $N)))
        (local.set $pa (i32.add (local.get $a) (i32.mul (local.get $n) (local.get $as))))
        (local.set $po (i32.add (local.get $out) (i32.mul (local.get $n) (local.get $os))))
        ;; two rows at a time while two remain, then the last one
        (local.set $r (select (i32.const 2) (i32.const 1) (i32.le_s (i32.add (local.get $n) (i32.const 2)) (local.get $N))))
        (local.set $m (i32.const 0))
        (block $colsDone
          (loop $cols
            (br_if $colsDone (i32.gt_s (i32.add (local.get $m) (i32.const 4)) (local.get $M)))
            (if (i32.eq (local.get $r) (i32.const 2))
              (then
                (call $block2x4
                  (i32.add (local.get $po) (i32.shl (local.get $m) (i32.const 2))) (local.get $os)
                  (local.get $pa) (local.get $as)
                  (i32.add (local.get $b) (i32.mul (local.get $m) (local.get $bs))) (local.get $bs)
                  (local.get $K) (select (i32.add (local.get $bias) (i32.shl (local.get $m) (i32.const 2))) (i32.const 0) (local.get $bias)) (local.get $acc)))
              (else
                (call $block1x4
                  (i32.add (local.get $po) (i32.shl (local.get $m) (i32.const 2))) (local.get $os)
                  (local.get $pa) (local.get $as)
                  (i32.add (local.get $b) (i32.mul (local.get $m) (local.get $bs))) (local.get $bs)
                  (local.get $K) (select (i32.add (local.get $bias) (i32.shl (local.get $m) (i32.const 2))) (i32.const 0) (local.get $bias)) (local.get $acc))))
            (local.set $m (i32.add (local.get $m) (i32.const 4)))
            (br $cols)))
        (block $tailDone
          (loop $tailCols
            (br_if $tailDone (i32.ge_s (local.get $m) (local.get $M)))
            (call $block1x1
              (i32.add (local.get $po) (i32.shl (local.get $m) (i32.const 2)))
              (local.get $pa)
              (i32.add (local.get $b) (i32.mul (local.get $m) (local.get $bs)))
              (local.get $K) (select (i32.add (local.get $bias) (i32.shl (local.get $m) (i32.const 2))) (i32.const 0) (local.get $bias)) (local.get $acc))
            (if (i32.eq (local.get $r) (i32.const 2))
              (then
                (call $block1x1
                  (i32.add (i32.add (local.get $po) (local.get $os)) (i32.shl (local.get $m) (i32.const 2)))
                  (i32.add (local.get $pa) (local.get $as))
                  (i32.add (local.get $b) (i32.mul (local.get $m) (local.get $bs)))
                  (local.get $K) (select (i32.add (local.get $bias) (i32.shl (local.get $m) (i32.const 2))) (i32.const 0) (local.get $bias)) (local.get $acc))))
            (local.set $m (i32.add (local.get $m) (i32.const 1)))
            (br $tailCols)))
        (local.set $n (i32.add (local.get $n) (local.get $r)))
        (br $rows)))))
