// The WebAssembly SIMD layer kernels (wasm/attention.wat, wasm/gelu.wat, wasm/layernorm.wat) against the
// float64 loops of attention.ts, layernorm.ts and gelu.ts on the same inputs, to float32 accuracy; the residual
// and embedding sums through add_into against their loops, bit for bit; and the
// properties the decoder and the threads rely on: a query row computed alone (t0 > 0) is the same bits
// as in the full forward, and a kernel gives the same bits in the heap or staged.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Rng } from '../../common/rng.ts';
import { attentionBackward, attentionForward } from './attention.ts';
import { geluBackward, geluForward } from './gelu.ts';
import { freeHeapFloats, heapFloats } from './heap.ts';
import { layernormBackward, layernormForward } from './layernorm.ts';
import { residualBackward, residualForward } from './residual.ts';
import { encoderForward } from './encoder.ts';

function normals(rng: Rng, n: number, scale: number, inHeap: boolean): Float32Array {
  const v = inHeap ? heapFloats(n) : new Float32Array(n);
  for (let i = 0; i < n; i++) v[i] = scale * rng.normal();
  return v;
}

/** Worst |got - want| / (abs + rel |want|) over the entries: at most 1 when within tolerance. */
function worst(got: ArrayLike<number>, want: ArrayLike<number>, abs: number, rel: number): number {
  let w = 0;
  for (let i = 0; i < want.length; i++) w = Math.max(w, Math.abs(got[i] - want[i]) / (abs + rel * Math.abs(want[i])));
  return w;
}

const f64 = (x: Float32Array) => Float64Array.from(x);

const attentionShape = fc.record({
  T: fc.integer({ min: 1, max: 19 }),
  NH: fc.integer({ min: 1, max: 3 }),
  hs: fc.integer({ min: 1, max: 13 }),
  spread: fc.double({ min: 0.1, max: 3, noNaN: true }),
  inHeap: fc.boolean(),
  seed: fc.integer({ min: 1, max: 2 ** 30 }),
});

describe('attention (WebAssembly SIMD)', () => {
  it('forward and backward match the float64 loops to float32 accuracy, on any head size', () => {
    fc.assert(
      fc.property(attentionShape, ({ T, NH, hs, spread, inHeap, seed }) => {
        const rng = new Rng(seed);
        const C = NH * hs;
        const qkv = normals(rng, T * 3 * C, spread, inHeap);
        const dout = normals(rng, T * C, 1, inHeap);
        const out = inHeap ? heapFloats(T * C) : new Float32Array(T * C);
        const att = inHeap ? heapFloats(NH * T * T) : new Float32Array(NH * T * T);
        const dqkv = inHeap ? heapFloats(T * 3 * C) : new Float32Array(T * 3 * C);
        attentionForward(out, att, qkv, 0, T, C, NH);
        attentionBackward(dqkv, dout, qkv, att, T, C, NH);
        const out64 = new Float64Array(T * C);
        const att64 = new Float64Array(NH * T * T);
        const dqkv64 = new Float64Array(T * 3 * C);
        attentionForward(out64, att64, f64(qkv), 0, T, C, NH);
        attentionBackward(dqkv64, f64(dout), f64(qkv), att64, T, C, NH);
        const scale = spread * spread * Math.sqrt(hs) + 1;
        const ok =
          worst(att, att64, 1e-6, 1e-5 * scale) <= 1 &&
          worst(out, out64, 1e-6 * spread, 1e-5 * scale) <= 1 &&
          worst(dqkv, dqkv64, 1e-5 * scale * spread, 1e-4 * scale) <= 1;
        if (inHeap) for (const v of [qkv, dout, out, att, dqkv]) freeHeapFloats(v);
        return ok;
      }),
      { numRuns: 200 },
    );
  });

  it('gives the rows t0 .. t1-1 computed alone the bits of the full forward, in the heap or staged', () => {
    const rng = new Rng(5);
    const T = 23,
      NH = 3,
      C = 3 * 10;
    const qkv = normals(rng, T * 3 * C, 1.5, true);
    const out = heapFloats(T * C);
    const att = heapFloats(NH * T * T);
    attentionForward(out, att, qkv, 0, T, C, NH);
    for (const [t0, t1] of [
      [0, 1],
      [5, 6],
      [7, 12],
      [22, 23],
    ]) {
      for (const inHeap of [true, false]) {
        const rows = t1 - t0;
        const part = inHeap ? heapFloats(rows * C) : new Float32Array(rows * C);
        const partAtt = inHeap ? heapFloats(NH * rows * t1) : new Float32Array(NH * rows * t1);
        attentionForward(part, partAtt, inHeap ? qkv : Float32Array.from(qkv), t0, t1, C, NH);
        expect(Array.from(part)).toEqual(Array.from(out.subarray(t0 * C, t1 * C)));
        for (let h = 0; h < NH; h++) {
          for (let r = 0; r < rows; r++) {
            const t = t0 + r;
            const alone = partAtt.subarray((h * rows + r) * t1, (h * rows + r) * t1 + t + 1);
            expect(Array.from(alone)).toEqual(Array.from(att.subarray((h * T + t) * T, (h * T + t) * T + t + 1)));
          }
        }
        if (inHeap) {
          freeHeapFloats(part);
          freeHeapFloats(partAtt);
        }
      }
    }
    for (const v of [qkv, out, att]) freeHeapFloats(v);
  });

  it('underflows far scores to exactly 0 and splits equal scores evenly', () => {
    // one head of size 1: score(t, j) = q_t k_j; the last query sees keys with scores 3, 3, 3, -1e4 and 3
    const T = 5,
      C = 1;
    const qkv = heapFloats(T * 3);
    const k = [1, 1, 1, -1e4, 1];
    for (let t = 0; t < T; t++) qkv.set([3, k[t], t], t * 3);
    const out = heapFloats(T);
    const att = heapFloats(T * T);
    attentionForward(out, att, qkv, 0, T, C, 1);
    const last = Array.from(att.subarray(4 * T, 5 * T));
    expect(last[3]).toBe(0);
    expect(last[0]).toBe(0.25);
    expect(new Set([last[0], last[1], last[2], last[4]]).size).toBe(1);
    expect(out[4]).toBe(0.25 * (0 + 1 + 2 + 4));
    for (const v of [qkv, out, att]) freeHeapFloats(v);
  });
});

describe('LayerNorm (WebAssembly SIMD)', () => {
  it('forward and backward match the float64 loops to float32 accuracy, in the heap or staged', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 7 }),
        fc.integer({ min: 1, max: 41 }),
        fc.boolean(),
        fc.integer({ min: 1, max: 2 ** 30 }),
        (N, C, inHeap, seed) => {
          const rng = new Rng(seed);
          const inp = normals(rng, N * C, 2, inHeap);
          for (let i = 0; i < N * C; i++) inp[i] += 3; // an offset the mean must remove
          const w = normals(rng, C, 1, inHeap);
          const b = normals(rng, C, 1, inHeap);
          const dout = normals(rng, N * C, 1, inHeap);
          const alloc = (n: number) => (inHeap ? heapFloats(n) : new Float32Array(n));
          const [out, mean, rstd, dinp, dw, db] = [alloc(N * C), alloc(N), alloc(N), alloc(N * C), alloc(C), alloc(C)];
          dinp.fill(0.5);
          dw.fill(-1);
          layernormForward(out, mean, rstd, inp, w, b, N, C, 1e-5);
          layernormBackward(dinp, dw, db, dout, inp, w, mean, rstd, N, C);
          const [out64, mean64, rstd64] = [new Float64Array(N * C), new Float64Array(N), new Float64Array(N)];
          const [dinp64, dw64, db64] = [
            new Float64Array(N * C).fill(0.5),
            new Float64Array(C).fill(-1),
            new Float64Array(C),
          ];
          layernormForward(out64, mean64, rstd64, f64(inp), f64(w), f64(b), N, C, 1e-5);
          layernormBackward(dinp64, dw64, db64, f64(dout), f64(inp), f64(w), mean64, rstd64, N, C);
          // x - mean in float32 (and the mean kept as float32) loses digits on a row of nearly equal inputs, in
          // proportion to |x| / std: the tolerances grow with that condition number
          const k = 1 + 1e-2 * Math.max(...Array.from(inp, Math.abs)) * Math.max(...rstd64);
          const ok =
            worst(out, out64, 1e-5 * k, 1e-5 * k) <= 1 &&
            worst(mean, mean64, 1e-6, 1e-6) <= 1 &&
            worst(rstd, rstd64, 0, 1e-5) <= 1 &&
            worst(dinp, dinp64, 1e-4 * k * Math.max(1, ...rstd64), 1e-4 * k) <= 1 &&
            worst(dw, dw64, 1e-5 * N * k, 1e-5 * k) <= 1 &&
            worst(db, db64, 1e-6 * N, 1e-6) <= 1;
          if (inHeap) for (const v of [inp, w, b, dout, out, mean, rstd, dinp, dw, db]) freeHeapFloats(v);
          return ok;
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('GELU (WebAssembly SIMD, vector exp)', () => {
  const xs: number[] = [0, 1e-30, -1e-30, 1, -2, 60, -60, 88, -88, 100, -100];
  for (let x = -12; x <= 12; x += 0.0137) xs.push(x);
  const inp = Float32Array.from(xs);
  const n = inp.length;

  it('forward matches the float64 tanh form to float32 accuracy, in place or staged', () => {
    const out = new Float32Array(n);
    geluForward(out, inp, n);
    const heapIn = heapFloats(n);
    const heapOut = heapFloats(n);
    heapIn.set(inp);
    geluForward(heapOut, heapIn, n);
    for (let i = 0; i < n; i++) {
      const x = inp[i];
      const want = 0.5 * x * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (x + 0.044715 * x * x * x)));
      // x - x / (1 + exp(2u)) cancels for x < 0: a few float32 ulps of x, not of the result
      expect(Math.abs(out[i] - want)).toBeLessThanOrEqual(4 * 2 ** -23 * Math.max(1, Math.abs(x)));
      expect(Object.is(out[i], heapOut[i])).toBe(true);
    }
    geluForward(heapIn, heapIn, n); // out may alias inp
    expect(Array.from(heapIn)).toEqual(Array.from(heapOut));
    const nan = Float32Array.from([NaN, 1]);
    geluForward(nan, nan, 2);
    expect(Number.isNaN(nan[0])).toBe(true);
    freeHeapFloats(heapIn);
    freeHeapFloats(heapOut);
  });

  it("backward adds gelu'(x) dout, matching the float64 loop to float32 accuracy, in the heap or staged", () => {
    const dout = Float32Array.from(inp, (_, i) => Math.cos(i));
    const got = new Float32Array(n).fill(0.25);
    geluBackward(got, inp, dout, n);
    const want = new Float64Array(n).fill(0.25);
    geluBackward(want, f64(inp), f64(dout), n);
    expect(worst(got, want, 1e-6, 1e-5)).toBeLessThanOrEqual(1);
    const [hd, hi, ho] = [heapFloats(n), heapFloats(n), heapFloats(n)];
    hd.fill(0.25);
    hi.set(inp);
    ho.set(dout);
    geluBackward(hd, hi, ho, n);
    expect(Array.from(hd)).toEqual(Array.from(got));
    for (const v of [hd, hi, ho]) freeHeapFloats(v);
  });
});

describe('residual and embedding sums through add_into', () => {
  const rng = new Rng(21);
  /** The loop's result: each float32 sum taken in float64, then stored. */
  const sum = (a: Float32Array, b: Float32Array) => Float32Array.from(a, (x, i) => x + b[i]);

  it('residualForward gives the loop bits, out apart from both inputs or either of them', () => {
    const N = 1000;
    const a = normals(rng, N, 3, true);
    const b = normals(rng, N, 1e-3, false);
    const want = sum(a, b);
    const out = heapFloats(N);
    residualForward(out, a, b, N);
    expect(Array.from(out)).toEqual(Array.from(want));
    const a2 = a.slice();
    residualForward(a2, a2, b, N);
    expect(Array.from(a2)).toEqual(Array.from(want));
    const b2 = b.slice();
    residualForward(b2, a, b2, N);
    expect(Array.from(b2)).toEqual(Array.from(want));
    freeHeapFloats(out);
  });

  it('residualBackward and encoderForward give the loop bits', () => {
    const [T, C, V] = [40, 12, 9];
    const N = T * C;
    const dout = normals(rng, N, 1, true);
    const d1 = normals(rng, N, 1, true);
    const d2 = normals(rng, N, 1, false);
    const [want1, want2] = [sum(d1, dout), sum(d2, dout)];
    residualBackward(d1, d2, dout, N);
    expect(Array.from(d1)).toEqual(Array.from(want1));
    expect(Array.from(d2)).toEqual(Array.from(want2));
    const wte = normals(rng, V * C, 1, true);
    const wpe = normals(rng, 64 * C, 0.1, true);
    const tokens = Int32Array.from({ length: T }, (_, t) => (t * 5) % V);
    const out = heapFloats(N);
    encoderForward(out, tokens, wte, wpe, T, C, 7);
    const want = Float32Array.from({ length: N }, (_, i) => {
      const [t, c] = [Math.floor(i / C), i % C];
      return wte[tokens[t] * C + c] + wpe[(7 + t) * C + c];
    });
    expect(Array.from(out)).toEqual(Array.from(want));
    freeHeapFloats(out);
  });
});
