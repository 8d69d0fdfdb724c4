;; The CPU backend's second matmul kernel in WebAssembly SIMD (f32x4), for the backward pass of the fully
;; connected layers (matmul.ts): products whose right operand is read by rows, so nothing is transposed.
;;
;;   out[n, m] = (accumulate ? out[n, m] : 0) + sum_k a[n ars + k acs] b[k bs + m]    n < N, m < M, k < K
;;
;; a is read one float at a time with any row and column strides (dinp = dout . W reads dout by rows,
;; dW = dout^T . inp reads it by columns); b and out by rows. col_sums gives the bias gradients.
;;
;; Memory: the module imports the CPU heap ("env" "memory", heap.ts); pointers are in bytes, strides in
;; floats. Dispatch: one call per product, in the register blocks of blocks.wati: 4 rows x 8 columns (8
;; f32x4 accumulators), then 4 columns, then the last M mod 4 one output at a time; the last N mod 4 rows
;; one at a time.
;;
;; Summation order, the same in every block (an output does not depend on the block it falls in): k in
;; increasing order from +0, each product rounded then added, then old out + that. All in f32; there is
;; no fused multiply-add in WebAssembly, so every engine rounds the same way.
(module
  (import "env" "memory" (memory 1 65536 shared))

  ;; include blocks.wati

  (func (export "mat_acc")
    (param $out i32) (param $os i32) (param $a i32) (param $ars i32) (param $acs i32) (param $b i32) (param $bs i32)
    (param $N i32) (param $K i32) (param $M i32) (param $acc i32)
    (local $n i32) (local $R i32)
    (local.set $os (i32.shl (local.get $os) (i32.const 2)))
    (local.set $ars (i32.shl (local.get $ars) (i32.const 2)))
    (local.set $acs (i32.shl (local.get $acs) (i32.const 2)))
    (local.set $bs (i32.shl (local.get $bs) (i32.const 2)))
    (block $dn (loop $ln
      (br_if $dn (i32.ge_s (local.get $n) (local.get $N)))
      (local.set $R (select (i32.const 4) (i32.const 1) (i32.le_s (i32.add (local.get $n) (i32.const 4)) (local.get $N))))
      (call $rows (local.get $R)
        (i32.add (local.get $out) (i32.mul (local.get $n) (local.get $os))) (local.get $os)
        (i32.add (local.get $a) (i32.mul (local.get $n) (local.get $ars))) (local.get $ars) (local.get $acs)
        (local.get $b) (local.get $bs) (local.get $K) (local.get $M) (local.get $acc))
      (local.set $n (i32.add (local.get $n) (local.get $R)))
      (br $ln))))

  ;; out[m] += sum_n a[n as + m] for m < M (the bias gradient of dout [N, M]): per column, n in increasing
  ;; order from +0, then added to out
  (func (export "col_sums") (param $out i32) (param $a i32) (param $as i32) (param $N i32) (param $M i32)
    (local $m i32) (local $n i32) (local $p i32) (local $s v128) (local $x f32)
    (local.set $as (i32.shl (local.get $as) (i32.const 2)))
    (block $d4 (loop $l4
      (br_if $d4 (i32.gt_s (i32.add (local.get $m) (i32.const 4)) (local.get $M)))
      (local.set $s (v128.const i32x4 0 0 0 0))
      (local.set $p (i32.add (local.get $a) (i32.shl (local.get $m) (i32.const 2))))
      (local.set $n (i32.const 0))
      (block $dn (loop $ln
        (br_if $dn (i32.ge_s (local.get $n) (local.get $N)))
        (local.set $s (f32x4.add (local.get $s) (v128.load (local.get $p))))
        (local.set $p (i32.add (local.get $p) (local.get $as)))
        (local.set $n (i32.add (local.get $n) (i32.const 1)))
        (br $ln)))
      (v128.store (i32.add (local.get $out) (i32.shl (local.get $m) (i32.const 2)))
        (f32x4.add (v128.load (i32.add (local.get $out) (i32.shl (local.get $m) (i32.const 2)))) (local.get $s)))
      (local.set $m (i32.add (local.get $m) (i32.const 4)))
      (br $l4)))
    (block $d1 (loop $l1
      (br_if $d1 (i32.ge_s (local.get $m) (local.get $M)))
      (local.set $x (f32.const 0))
      (local.set $p (i32.add (local.get $a) (i32.shl (local.get $m) (i32.const 2))))
      (local.set $n (i32.const 0))
      (block $dn (loop $ln
        (br_if $dn (i32.ge_s (local.get $n) (local.get $N)))
        (local.set $x (f32.add (local.get $x) (f32.load (local.get $p))))
        (local.set $p (i32.add (local.get $p) (local.get $as)))
        (local.set $n (i32.add (local.get $n) (i32.const 1)))
        (br $ln)))
      (f32.store (i32.add (local.get $out) (i32.shl (local.get $m) (i32.const 2)))
        (f32.add (f32.load (i32.add (local.get $out) (i32.shl (local.get $m) (i32.const 2)))) (local.get $x)))
      (local.set $m (i32.add (local.get $m) (i32.const 1)))
      (br $l1))))
)
