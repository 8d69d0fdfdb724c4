;; LayerNorm over the last dimension in WebAssembly SIMD (f32x4), forward and backward: the twins of the
;; float64 loops in layernorm.ts (llm.c's layernorm_forward/backward).
;;
;; Memory: the module imports the CPU heap ("env" "memory", heap.ts); pointers are in bytes, lengths in
;; floats. Dispatch: one call per buffer of N rows of C floats; 4 floats per step, the last C mod 4 through
;; the same vector code with only those floats read and written.
;;
;; Summation orders, per row (so a row is the same bits alone or in a batch): a row sum goes in four lanes,
;; lane l over c = l mod 4 in increasing c from +0, then (l0 + l1) + (l2 + l3); the forward's statistics in
;; f64, the rest in f32. The backward's dweight and
;; dbias take one product per row, rows in increasing order, each added to the float already there.
;; WebAssembly has no fused multiply-add, so every engine rounds the same way.
(module
  (import "env" "memory" (memory 1 65536 shared))

  ;; include lanes.wati

  ;; the high two lanes of v as f64
  (func $high (param $v v128) (result v128)
    (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 8 9 10 11 12 13 14 15 (local.get $v) (local.get $v))))

  ;; (l0 + l1) + (l2 + l3) of four f64 lanes held as two f64x2 (lanes 0, 1 and 2, 3)
  (func $hsum64 (param $lo v128) (param $hi v128) (result f64)
    (f64.add
      (f64.add (f64x2.extract_lane 0 (local.get $lo)) (f64x2.extract_lane 1 (local.get $lo)))
      (f64.add (f64x2.extract_lane 0 (local.get $hi)) (f64x2.extract_lane 1 (local.get $hi)))))

  ;; out: [N, C]; mean, rstd: [N]; inp: [N, C]; w, b: [C].
  ;;   m = (sum_c x_c) / C;  var = (sum_c (x_c - m)^2) / C;  s = 1 / sqrt(var + eps)   (in f64, four lanes)
  ;;   out_c = ((x_c - m) s) w_c + b_c                                                   (in f32, m and s rounded)
  ;; The statistics are f64 as in the float64 loop, so inputs near the f32 range give a finite row.
  (func (export "layernorm_forward")
    (param $out i32) (param $mean i32) (param $rstd i32) (param $inp i32) (param $w i32) (param $b i32)
    (param $N i32) (param $C i32) (param $eps f32)
    (local $n i32) (local $x i32) (local $o i32) (local $c i32) (local $end i32) (local $rem i32) (local $bytes i32)
    (local $v v128) (local $lo v128) (local $hi v128) (local $d v128) (local $mask v128) (local $maskLo v128) (local $maskHi v128)
    (local $m64 v128) (local $vm v128) (local $vs v128) (local $m f64) (local $r f32) (local $fc f64)
    (local.set $end (i32.and (local.get $C) (i32.const -4)))
    (local.set $rem (i32.and (local.get $C) (i32.const 3)))
    (local.set $bytes (i32.shl (local.get $C) (i32.const 2)))
    (local.set $fc (f64.convert_i32_u (local.get $C)))
    (local.set $mask (call $laneMask (local.get $rem)))
    (local.set $maskLo (i8x16.shuffle 0 1 2 3 0 1 2 3 4 5 6 7 4 5 6 7 (local.get $mask) (local.get $mask)))
    (local.set $maskHi (i8x16.shuffle 8 9 10 11 8 9 10 11 12 13 14 15 12 13 14 15 (local.get $mask) (local.get $mask)))
    (local.set $x (local.get $inp))
    (local.set $o (local.get $out))
    (block $dn (loop $ln
      (br_if $dn (i32.ge_u (local.get $n) (local.get $N)))
      ;; mean
      (local.set $lo (v128.const i32x4 0 0 0 0))
      (local.set $hi (v128.const i32x4 0 0 0 0))
      (local.set $c (i32.const 0))
      (block $d1 (loop $l1
        (br_if $d1 (i32.ge_u (local.get $c) (local.get $end)))
        (local.set $v (v128.load (i32.add (local.get $x) (i32.shl (local.get $c) (i32.const 2)))))
        (local.set $lo (f64x2.add (local.get $lo) (f64x2.promote_low_f32x4 (local.get $v))))
        (local.set $hi (f64x2.add (local.get $hi) (call $high (local.get $v))))
        (local.set $c (i32.add (local.get $c) (i32.const 4)))
        (br $l1)))
      (if (local.get $rem)
        (then
          (local.set $v (call $tail (i32.add (local.get $x) (i32.shl (local.get $end) (i32.const 2))) (local.get $rem)))
          (local.set $lo (f64x2.add (local.get $lo) (f64x2.promote_low_f32x4 (local.get $v))))
          (local.set $hi (f64x2.add (local.get $hi) (call $high (local.get $v))))))
      (local.set $m (f64.div (call $hsum64 (local.get $lo) (local.get $hi)) (local.get $fc)))
      (local.set $m64 (f64x2.splat (local.get $m)))
      ;; variance
      (local.set $lo (v128.const i32x4 0 0 0 0))
      (local.set $hi (v128.const i32x4 0 0 0 0))
      (local.set $c (i32.const 0))
      (block $d2 (loop $l2
        (br_if $d2 (i32.ge_u (local.get $c) (local.get $end)))
        (local.set $v (v128.load (i32.add (local.get $x) (i32.shl (local.get $c) (i32.const 2)))))
        (local.set $d (f64x2.sub (f64x2.promote_low_f32x4 (local.get $v)) (local.get $m64)))
        (local.set $lo (f64x2.add (local.get $lo) (f64x2.mul (local.get $d) (local.get $d))))
        (local.set $d (f64x2.sub (call $high (local.get $v)) (local.get $m64)))
        (local.set $hi (f64x2.add (local.get $hi) (f64x2.mul (local.get $d) (local.get $d))))
        (local.set $c (i32.add (local.get $c) (i32.const 4)))
        (br $l2)))
      (if (local.get $rem)
        (then
          (local.set $v (call $tail (i32.add (local.get $x) (i32.shl (local.get $end) (i32.const 2))) (local.get $rem)))
          (local.set $d (v128.and (local.get $maskLo) (f64x2.sub (f64x2.promote_low_f32x4 (local.get $v)) (local.get $m64))))
          (local.set $lo (f64x2.add (local.get $lo) (f64x2.mul (local.get $d) (local.get $d))))
          (local.set $d (v128.and (local.get $maskHi) (f64x2.sub (call $high (local.get $v)) (local.get $m64))))
          (local.set $hi (f64x2.add (local.get $hi) (f64x2.mul (local.get $d) (local.get $d))))))
      (local.set $r (f32.demote_f64 (f64.div (f64.const 1)
        (f64.sqrt (f64.add (f64.div (call $hsum64 (local.get $lo) (local.get $hi)) (local.get $fc)) (f64.promote_f32 (local.get $eps)))))))
      (local.set $vm (f32x4.splat (f32.demote_f64 (local.get $m))))
      (local.set $vs (f32x4.splat (local.get $r)))
      ;; normalise, scale, shift
      (local.set $c (i32.const 0))
      (block $d3 (loop $l3
        (br_if $d3 (i32.ge_u (local.get $c) (local.get $end)))
        (v128.store (i32.add (local.get $o) (i32.shl (local.get $c) (i32.const 2)))
          (f32x4.add
            (f32x4.mul
              (f32x4.mul (f32x4.sub (v128.load (i32.add (local.get $x) (i32.shl (local.get $c) (i32.const 2)))) (local.get $vm)) (local.get $vs))
              (v128.load (i32.add (local.get $w) (i32.shl (local.get $c) (i32.const 2)))))
            (v128.load (i32.add (local.get $b) (i32.shl (local.get $c) (i32.const 2))))))
        (local.set $c (i32.add (local.get $c) (i32.const 4)))
        (br $l3)))
      (if (local.get $rem)
        (then (call $storeTail (i32.add (local.get $o) (i32.shl (local.get $end) (i32.const 2))) (local.get $rem)
          (f32x4.add
            (f32x4.mul
              (f32x4.mul (f32x4.sub (call $tail (i32.add (local.get $x) (i32.shl (local.get $end) (i32.const 2))) (local.get $rem)) (local.get $vm)) (local.get $vs))
              (call $tail (i32.add (local.get $w) (i32.shl (local.get $end) (i32.const 2))) (local.get $rem)))
            (call $tail (i32.add (local.get $b) (i32.shl (local.get $end) (i32.const 2))) (local.get $rem))))))
      (f32.store (i32.add (local.get $mean) (i32.shl (local.get $n) (i32.const 2))) (f32.demote_f64 (local.get $m)))
      (f32.store (i32.add (local.get $rstd) (i32.shl (local.get $n) (i32.const 2))) (local.get $r))
      (local.set $x (i32.add (local.get $x) (local.get $bytes)))
      (local.set $o (i32.add (local.get $o) (local.get $bytes)))
      (local.set $n (i32.add (local.get $n) (i32.const 1)))
      (br $ln))))

  ;; Accumulates into dinp: [N, C], dw, db: [C]. Per row, norm_c = (x_c - m) s, dnorm_c = w_c dout_c:
  ;;   a = (sum_c dnorm_c) / C;  b = (sum_c dnorm_c norm_c) / C;
  ;;   db_c += dout_c;  dw_c += norm_c dout_c;  dinp_c += ((dnorm_c - a) - norm_c b) s
  (func (export "layernorm_backward")
    (param $dinp i32) (param $dw i32) (param $db i32) (param $dout i32) (param $inp i32) (param $w i32)
    (param $mean i32) (param $rstd i32) (param $N i32) (param $C i32)
    (local $n i32) (local $c i32) (local $end i32) (local $rem i32) (local $bytes i32) (local $off i32)
    (local $x i32) (local $dy i32) (local $dx i32) (local $fc f32)
    (local $vm v128) (local $vs v128) (local $sa v128) (local $sb v128) (local $va v128) (local $vb v128)
    (local $norm v128) (local $d v128) (local $dnorm v128) (local $mask v128)
    (local.set $end (i32.and (local.get $C) (i32.const -4)))
    (local.set $rem (i32.and (local.get $C) (i32.const 3)))
    (local.set $bytes (i32.shl (local.get $C) (i32.const 2)))
    (local.set $fc (f32.convert_i32_u (local.get $C)))
    (local.set $mask (call $laneMask (local.get $rem)))
    (local.set $x (local.get $inp))
    (local.set $dy (local.get $dout))
    (local.set $dx (local.get $dinp))
    (block $dn (loop $ln
      (br_if $dn (i32.ge_u (local.get $n) (local.get $N)))
      (local.set $vm (v128.load32_splat (i32.add (local.get $mean) (i32.shl (local.get $n) (i32.const 2)))))
      (local.set $vs (v128.load32_splat (i32.add (local.get $rstd) (i32.shl (local.get $n) (i32.const 2)))))
      (local.set $sa (v128.const i32x4 0 0 0 0))
      (local.set $sb (v128.const i32x4 0 0 0 0))
      (local.set $c (i32.const 0))
      (block $d1 (loop $l1
        (br_if $d1 (i32.ge_u (local.get $c) (local.get $end)))
        (local.set $off (i32.shl (local.get $c) (i32.const 2)))
        (local.set $norm (f32x4.mul (f32x4.sub (v128.load (i32.add (local.get $x) (local.get $off))) (local.get $vm)) (local.get $vs)))
        (local.set $dnorm (f32x4.mul (v128.load (i32.add (local.get $w) (local.get $off))) (v128.load (i32.add (local.get $dy) (local.get $off)))))
        (local.set $sa (f32x4.add (local.get $sa) (local.get $dnorm)))
        (local.set $sb (f32x4.add (local.get $sb) (f32x4.mul (local.get $dnorm) (local.get $norm))))
        (local.set $c (i32.add (local.get $c) (i32.const 4)))
        (br $l1)))
      (if (local.get $rem)
        (then
          (local.set $off (i32.shl (local.get $end) (i32.const 2)))
          (local.set $norm (v128.and (local.get $mask)
            (f32x4.mul (f32x4.sub (call $tail (i32.add (local.get $x) (local.get $off)) (local.get $rem)) (local.get $vm)) (local.get $vs))))
          (local.set $dnorm (f32x4.mul (call $tail (i32.add (local.get $w) (local.get $off)) (local.get $rem))
            (call $tail (i32.add (local.get $dy) (local.get $off)) (local.get $rem))))
          (local.set $sa (f32x4.add (local.get $sa) (local.get $dnorm)))
          (local.set $sb (f32x4.add (local.get $sb) (f32x4.mul (local.get $dnorm) (local.get $norm))))))
      (local.set $va (f32x4.splat (f32.div (call $hsum (local.get $sa)) (local.get $fc))))
      (local.set $vb (f32x4.splat (f32.div (call $hsum (local.get $sb)) (local.get $fc))))
      (local.set $c (i32.const 0))
      (block $d2 (loop $l2
        (br_if $d2 (i32.ge_u (local.get $c) (local.get $end)))
        (local.set $off (i32.shl (local.get $c) (i32.const 2)))
        (local.set $norm (f32x4.mul (f32x4.sub (v128.load (i32.add (local.get $x) (local.get $off))) (local.get $vm)) (local.get $vs)))
        (local.set $d (v128.load (i32.add (local.get $dy) (local.get $off))))
        (local.set $dnorm (f32x4.mul (v128.load (i32.add (local.get $w) (local.get $off))) (local.get $d)))
        (v128.store (i32.add (local.get $db) (local.get $off)) (f32x4.add (v128.load (i32.add (local.get $db) (local.get $off))) (local.get $d)))
        (v128.store (i32.add (local.get $dw) (local.get $off))
          (f32x4.add (v128.load (i32.add (local.get $dw) (local.get $off))) (f32x4.mul (local.get $norm) (local.get $d))))
        (v128.store (i32.add (local.get $dx) (local.get $off))
          (f32x4.add (v128.load (i32.add (local.get $dx) (local.get $off)))
            (f32x4.mul (f32x4.sub (f32x4.sub (local.get $dnorm) (local.get $va)) (f32x4.mul (local.get $norm) (local.get $vb))) (local.get $vs))))
        (local.set $c (i32.add (local.get $c) (i32.const 4)))
        (br $l2)))
      (if (local.get $rem)
        (then
          (local.set $off (i32.shl (local.get $end) (i32.const 2)))
          (local.set $norm (f32x4.mul (f32x4.sub (call $tail (i32.add (local.get $x) (local.get $off)) (local.get $rem)) (local.get $vm)) (local.get $vs)))
          (local.set $d (call $tail (i32.add (local.get $dy) (local.get $off)) (local.get $rem)))
          (local.set $dnorm (f32x4.mul (call $tail (i32.add (local.get $w) (local.get $off)) (local.get $rem)) (local.get $d)))
          (call $storeTail (i32.add (local.get $db) (local.get $off)) (local.get $rem)
            (f32x4.add (call $tail (i32.add (local.get $db) (local.get $off)) (local.get $rem)) (local.get $d)))
          (call $storeTail (i32.add (local.get $dw) (local.get $off)) (local.get $rem)
            (f32x4.add (call $tail (i32.add (local.get $dw) (local.get $off)) (local.get $rem)) (f32x4.mul (local.get $norm) (local.get $d))))
          (call $storeTail (i32.add (local.get $dx) (local.get $off)) (local.get $rem)
            (f32x4.add (call $tail (i32.add (local.get $dx) (local.get $off)) (local.get $rem))
              (f32x4.mul (f32x4.sub (f32x4.sub (local.get $dnorm) (local.get $va)) (f32x4.mul (local.get $norm) (local.get $vb))) (local.get $vs))))))
      (local.set $x (i32.add (local.get $x) (local.get $bytes)))
      (local.set $dy (i32.add (local.get $dy) (local.get $bytes)))
      (local.set $dx (i32.add (local.get $dx) (local.get $bytes)))
      (local.set $n (i32.add (local.get $n) (i32.const 1)))
      (br $ln))))
)
