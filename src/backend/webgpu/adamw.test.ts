// The optimizer kernels (gradient norm, clipping, AdamW, the finite check that guards accumulation)
// against the CPU reference (src/backend/cpu/adamw.ts), on Node's WebGPU.
// Tolerances: the norm 1e-5 relative; AdamW parameters and moments 1e-5 relative (float32 against float64).
import { beforeAll, describe, expect, it } from 'vitest';
import { Rng } from '../../common/rng.ts';
import { presetConfig } from '../../model/config.ts';
import { parameterLayout } from '../../model/layout.ts';
import { adamwUpdate as adamwCpu, clipScale, gradientNorm } from '../cpu/adamw.ts';
import { accumulateGradients, adamwUpdate, countNonFinite, decayBits, gradNorm, normPartials } from './adamw.ts';
import { runKernels, worstError } from './gpu_testing.ts';
import type { GpuRuntime } from './runtime.ts';
import { testRuntime } from './test_device.ts';

describe('optimizer kernels on WebGPU against the CPU reference', () => {
  let gpu: GpuRuntime;
  beforeAll(async () => {
    gpu = await testRuntime();
  });

  it('gradient norm, clipping and AdamW with per-view weight decay over a real layout', async () => {
    const config = presetConfig('micro', 45);
    const layout = parameterLayout(config);
    const n = layout.totalFloats;
    const rng = new Rng(13);
    const params = Float32Array.from({ length: n }, () => rng.normal() * 0.1);
    const grads = Float32Array.from({ length: n }, () => rng.normal() * 0.01);
    const m = Float32Array.from({ length: n }, () => rng.normal() * 0.001);
    const v = Float32Array.from({ length: n }, () => rng.float() * 1e-4);
    // The alignment gaps between views hold zeros, as in every real parameter buffer (and stay zero).
    const inView = new Uint8Array(n);
    for (const view of layout.list) inView.fill(1, view.offset, view.offset + view.size);
    for (const a of [params, grads, m, v]) for (let i = 0; i < n; i++) if (!inView[i]) a[i] = 0;
    const hyper = { lr: 1e-2, beta1: 0.9, beta2: 0.95, eps: 1e-8, weightDecay: 0.1, gradClip: 0.5 };
    const step = 3;
    const got = await runKernels(
      gpu,
      { decay: decayBits(layout) },
      { params: params.slice(), grads: grads.slice(), m: m.slice(), v: v.slice(), state: 4, partials: normPartials(n) },
      (s, b) => {
        gradNorm(s, b.state, b.partials, b.grads, n, hyper.gradClip);
        adamwUpdate(s, b.params, b.grads, b.m, b.v, b.decay, b.state, n, hyper, step);
      },
    );
    const norm = gradientNorm(grads);
    expect(norm).toBeGreaterThan(hyper.gradClip); // the clip is active
    expect(worstError([got.state[0]], [norm], 0, 1e-5)).toBeLessThanOrEqual(1);
    expect(got.state[2]).toBe(1);
    adamwCpu(params, grads, m, v, layout, hyper, step, clipScale(norm, hyper.gradClip));
    expect(worstError(got.params, params, 1e-6, 1e-5)).toBeLessThanOrEqual(1);
    expect(worstError(got.m, m, 1e-9, 1e-5)).toBeLessThanOrEqual(1);
    expect(worstError(got.v, v, 1e-12, 1e-5)).toBeLessThanOrEqual(1);
    expect(got.grads.every((x) => x === 0)).toBe(true);
  });

  it('refuses a non-finite gradient: the norm flags it, AdamW and accumulation leave everything unchanged', async () => {
    const n = 300;
    const grads = new Float32Array(n).fill(0.01);
    grads[257] = NaN;
    const params = new Float32Array(n).fill(1);
    const hyper = { lr: 1e-2, beta1: 0.9, beta2: 0.95, eps: 1e-8, weightDecay: 0, gradClip: 1 };
    const ok = new Float32Array(7).fill(2);
    const bad = Float32Array.of(1, Infinity, 3);
    const got = await runKernels(
      gpu,
      { decay: new Uint32Array(10), ok, bad, scratch: new Float32Array(n).fill(5) },
      {
        params,
        grads,
        m: n,
        v: n,
        state: 4,
        partials: 1,
        flagBad: 1,
        flagOk: 1,
        acc: new Float32Array(n).fill(1),
        accOk: new Float32Array(n).fill(1),
      },
      (s, b) => {
        gradNorm(s, b.state, b.partials, b.grads, n, hyper.gradClip);
        adamwUpdate(s, b.params, b.grads, b.m, b.v, b.decay, b.state, n, hyper, 1);
        countNonFinite(s, b.flagBad, b.ok, 7, b.bad, 3);
        countNonFinite(s, b.flagOk, b.ok, 7, b.ok, 7);
        accumulateGradients(s, b.acc, b.scratch, b.flagBad, n);
        accumulateGradients(s, b.accOk, b.scratch, b.flagOk, n);
      },
    );
    expect(got.state[2]).toBe(0);
    expect(got.params.every((x) => x === 1)).toBe(true);
    expect(new Uint32Array(got.flagBad.buffer)[0]).toBe(1);
    expect(new Uint32Array(got.flagOk.buffer)[0]).toBe(0);
    expect(got.acc.every((x) => x === 1)).toBe(true);
    expect(got.accOk.every((x) => x === 6)).toBe(true);
  });
});
