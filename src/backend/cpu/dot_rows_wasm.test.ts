// The WebAssembly SIMD matmul kernel against a float32 emulation of its documented summation order, bit
// for bit, on random shapes, strides and operand placements (in the heap or staged).
import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { Rng } from '../../common/rng.ts';
import { dotRowsF32 } from './dot_rows_wasm.ts';
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
      const plain = await import('./dot_rows_wasm.ts');
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

  it('is assembled from the current wasm/dot_rows.wat', () => {
    expect(() => execFileSync(process.execPath, ['scripts/build-wasm.mjs', '--check'], { stdio: 'pipe' })).not.toThrow();
  });
});
