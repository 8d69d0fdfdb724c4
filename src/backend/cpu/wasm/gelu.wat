;; GELU's forward and backward in WebAssembly SIMD (f32x4) on the vector exp of exp.wati: the twins of the
;; float64 loops in gelu.ts (tanh form, through exp).
;;
;; Memory: the module imports the CPU heap ("env" "memory", heap.ts); pointers are in bytes, lengths in
;; floats. Dispatch: one call per buffer; the forward 8 floats per step while they last (two vectors, their
;; exps interleaved), then 4, the last n mod 4 through the same vector code with only those floats read and
;; written. Elementwise, so each float is the same bits wherever it falls.
(module
  (import "env" "memory" (memory 1 65536 shared))

  ;; include lanes.wati
  ;; include exp.wati

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

  ;; $gelu4 of two vectors, the same operations on each lane, their exps interleaved ($exp4x2)
  (func $gelu4x2 (param $xa v128) (param $xb v128) (result v128 v128)
    (local $ua v128) (local $ub v128) (local $ea v128) (local $eb v128)
    (local.set $ua (f32x4.mul (v128.const f32x4 0.7978845608028654 0.7978845608028654 0.7978845608028654 0.7978845608028654)
      (f32x4.add (local.get $xa)
        (f32x4.mul (v128.const f32x4 0.044715 0.044715 0.044715 0.044715)
          (f32x4.mul (f32x4.mul (local.get $xa) (local.get $xa)) (local.get $xa))))))
    (local.set $ub (f32x4.mul (v128.const f32x4 0.7978845608028654 0.7978845608028654 0.7978845608028654 0.7978845608028654)
      (f32x4.add (local.get $xb)
        (f32x4.mul (v128.const f32x4 0.044715 0.044715 0.044715 0.044715)
          (f32x4.mul (f32x4.mul (local.get $xb) (local.get $xb)) (local.get $xb))))))
    (call $exp4x2 (f32x4.add (local.get $ua) (local.get $ua)) (f32x4.add (local.get $ub) (local.get $ub)))
    (local.set $eb)
    (local.set $ea)
    (f32x4.sub (local.get $xa) (f32x4.div (local.get $xa) (f32x4.add (v128.const f32x4 1 1 1 1) (local.get $ea))))
    (f32x4.sub (local.get $xb) (f32x4.div (local.get $xb) (f32x4.add (v128.const f32x4 1 1 1 1) (local.get $eb)))))

  ;; out[i] = gelu(inp[i]) for i < n (tanh form, through exp as gelu.ts); out may alias inp
  (func (export "gelu_forward") (param $out i32) (param $inp i32) (param $n i32)
    (local $end i32) (local $rem i32) (local $a v128) (local $b v128)
    (local.set $end (i32.add (local.get $inp) (i32.shl (i32.and (local.get $n) (i32.const -4)) (i32.const 2))))
    (local.set $rem (i32.and (local.get $n) (i32.const 3)))
    (block $pairs (loop $twos
      (br_if $pairs (i32.gt_u (i32.add (local.get $inp) (i32.const 32)) (local.get $end)))
      ;; both loaded before either is stored: out may alias inp
      (call $gelu4x2 (v128.load (local.get $inp)) (v128.load offset=16 (local.get $inp)))
      (local.set $b)
      (local.set $a)
      (v128.store (local.get $out) (local.get $a))
      (v128.store offset=16 (local.get $out) (local.get $b))
      (local.set $inp (i32.add (local.get $inp) (i32.const 32)))
      (local.set $out (i32.add (local.get $out) (i32.const 32)))
      (br $twos)))
    (block $done (loop $chunks
      (br_if $done (i32.ge_u (local.get $inp) (local.get $end)))
      (v128.store (local.get $out) (call $gelu4 (v128.load (local.get $inp))))
      (local.set $inp (i32.add (local.get $inp) (i32.const 16)))
      (local.set $out (i32.add (local.get $out) (i32.const 16)))
      (br $chunks)))
    (if (local.get $rem)
      (then (call $storeTail (local.get $out) (local.get $rem)
        (call $gelu4 (call $loadTail (local.get $inp) (local.get $rem) (f32.const 0)))))))

  ;; dinp[i] += gelu'(inp[i]) dout[i] for i < n (tanh form, through exp as gelu.ts):
  ;;   th = 1 - 2 / (1 + exp(2u));  gelu' = 0.5 (1 + th) + 0.5 x (1 - th^2) sqrt(2 / pi) (1 + 3 0.044715 x^2)
  (func $geluGrad4 (param $x v128) (result v128)
    (local $u v128) (local $th v128) (local $x2 v128)
    (local.set $x2 (f32x4.mul (local.get $x) (local.get $x)))
    (local.set $u (f32x4.mul (v128.const f32x4 0.7978845608028654 0.7978845608028654 0.7978845608028654 0.7978845608028654)
      (f32x4.add (local.get $x)
        (f32x4.mul (v128.const f32x4 0.044715 0.044715 0.044715 0.044715) (f32x4.mul (local.get $x2) (local.get $x))))))
    (local.set $th (f32x4.sub (v128.const f32x4 1 1 1 1)
      (f32x4.div (v128.const f32x4 2 2 2 2)
        (f32x4.add (v128.const f32x4 1 1 1 1) (call $exp4 (f32x4.add (local.get $u) (local.get $u)))))))
    (f32x4.add
      (f32x4.mul (v128.const f32x4 0.5 0.5 0.5 0.5) (f32x4.add (v128.const f32x4 1 1 1 1) (local.get $th)))
      (f32x4.mul
        (f32x4.mul
          (f32x4.mul (f32x4.mul (v128.const f32x4 0.5 0.5 0.5 0.5) (local.get $x))
            (f32x4.sub (v128.const f32x4 1 1 1 1) (f32x4.mul (local.get $th) (local.get $th))))
          (v128.const f32x4 0.7978845608028654 0.7978845608028654 0.7978845608028654 0.7978845608028654))
        (f32x4.add (v128.const f32x4 1 1 1 1) (f32x4.mul (v128.const f32x4 0.134145 0.134145 0.134145 0.134145) (local.get $x2))))))

  (func (export "gelu_backward") (param $dinp i32) (param $inp i32) (param $dout i32) (param $n i32)
    (local $end i32) (local $rem i32)
    (local.set $end (i32.add (local.get $inp) (i32.shl (i32.and (local.get $n) (i32.const -4)) (i32.const 2))))
    (local.set $rem (i32.and (local.get $n) (i32.const 3)))
    (block $done (loop $chunks
      (br_if $done (i32.ge_u (local.get $inp) (local.get $end)))
      (v128.store (local.get $dinp) (f32x4.add (v128.load (local.get $dinp))
        (f32x4.mul (call $geluGrad4 (v128.load (local.get $inp))) (v128.load (local.get $dout)))))
      (local.set $inp (i32.add (local.get $inp) (i32.const 16)))
      (local.set $dout (i32.add (local.get $dout) (i32.const 16)))
      (local.set $dinp (i32.add (local.get $dinp) (i32.const 16)))
      (br $chunks)))
    (if (local.get $rem)
      (then (call $storeTail (local.get $dinp) (local.get $rem)
        (f32x4.add (call $loadTail (local.get $dinp) (local.get $rem) (f32.const 0))
          (f32x4.mul (call $geluGrad4 (call $loadTail (local.get $inp) (local.get $rem) (f32.const 0)))
            (call $loadTail (local.get $dout) (local.get $rem) (f32.const 0))))))))
)
