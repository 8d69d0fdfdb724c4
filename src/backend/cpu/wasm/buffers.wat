;; Whole-buffer passes over the gradient in WebAssembly SIMD (f32x4): the sum of the gradient groups and the
;; accumulated gradient (cpu_backend.ts, sequence_jobs.ts), and the search for a float that is not finite.
;;
;; Memory: the module imports the CPU heap ("env" "memory", heap.ts); pointers are in bytes, lengths in
;; floats. Elementwise, so each float is the same bits wherever it falls: out[i] + a[i] in f32.
(module
  (import "env" "memory" (memory 1 65536 shared))

  ;; out[i] += a[i] for i < n
  (func (export "add_into") (param $out i32) (param $a i32) (param $n i32)
    (local $end i32)
    (local.set $end (i32.add (local.get $out) (i32.shl (i32.and (local.get $n) (i32.const -4)) (i32.const 2))))
    (block $done (loop $chunks
      (br_if $done (i32.ge_u (local.get $out) (local.get $end)))
      (v128.store (local.get $out) (f32x4.add (v128.load (local.get $out)) (v128.load (local.get $a))))
      (local.set $out (i32.add (local.get $out) (i32.const 16)))
      (local.set $a (i32.add (local.get $a) (i32.const 16)))
      (br $chunks)))
    (local.set $n (i32.and (local.get $n) (i32.const 3)))
    (block $tailDone (loop $tail
      (br_if $tailDone (i32.eqz (local.get $n)))
      (f32.store (local.get $out) (f32.add (f32.load (local.get $out)) (f32.load (local.get $a))))
      (local.set $out (i32.add (local.get $out) (i32.const 4)))
      (local.set $a (i32.add (local.get $a) (i32.const 4)))
      (local.set $n (i32.sub (local.get $n) (i32.const 1)))
      (br $tail))))

  ;; The index of the first float of a[0 .. n) that is NaN or infinite, or -1. x - x is 0 for a finite x and
  ;; NaN otherwise; a block of 4 with a NaN lane is searched float by float.
  (func (export "first_non_finite") (param $a i32) (param $n i32) (result i32)
    (local $i i32) (local $end i32) (local $x f32)
    (local.set $end (i32.and (local.get $n) (i32.const -4)))
    (block $found (loop $chunks
      (br_if $found (i32.ge_u (local.get $i) (local.get $end)))
      (br_if $found (v128.any_true (f32x4.ne
        (f32x4.sub (v128.load (i32.add (local.get $a) (i32.shl (local.get $i) (i32.const 2))))
                   (v128.load (i32.add (local.get $a) (i32.shl (local.get $i) (i32.const 2)))))
        (v128.const i32x4 0 0 0 0))))
      (local.set $i (i32.add (local.get $i) (i32.const 4)))
      (br $chunks)))
    (block $none (loop $floats
      (br_if $none (i32.ge_u (local.get $i) (local.get $n)))
      (local.set $x (f32.load (i32.add (local.get $a) (i32.shl (local.get $i) (i32.const 2)))))
      (if (f32.ne (f32.sub (local.get $x) (local.get $x)) (f32.const 0)) (then (return (local.get $i))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $floats)))
    (i32.const -1))
)
