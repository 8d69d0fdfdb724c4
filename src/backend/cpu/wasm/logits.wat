;; The output head's rows in WebAssembly SIMD (f32x4): the masked log-softmax of log_softmax.ts (scoring
;; and sampling read it alike, so a sampled token's log-prob equals its score bit for bit) and the logit
;; gradient of the SEED loss, dlogits = c (onehot(target) - p) over the allowed tokens.
;;
;; A row's allowed tokens are the bits of its mask words (bit v & 31 of word v >> 5; bits at or past the
;; vocabulary ignored), 4 tokens at a time. Disallowed tokens get MASKED_LOG_PROB (-1e30). A NaN logit that
;; is allowed makes the allowed entries of its row NaN.
;;
;; Memory: the module imports the CPU heap ("env" "memory", heap.ts) and Math.log ("env" "log", once per
;; row). Pointers are in bytes, lengths in floats (or words). Dispatch: one call per block of rows.
;;
;; Order, per row: the max over the allowed logits; the sum of exp(logit - max) in four lanes (lane l over
;; v = l mod 4), then (l0 + l1) + (l2 + l3); then (logit - max) - log(sum) in f32, log(sum) in f64 rounded
;; to f32 (logit - max is exact near the max, so the largest log-probs keep every bit).
(module
  (import "env" "memory" (memory 1 65536 shared))
  (import "env" "log" (func $log (param f64) (result f64)))

  ;; include lanes.wati
  ;; include exp.wati

  ;; lanes of tokens v .. v+3 (v a multiple of 4) that a row's mask words at m allow: all ones or zero
  (func $allowed4 (param $m i32) (param $v i32) (result v128)
    (i32x4.ne
      (v128.and
        (i32x4.splat (i32.load (i32.add (local.get $m) (i32.shl (i32.shr_u (local.get $v) (i32.const 5)) (i32.const 2)))))
        (i32x4.shl (v128.const i32x4 1 2 4 8) (i32.and (local.get $v) (i32.const 31))))
      (v128.const i32x4 0 0 0 0)))

  ;; out[r V + v] = the masked log-softmax of logits row r at token v, for r < rows; out may be logits
  (func (export "masked_log_softmax")
    (param $out i32) (param $logits i32) (param $masks i32) (param $words i32) (param $rows i32) (param $V i32)
    (local $r i32) (local $v i32) (local $end i32) (local $rem i32) (local $l i32) (local $o i32) (local $m i32)
    (local $a v128) (local $x v128) (local $vmax v128) (local $sum v128) (local $mx f32) (local $ls v128)
    (local.set $end (i32.and (local.get $V) (i32.const -4)))
    (local.set $rem (i32.and (local.get $V) (i32.const 3)))
    (block $dr (loop $lr
      (br_if $dr (i32.ge_u (local.get $r) (local.get $rows)))
      (local.set $l (i32.add (local.get $logits) (i32.shl (i32.mul (local.get $r) (local.get $V)) (i32.const 2))))
      (local.set $o (i32.add (local.get $out) (i32.shl (i32.mul (local.get $r) (local.get $V)) (i32.const 2))))
      (local.set $m (i32.add (local.get $masks) (i32.shl (i32.mul (local.get $r) (local.get $words)) (i32.const 2))))
      ;; max over the allowed logits
      (local.set $vmax (f32x4.splat (f32.const -inf)))
      (local.set $v (i32.const 0))
      (block $d1 (loop $l1
        (br_if $d1 (i32.ge_u (local.get $v) (local.get $end)))
        (local.set $vmax (f32x4.max (local.get $vmax)
          (v128.bitselect (v128.load (i32.add (local.get $l) (i32.shl (local.get $v) (i32.const 2))))
            (f32x4.splat (f32.const -inf)) (call $allowed4 (local.get $m) (local.get $v)))))
        (local.set $v (i32.add (local.get $v) (i32.const 4)))
        (br $l1)))
      (if (local.get $rem)
        (then (local.set $vmax (f32x4.max (local.get $vmax)
          (v128.bitselect (call $tail (i32.add (local.get $l) (i32.shl (local.get $end) (i32.const 2))) (local.get $rem))
            (f32x4.splat (f32.const -inf))
            (v128.and (call $allowed4 (local.get $m) (local.get $end)) (call $laneMask (local.get $rem))))))))
      (local.set $mx (f32.max
        (f32.max (f32x4.extract_lane 0 (local.get $vmax)) (f32x4.extract_lane 1 (local.get $vmax)))
        (f32.max (f32x4.extract_lane 2 (local.get $vmax)) (f32x4.extract_lane 3 (local.get $vmax)))))
      (if (f32.eq (local.get $mx) (f32.const -inf))
        (then
          ;; nothing allowed: the row carries no distribution
          (local.set $v (i32.const 0))
          (block $dz (loop $lz
            (br_if $dz (i32.ge_u (local.get $v) (local.get $V)))
            (f32.store (i32.add (local.get $o) (i32.shl (local.get $v) (i32.const 2))) (f32.const -1e30))
            (local.set $v (i32.add (local.get $v) (i32.const 1)))
            (br $lz))))
        (else
          ;; sum of exp(logit - max) over the allowed tokens
          (local.set $sum (v128.const i32x4 0 0 0 0))
          (local.set $v (i32.const 0))
          (block $d2 (loop $l2
            (br_if $d2 (i32.ge_u (local.get $v) (local.get $end)))
            (local.set $sum (f32x4.add (local.get $sum) (v128.and (call $allowed4 (local.get $m) (local.get $v))
              (call $exp4 (f32x4.sub (v128.load (i32.add (local.get $l) (i32.shl (local.get $v) (i32.const 2)))) (f32x4.splat (local.get $mx)))))))
            (local.set $v (i32.add (local.get $v) (i32.const 4)))
            (br $l2)))
          (if (local.get $rem)
            (then (local.set $sum (f32x4.add (local.get $sum)
              (v128.and (v128.and (call $allowed4 (local.get $m) (local.get $end)) (call $laneMask (local.get $rem)))
                (call $exp4 (f32x4.sub (call $tail (i32.add (local.get $l) (i32.shl (local.get $end) (i32.const 2))) (local.get $rem))
                  (f32x4.splat (local.get $mx)))))))))
          (local.set $ls (f32x4.splat (f32.demote_f64 (call $log (f64.promote_f32 (call $hsum (local.get $sum)))))))
          ;; (logit - max) - log(sum) where allowed
          (local.set $v (i32.const 0))
          (block $d3 (loop $l3
            (br_if $d3 (i32.ge_u (local.get $v) (local.get $end)))
            (v128.store (i32.add (local.get $o) (i32.shl (local.get $v) (i32.const 2)))
              (v128.bitselect (f32x4.sub (f32x4.sub (v128.load (i32.add (local.get $l) (i32.shl (local.get $v) (i32.const 2)))) (f32x4.splat (local.get $mx))) (local.get $ls))
                (f32x4.splat (f32.const -1e30)) (call $allowed4 (local.get $m) (local.get $v))))
            (local.set $v (i32.add (local.get $v) (i32.const 4)))
            (br $l3)))
          (if (local.get $rem)
            (then (call $storeTail (i32.add (local.get $o) (i32.shl (local.get $end) (i32.const 2))) (local.get $rem)
              (v128.bitselect (f32x4.sub (f32x4.sub (call $tail (i32.add (local.get $l) (i32.shl (local.get $end) (i32.const 2))) (local.get $rem)) (f32x4.splat (local.get $mx))) (local.get $ls))
                (f32x4.splat (f32.const -1e30)) (call $allowed4 (local.get $m) (local.get $end))))))))
      (local.set $r (i32.add (local.get $r) (i32.const 1)))
      (br $lr))))

  ;; In place, per row r < rows of log-probs lp: lp[v] = -c exp(lp[v]) where allowed, 0 elsewhere, then
  ;; lp[target] += c (c = coef[r], target = targets[r], an i32)
  (func (export "logit_grad")
    (param $lp i32) (param $masks i32) (param $words i32) (param $coef i32) (param $targets i32) (param $rows i32) (param $V i32)
    (local $r i32) (local $v i32) (local $end i32) (local $rem i32) (local $l i32) (local $m i32) (local $c f32) (local $vc v128) (local $t i32)
    (local.set $end (i32.and (local.get $V) (i32.const -4)))
    (local.set $rem (i32.and (local.get $V) (i32.const 3)))
    (block $dr (loop $lr
      (br_if $dr (i32.ge_u (local.get $r) (local.get $rows)))
      (local.set $l (i32.add (local.get $lp) (i32.shl (i32.mul (local.get $r) (local.get $V)) (i32.const 2))))
      (local.set $m (i32.add (local.get $masks) (i32.shl (i32.mul (local.get $r) (local.get $words)) (i32.const 2))))
      (local.set $c (f32.load (i32.add (local.get $coef) (i32.shl (local.get $r) (i32.const 2)))))
      (local.set $vc (f32x4.splat (f32.neg (local.get $c))))
      (local.set $v (i32.const 0))
      (block $d1 (loop $l1
        (br_if $d1 (i32.ge_u (local.get $v) (local.get $end)))
        (v128.store (i32.add (local.get $l) (i32.shl (local.get $v) (i32.const 2)))
          (v128.and (call $allowed4 (local.get $m) (local.get $v))
            (f32x4.mul (local.get $vc) (call $exp4 (v128.load (i32.add (local.get $l) (i32.shl (local.get $v) (i32.const 2))))))))
        (local.set $v (i32.add (local.get $v) (i32.const 4)))
        (br $l1)))
      (if (local.get $rem)
        (then (call $storeTail (i32.add (local.get $l) (i32.shl (local.get $end) (i32.const 2))) (local.get $rem)
          (v128.and (call $allowed4 (local.get $m) (local.get $end))
            (f32x4.mul (local.get $vc) (call $exp4 (call $tail (i32.add (local.get $l) (i32.shl (local.get $end) (i32.const 2))) (local.get $rem))))))))
      (local.set $t (i32.add (local.get $l) (i32.shl (i32.load (i32.add (local.get $targets) (i32.shl (local.get $r) (i32.const 2)))) (i32.const 2))))
      (f32.store (local.get $t) (f32.add (f32.load (local.get $t)) (local.get $c)))
      (local.set $r (i32.add (local.get $r) (i32.const 1)))
      (br $lr))))
)
