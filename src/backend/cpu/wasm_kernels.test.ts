// The WebAssembly SIMD matmul kernels (dot_rows, mat_acc, col_sums) against float32 emulations of their
// documented summation orders, bit for bit, on random shapes, strides and operand placements (in the heap
// or staged). The layer kernels (attention, LayerNorm, GELU) are checked in wasm_layers.test.ts.
import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { Rng } from '../../common/rng.ts';
import { colSumsF32, dotRowsF32, matAccF32 } from './wasm_kernels.ts';
import { freeHeapFloats, heapFloats, heapIsShared } from './heap.ts';

const fr = Math.fround;

/** wasm/dot_rows.wat's order: lane j sums k = j mod 4 from +0, then (l0 + l1) + (l2 + l3), + bias, old + x. */
function reference(
  out: Float32Array,
  oOff: number,
  oStride: number,
  a: Float32Array,
  aOff: number,
  aStride: number,
  b: Float32Array,
  bOff: number,
  bStride: number,
  bias: Float32Array | null,
  N: number,
  K: number,
  M: number,
  acc: boolean,
): void {
  for (let n = 0; n < N; n++) {
    for (let m = 0; m < M; m++) {
      const lane = [0, 0, 0, 0];
      for (let k = 0; k < K; k++)
        lane[k % 4] = fr(lane[k % 4] + fr(a[aOff + n * aStride + k] * b[bOff + m * bStride + k]));
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
        const as = s.K + s.padA,
          bs = s.K + s.padB,
          os = s.M + s.padO;
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
    const N = 9,
      K = 23,
      M = 10;
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
      const N = 7,
        K = 30,
        M = 9;
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
    expect(() =>
      execFileSync(process.execPath, ['scripts/build-wasm.mjs', '--check'], { stdio: 'pipe' }),
    ).not.toThrow();
  });
});

/** wasm/mat_acc.wat's order: k in increasing order from +0, each product rounded, then old + sum. */
function matAccReference(
  out: Float32Array,
  oOff: number,
  oStride: number,
  a: Float32Array,
  aOff: number,
  aRow: number,
  aCol: number,
  b: Float32Array,
  bOff: number,
  bStride: number,
  N: number,
  K: number,
  M: number,
  acc: boolean,
): void {
  for (let n = 0; n < N; n++) {
    for (let m = 0; m < M; m++) {
      let s = 0;
      for (let k = 0; k < K; k++) s = fr(s + fr(a[aOff + n * aRow + k * aCol] * b[bOff + k * bStride + m]));
      const at = oOff + n * oStride + m;
      out[at] = acc ? fr(out[at] + s) : s;
    }
  }
}

describe('mat_acc and col_sums (WebAssembly SIMD)', () => {
  it('mat_acc matches the float32 emulation bit for bit, a read by rows or by columns, any placement', () => {
    fc.assert(
      fc.property(shape, fc.boolean(), (s, byColumns) => {
        const rng = new Rng(s.seed);
        const heap = (bit: number): boolean => (s.placement & bit) !== 0;
        // a is [N, K] read by rows (aRow = K + pad, aCol = 1) or [K, N] read by columns (aRow = 1, aCol = N + pad)
        const [aRow, aCol] = byColumns ? [1, s.N + s.padA] : [s.K + s.padA, 1];
        const bs = s.M + s.padB,
          os = s.M + s.padO;
        const a = filled(rng, s.offset + s.N * s.K * 2 + s.K * s.padA + s.N * s.padA + 4, heap(1));
        const b = filled(rng, s.offset + s.K * bs + 1, heap(2));
        const out = filled(rng, s.offset + s.N * os, heap(8));
        const want = Float32Array.from(out);
        matAccReference(want, s.offset, os, a, s.offset, aRow, aCol, b, s.offset, bs, s.N, s.K, s.M, s.acc);
        matAccF32(out, s.offset, os, a, s.offset, aRow, aCol, b, s.offset, bs, s.N, s.K, s.M, s.acc);
        const same = Array.from(out).every((v, i) => Object.is(v, want[i]));
        for (const v of [a, b, out]) freeHeapFloats(v);
        return same;
      }),
      { numRuns: 300 },
    );
  });

  it('mat_acc gives a row alone the same bits as in a batch', () => {
    const rng = new Rng(3);
    const N = 11,
      K = 9,
      M = 21;
    const a = filled(rng, N * K, true);
    const b = filled(rng, K * M, true);
    const batch = heapFloats(N * M);
    matAccF32(batch, 0, M, a, 0, K, 1, b, 0, M, N, K, M, false);
    for (let n = 0; n < N; n++) {
      const alone = heapFloats(M);
      matAccF32(alone, 0, M, a, n * K, K, 1, b, 0, M, 1, K, M, false);
      expect(Array.from(alone)).toEqual(Array.from(batch.subarray(n * M, n * M + M)));
      freeHeapFloats(alone);
    }
    for (const v of [a, b, batch]) freeHeapFloats(v);
  });

  it('col_sums adds each column summed from +0 in row order, bit for bit', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 9 }),
        fc.integer({ min: 1, max: 19 }),
        fc.boolean(),
        fc.integer({ min: 1, max: 2 ** 30 }),
        (N, M, inHeap, seed) => {
          const rng = new Rng(seed);
          const a = filled(rng, N * M, inHeap);
          const out = filled(rng, M, !inHeap);
          const want = Float32Array.from(out, (o, m) => {
            let s = 0;
            for (let n = 0; n < N; n++) s = fr(s + a[n * M + m]);
            return fr(o + s);
          });
          colSumsF32(out, a, N, M);
          const same = Array.from(out).every((v, i) => Object.is(v, want[i]));
          freeHeapFloats(a);
          freeHeapFloats(out);
          return same;
        },
      ),
      { numRuns: 200 },
    );
  });
});
