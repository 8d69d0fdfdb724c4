// The WebAssembly SIMD kernels: the matmul against a float32 emulation of its documented summation order,
// bit for bit, on random shapes, strides and operand placements (in the heap or staged); the softmax row
// and GELU against float64 references, to float32 accuracy.
import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { Rng } from '../../common/rng.ts';
import { dotRowsF32, geluForwardF32, softmaxRowF32 } from './wasm_kernels.ts';
import { freeHeapFloats, heapFloats, heapIsShared } from './heap.ts';

const fr = Math.fround;

/** wasm/dot_rows.wat's order: lane j sums k = j mod 4 from +0, then (l0 + l1) + (l2 + l3), + bias, old + x. */
function reference(
  out: Float32Array, oOff: number, oStride: number, a: Float32Array, aOff: number, aStride: number,
  b: Float32Array, bOff: number, bStride: number, bias: Float32Array | null, N: number, K: number, M: number, acc: boolean,
): void {
  for (let n = 0; n < N; n++) {
    for (let m = 0; m < M; m++) {
      const lane = [0, 0, 0, 0];
      for (let k = 0; k < K; k++) lane[k % 4] = fr(lane[k % 4] + fr(a[aOff + n * aStride + k] * b[bOff + m * bStride + k]));
      let x = fr(fr(lane[0] + lane[1]) + fr(lane[2] + lane[3]));
      if (bias) x = fr(x + bias[m]);
      const at = oOff + n * oStride + m;
      out[at] = acc ? fr(out[at] + x) : x;
    }
  }
}

function filled(rng: Rng, n: number, inHeap: boolean): Float32Array {
  const v = inHeap ? heapFloats(n) : new Float32Array(n);
  for (let i = 0; i < n; i++) v[i] = rng.normal();
  return v;
}

const shape = fc.record({
  N: fc.integer({ min: 1, max: 11 }),
  K: fc.integer({ min: 0, max: 21 }),
  M: fc.integer({ min: 1, max: 13 }),
  padA: fc.integer({ min: 0, max: 3 }),
  padB: fc.integer({ min: 0, max: 3 }),
  padO: fc.integer({ min: 0, max: 3 }),
  offset: fc.integer({ min: 0, max: 5 }),
  bias: fc.boolean(),
  acc: fc.boolean(),
  placement: fc.integer({ min: 0, max: 15 }),
  seed: fc.integer({ min: 1, max: 2 ** 30 }),
});

describe('dot_rows (WebAssembly SIMD)', () => {
  it('matches the float32 emulation bit for bit on any shape, stride and placement', () => {
    fc.assert(
      fc.property(shape, (s) => {
        const rng = new Rng(s.seed);
        const as = s.K + s.padA, bs = s.K + s.padB, os = s.M + s.padO;
        const heap = (bit: number): boolean => (s.placement & bit) !== 0;
        const a = filled(rng, s.offset + s.N * as, heap(1));
        const b = filled(rng, s.offset + s.M * bs, heap(2));
        const bias = s.bias ? filled(rng, s.M, heap(4)) : null;
        const out = filled(rng, s.offset + s.N * os, heap(8));
        const want = Float32Array.from(out);
        reference(want, s.offset, os, a, s.offset, as, b, s.offset, bs, bias, s.N, s.K, s.M, s.acc);
        dotRowsF32(out, s.offset, os, a, s.offset, as, b, s.offset, bs, bias, s.N, s.K, s.M, s.acc);
        const same = Array.from(out).every((v, i) => Object.is(v, want[i]));
        for (const v of [a, b, out, bias]) if (v) freeHeapFloats(v);
        return same;
      }),
      { numRuns: 300 },
    );
  });

  it('gives a row alone the same bits as in a batch, and ignores zero products past the end of a row', () => {
    const rng = new Rng(7);
    const N = 9, K = 23, M = 10;
    const a = filled(rng, N * K, true);
    const b = filled(rng, M * (K + 5), true);
    // keys K .. K+4 of every b row are multiplied by zeros appended to a (causal attention's masked keys)
    const aPadded = heapFloats(N * (K + 5));
    for (let n = 0; n < N; n++) aPadded.set(a.subarray(n * K, n * K + K), n * (K + 5));
    const batch = heapFloats(N * M);
    const padded = heapFloats(N * M);
    dotRowsF32(batch, 0, M, a, 0, K, b, 0, K + 5, null, N, K, M, false);
    dotRowsF32(padded, 0, M, aPadded, 0, K + 5, b, 0, K + 5, null, N, K + 5, M, false);
    expect(Array.from(padded)).toEqual(Array.from(batch));
    for (let n = 0; n < N; n++) {
      const alone = new Float32Array(M);
      dotRowsF32(alone, 0, M, a, n * K, K, b, 0, K + 5, null, 1, K, M, false);
      expect(Array.from(alone)).toEqual(Array.from(batch.subarray(n * M, n * M + M)));
    }
  });

  it('runs on the shared heap under Node', () => {
    expect(heapIsShared).toBe(true);
  });

  it('gives the same bits on a page that is not cross-origin isolated (plain memory, staged operands)', async () => {
    vi.resetModules();
    vi.stubGlobal('crossOriginIsolated', false);
    try {
      const plainHeap = await import('./heap.ts');
      const plain = await import('./wasm_kernels.ts');
      expect(plainHeap.heapIsShared).toBe(false);
      const rng = new Rng(11);
      const N = 7, K = 30, M = 9;
      const a = filled(rng, N * K, false);
      const b = filled(rng, M * K, false);
      const bias = filled(rng, M, false);
      const got = filled(rng, N * M, false);
      const want = Float32Array.from(got);
      reference(want, 0, M, a, 0, K, b, 0, K, bias, N, K, M, true);
      plain.dotRowsF32(got, 0, M, a, 0, K, b, 0, K, bias, N, K, M, true);
      expect(Array.from(got)).toEqual(Array.from(want));
      // an allocation past the initial memory grows (and detaches) it; the kernel must still see its operands
      expect(plainHeap.heapFloats(1 << 22).length).toBe(1 << 22);
      const big = filled(rng, 3000 * K, false);
      const out = new Float32Array(3000 * M);
      const out2 = new Float32Array(3000 * M);
      plain.dotRowsF32(out, 0, M, big, 0, K, b, 0, K, null, 3000, K, M, false);
      reference(out2, 0, M, big, 0, K, b, 0, K, null, 3000, K, M, false);
      expect(Array.from(out)).toEqual(Array.from(out2));
    } finally {
      vi.unstubAllGlobals();
      vi.resetModules();
    }
  });

  it('is assembled from the current wasm/*.wat', () => {
    expect(() => execFileSync(process.execPath, ['scripts/build-wasm.mjs', '--check'], { stdio: 'pipe' })).not.toThrow();
  });
});

describe('softmax_row and gelu_forward (WebAssembly SIMD, vector exp)', () => {
  it('softmax_row gives softmax(scale * x) to float32 accuracy and zeros past the row, in place or staged', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 41 }),
        fc.integer({ min: 0, max: 6 }),
        fc.double({ min: 0.05, max: 4, noNaN: true }),
        fc.double({ min: 0.1, max: 30, noNaN: true }),
        fc.integer({ min: 1, max: 2 ** 30 }),
        (n, extra, scale, spread, seed) => {
          const rng = new Rng(seed);
          const width = n + extra;
          const x = new Float32Array(width + 3);
          for (let i = 0; i < x.length; i++) x[i] = spread * rng.normal();
          const v = Array.from(x.subarray(2, 2 + n), (xi) => Math.fround(xi * Math.fround(scale)));
          const max = Math.max(...v);
          const e = v.map((vi) => Math.exp(vi - max));
          const sum = e.reduce((a, b) => a + b, 0);
          const inHeap = heapFloats(x.length);
          inHeap.set(x);
          softmaxRowF32(x, 2, n, width, Math.fround(scale));
          softmaxRowF32(inHeap, 2, n, width, Math.fround(scale));
          const ok = e.every((ei, i) => Math.abs(x[2 + i] - ei / sum) <= 1e-7 + 4e-6 * (ei / sum));
          const zeros = Array.from(x.subarray(2 + n, 2 + width)).every((z) => z === 0);
          const same = Array.from(x).every((xi, i) => Object.is(xi, inHeap[i]));
          freeHeapFloats(inHeap);
          return ok && zeros && same;
        },
      ),
      { numRuns: 300 },
    );
  });

  it('softmax_row underflows far scores to exactly 0 and splits equal scores evenly', () => {
    const x = heapFloats(7);
    x.set([-40, -500, 3, -1e4, 3, 3, 3]);
    softmaxRowF32(x, 0, 7, 7, 1);
    expect(x[0]).toBeGreaterThan(0);
    expect(x[0]).toBeLessThan(1e-18);
    expect(x[1]).toBe(0);
    expect(x[3]).toBe(0);
    expect(x[2]).toBeCloseTo(0.25, 6);
    expect(x[2]).toBe(x[6]);
    freeHeapFloats(x);
  });

  it('gelu_forward matches the float64 tanh form to float32 accuracy, in place or staged', () => {
    const xs: number[] = [0, 1e-30, -1e-30, 1, -2, 60, -60, 88, -88, 100, -100];
    for (let x = -12; x <= 12; x += 0.0137) xs.push(x);
    const inp = Float32Array.from(xs);
    const n = inp.length;
    const out = new Float32Array(n);
    geluForwardF32(out, inp, n);
    const heapIn = heapFloats(n);
    const heapOut = heapFloats(n);
    heapIn.set(inp);
    geluForwardF32(heapOut, heapIn, n);
    for (let i = 0; i < n; i++) {
      const x = inp[i];
      const want = 0.5 * x * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (x + 0.044715 * x * x * x)));
      // x - x / (1 + exp(2u)) cancels for x < 0: a few float32 ulps of x, not of the result
      expect(Math.abs(out[i] - want)).toBeLessThanOrEqual(4 * 2 ** -23 * Math.max(1, Math.abs(x)));
      expect(Object.is(out[i], heapOut[i])).toBe(true);
    }
    geluForwardF32(heapIn, heapIn, n); // out may alias inp
    expect(Array.from(heapIn)).toEqual(Array.from(heapOut));
    const nan = Float32Array.from([NaN, 1]);
    geluForwardF32(nan, nan, 2);
    expect(Number.isNaN(nan[0])).toBe(true);
    freeHeapFloats(heapIn);
    freeHeapFloats(heapOut);
  });
});
