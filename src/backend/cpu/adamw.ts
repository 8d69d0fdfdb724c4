// AdamW with bias correction and decoupled weight decay (llm.c's adamw_update), preceded by global
// gradient-norm clipping. Weight decay applies only to the views that the layout marks `decay`.
import type { OptimizerHyper } from '../backend.ts';
import type { ParameterLayout } from '../../model/layout.ts';

/** Euclidean norm of the whole gradient buffer, accumulated in float64. */
export function gradientNorm(grads: Float32Array): number {
  let s = 0;
  for (let i = 0; i < grads.length; i++) s += grads[i] * grads[i];
  return Math.sqrt(s);
}

/** The factor that brings the norm down to `clip` (1 when clipping is off or not needed). */
export function clipScale(norm: number, clip: number): number {
  return clip > 0 && norm > clip ? clip / norm : 1;
}

/**
 * One AdamW step number `step` (1-based) on every view of the layout, with the gradient multiplied by
 * gradScale (the clipping factor):
 *   m = b1 m + (1 - b1) g;  v = b2 v + (1 - b2) g^2
 *   p -= lr (m / (1 - b1^step) / (sqrt(v / (1 - b2^step)) + eps) + wd p)
 */
export function adamwUpdate(
  params: Float32Array,
  grads: Float32Array,
  m: Float32Array,
  v: Float32Array,
  layout: ParameterLayout,
  h: OptimizerHyper,
  step: number,
  gradScale: number,
): void {
  const c1 = 1 - h.beta1 ** step;
  const c2 = 1 - h.beta2 ** step;
  for (const view of layout.list) {
    const wd = view.decay ? h.weightDecay : 0;
    const end = view.offset + view.size;
    for (let i = view.offset; i < end; i++) {
      const g = grads[i] * gradScale;
      const mi = h.beta1 * m[i] + (1 - h.beta1) * g;
      const vi = h.beta2 * v[i] + (1 - h.beta2) * g * g;
      m[i] = mi;
      v[i] = vi;
      params[i] -= h.lr * (mi / c1 / (Math.sqrt(vi / c2) + h.eps) + wd * params[i]);
    }
  }
}
