;; The CPU backend's kernels built on a vector exp, in WebAssembly SIMD (f32x4): attention's softmax rows
;; (twin of the loops in attention.ts) and GELU's forward (twin of gelu.ts).
;;
;; Memory: the module imports the CPU heap ("env" "memory", heap.ts); pointers are in bytes, lengths in
;; floats. Dispatch: one call per softmax row, one per GELU buffer; 4 floats per step, the last n mod 4
;; through the same vector code one lane at a time.
;;
;; exp is Cephes' expf (range reduction by ln 2 in two parts, degree-5 polynomial), 1-2 ulp, and the same
;; bits on every engine (no fused multiply-add in WebAssembly). Arguments are clamped to +-88.376: below,
;; the result is exactly 0 (2^-127 scaled by a zero exponent field); above, +Infinity.
(module
  (import "env" "memory" (memory 1 65536 shared))

  (func $exp4 (param $x v128) (result v128)
    (local $fx v128) (local $z v128) (local $y v128)
    (local.set $x (f32x4.min (local.get $x) (v128.const f32x4 88.3762626647949 88.3762626647949 88.3762626647949 88.3762626647949)))
    (local.set $x (f32x4.max (local.get $x) (v128.const f32x4 -88.3762626647949 -88.3762626647949 -88.3762626647949 -88.3762626647949)))
    (local.set $fx (f32x4.floor (f32x4.add
      (f32x4.mul (local.get $x) (v128.const f32x4 1.44269504088896341 1.44269504088896341 1.44269504088896341 1.44269504088896341))
      (v128.const f32x4 0.5 0.5 0.5 0.5))))
    (local.set $x (f32x4.sub (local.get $x) (f32x4.mul (local.get $fx) (v128.const f32x4 0.693359375 0.693359375 0.693359375 0.693359375))))
    (local.set $x (f32x4.sub (local.get $x) (f32x4.mul (local.get $fx) (v128.const f32x4 -2.12194440e-4 -2.12194440e-4 -2.12194440e-4 -2.12194440e-4))))
    (local.set $z (f32x4.mul (local.get $x) (local.get $x)))
    (local.set $y (v128.const f32x4 1.9875691500e-4 1.9875691500e-4 1.9875691500e-4 1.9875691500e-4))
    (local.set $y (f32x4.add (f32x4.mul (local.get $y) (local.get $x)) (v128.const f32x4 1.3981999507e-3 1.3981999507e-3 1.3981999507e-3 1.3981999507e-3)))
    (local.set $y (f32x4.add (f32x4.mul (local.get $y) (local.get $x)) (v128.const f32x4 8.3334519073e-3 8.3334519073e-3 8.3334519073e-3 8.3334519073e-3)))
    (local.set $y (f32x4.add (f32x4.mul (local.get $y) (local.get $x)) (v128.const f32x4 4.1665795894e-2 4.1665795894e-2 4.1665795894e-2 4.1665795894e-2)))
    (local.set $y (f32x4.add (f32x4.mul (local.get $y) (local.get $x)) (v128.const f32x4 1.6666665459e-1 1.6666665459e-1 1.6666665459e-1 1.6666665459e-1)))
    (local.set $y (f32x4.add (f32x4.mul (local.get $y) (local.get $x)) (v128.const f32x4 5.0000001201e-1 5.0000001201e-1 5.0000001201e-1 5.0000001201e-1)))
    (local.set $y (f32x4.add (f32x4.add (f32x4.mul (local.get $y) (local.get $z)) (local.get $x)) (v128.const f32x4 1 1 1 1)))
    ;; 2^fx from the exponent field; fx is in [-127, 128]
    (f32x4.mul (local.get $y)
      (i32x4.shl (i32x4.add (i32x4.trunc_sat_f32x4_s (local.get $fx)) (v128.const i32x4 127 127 127 127)) (i32.const 23))))

  ;; lanes 0 .. rem-1 all ones, the others zero (rem < 4)
  (func $laneMask (param $rem i32) (result v128)
    (i32x4.lt_s (v128.const i32x4 0 1 2 3) (i32x4.splat (local.get $rem))))

  ;; p[0 .. rem-1] into lanes 0 .. rem-1 (others `fill`), reading only those floats
  (func $loadTail (param $p i32) (param $rem i32) (param $fill f32) (result v128)
    (local $v v128)
    (local.set $v (f32x4.splat (local.get $fill)))
    (if (i32.gt_u (local.get $rem) (i32.const 0))
      (then (local.set $v (f32x4.replace_lane 0 (local.get $v) (f32.load (local.get $p))))))
    (if (i32.gt_u (local.get $rem) (i32.const 1))
      (then (local.set $v (f32x4.replace_lane 1 (local.get $v) (f32.load offset=4 (local.get $p))))))
    (if (i32.gt_u (local.get $rem) (i32.const 2))
      (then (local.set $v (f32x4.replace_lane 2 (local.get $v) (f32.load offset=8 (local.get $p))))))
    (local.get $v))

  ;; lanes 0 .. rem-1 of v to p[0 .. rem-1]
  (func $storeTail (param $p i32) (param $rem i32) (param $v v128)
    (if (i32.gt_u (local.get $rem) (i32.const 0)) (then (f32.store (local.get $p) (f32x4.extract_lane 0 (local.get $v)))))
    (if (i32.gt_u (local.get $rem) (i32.const 1)) (then (f32.store offset=4 (local.get $p) (f32x4.extract_lane 1 (local.get $v)))))
    (if (i32.gt_u (local.get $rem) (i32.const 2)) (then (f32.store offset=8 (local.get $p) (f32x4.extract_lane 2 (local.get $v))))))

  ;; One causal attention row in place: p[i] = softmax(scale * p[0 .. n-1])_i for i < n (n >= 1), and
  ;; p[n .. width-1] = 0 (the keys past the query). v_i = scale * p_i, e_i = exp(v_i - max v); the sum of
  ;; e goes in four lanes (lane j over i = j mod 4), then (l0 + l1) + (l2 + l3); then p_i = e_i * (1 / sum).
  ;; The order depends on n alone, so a query's row is the same bits alone or in a batch.
  (func (export "softmax_row") (param $p i32) (param $n i32) (param $scale f32) (param $width i32)
    (local $q i32) (local $end i32) (local $rem i32) (local $vscale v128) (local $vmax v128) (local $m f32)
    (local $sum v128) (local $e v128) (local $inv v128) (local $s f32)
    (local.set $vscale (f32x4.splat (local.get $scale)))
    (local.set $end (i32.add (local.get $p) (i32.shl (i32.and (local.get $n) (i32.const -4)) (i32.const 2))))
    (local.set $rem (i32.and (local.get $n) (i32.const 3)))
    (local.set $vmax (f32x4.splat (f32.const -inf)))
    (local.set $q (local.get $p))
    (block $d1 (loop $l1
      (br_if $d1 (i32.ge_u (local.get $q) (local.get $end)))
      (local.set $vmax (f32x4.max (local.get $vmax) (f32x4.mul (v128.load (local.get $q)) (local.get $vscale))))
      (local.set $q (i32.add (local.get $q) (i32.const 16)))
      (br $l1)))
    (if (local.get $rem)
      (then (local.set $vmax (f32x4.max (local.get $vmax)
        (f32x4.mul (call $loadTail (local.get $end) (local.get $rem) (f32.const -inf)) (local.get $vscale))))))
    (local.set $m (f32.max
      (f32.max (f32x4.extract_lane 0 (local.get $vmax)) (f32x4.extract_lane 1 (local.get $vmax)))
      (f32.max (f32x4.extract_lane 2 (local.get $vmax)) (f32x4.extract_lane 3 (local.get $vmax)))))
    (local.set $vmax (f32x4.splat (local.get $m)))
    (local.set $q (local.get $p))
    (block $d2 (loop $l2
      (br_if $d2 (i32.ge_u (local.get $q) (local.get $end)))
      (local.set $e (call $exp4 (f32x4.sub (f32x4.mul (v128.load (local.get $q)) (local.get $vscale)) (local.get $vmax))))
      (v128.store (local.get $q) (local.get $e))
      (local.set $sum (f32x4.add (local.get $sum) (local.get $e)))
      (local.set $q (i32.add (local.get $q) (i32.const 16)))
      (br $l2)))
    (if (local.get $rem)
      (then
        (local.set $e (v128.and (call $laneMask (local.get $rem))
          (call $exp4 (f32x4.sub (f32x4.mul (call $loadTail (local.get $end) (local.get $rem) (f32.const 0)) (local.get $vscale)) (local.get $vmax)))))
        (call $storeTail (local.get $end) (local.get $rem) (local.get $e))
        (local.set $sum (f32x4.add (local.get $sum) (local.get $e)))))
    (local.set $s (f32.add
      (f32.add (f32x4.extract_lane 0 (local.get $sum)) (f32x4.extract_lane 1 (local.get $sum)))
      (f32.add (f32x4.extract_lane 2 (local.get $sum)) (f32x4.extract_lane 3 (local.get $sum)))))
    (local.set $inv (f32x4.splat (f32.div (f32.const 1) (local.get $s))))
    (local.set $q (local.get $p))
    (block $d3 (loop $l3
      (br_if $d3 (i32.ge_u (local.get $q) (local.get $end)))
      (v128.store (local.get $q) (f32x4.mul (v128.load (local.get $q)) (local.get $inv)))
      (local.set $q (i32.add (local.get $q) (i32.const 16)))
      (br $l3)))
    (if (local.get $rem)
      (then (call $storeTail (local.get $end) (local.get $rem)
        (f32x4.mul (call $loadTail (local.get $end) (local.get $rem) (f32.const 0)) (local.get $inv)))))
    (if (i32.gt_s (local.get $width) (local.get $n))
      (then (memory.fill
        (i32.add (local.get $p) (i32.shl (local.get $n) (i32.const 2)))
        (i32.const 0)
        (i32.shl (i32.sub (local.get $width) (local.get $n)) (i32.const 2))))))

  (func $gelu4 (param $x v128) (result v128)
    (local $u v128)
    ;; u = sqrt(2 / pi) (x + 0.044715 x^3); gelu = x - x / (1 + exp(2u))
    (local.set $u (f32x4.mul (v128.const f32x4 0.7978845608028654 0.7978845608028654 0.7978845608028654 0.7978845608028654)
      (f32x4.add (local.get $x)
        (f32x4.mul (v128.const f32x4 0.044715 0.044715 0.044715 0.044715)
          (f32x4.mul (f32x4.mul (local.get $x) (local.get $x)) (local.get $x))))))
    (f32x4.sub (local.get $x)
      (f32x4.div (local.get $x)
        (f32x4.add (v128.const f32x4 1 1 1 1) (call $exp4 (f32x4.add (local.get $u) (local.get $u)))))))

  ;; out[i] = gelu(inp[i]) for i < n (tanh form, through exp as gelu.ts); out may alias inp
  (func (export "gelu_forward") (param $out i32) (param $inp i32) (param $n i32)
    (local $end i32) (local $rem i32)
    (local.set $end (i32.add (local.get $inp) (i32.shl (i32.and (local.get $n) (i32.const -4)) (i32.const 2))))
    (local.set $rem (i32.and (local.get $n) (i32.const 3)))
    (block $done (loop $chunks
      (br_if $done (i32.ge_u (local.get $inp) (local.get $end)))
      (v128.store (local.get $out) (call $gelu4 (v128.load (local.get $inp))))
      (local.set $inp (i32.add (local.get $inp) (i32.const 16)))
      (local.set $out (i32.add (local.get $out) (i32.const 16)))
      (br $chunks)))
    (if (local.get $rem)
      (then (call $storeTail (local.get $out) (local.get $rem)
        (call $gelu4 (call $loadTail (local.get $inp) (local.get $rem) (f32.const 0))))))))
