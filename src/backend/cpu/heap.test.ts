// The CPU heap's allocator: zeroed blocks, reuse after free, coalescing, views that survive growth.
import { describe, expect, it } from 'vitest';
import { freeHeapFloats, heapFloats, heapIsShared, heapStats, isHeapView } from './heap.ts';

describe('CPU heap', () => {
  it('hands out zeroed, disjoint heap views and takes them back', () => {
    const before = heapStats().usedBytes;
    const x = heapFloats(100);
    const y = heapFloats(37);
    expect(isHeapView(x) && isHeapView(y)).toBe(true);
    expect(isHeapView(new Float32Array(4))).toBe(false);
    x.fill(3);
    y.fill(-1);
    expect(Array.from(x).every((v) => v === 3)).toBe(true);
    expect(x.byteOffset % 16).toBe(0);
    expect(y.byteOffset % 16).toBe(0);
    expect(y.byteOffset >= x.byteOffset + x.byteLength || x.byteOffset >= y.byteOffset + y.byteLength).toBe(true);
    freeHeapFloats(x);
    const z = heapFloats(100);
    expect(z.byteOffset).toBe(x.byteOffset);
    expect(Array.from(z).every((v) => v === 0)).toBe(true);
    freeHeapFloats(z);
    freeHeapFloats(y);
    expect(heapStats().usedBytes).toBe(before);
  });

  it.runIf(heapIsShared)('refuses a block past its 2 GiB with a clear error, and still allocates after', () => {
    const before = heapStats().usedBytes;
    expect(() => heapFloats(2 ** 29, false)).toThrow(
      /CPU heap: cannot grow to \d+ MiB \(the heap holds at most \d+ MiB\)/,
    );
    const x = heapFloats(8);
    freeHeapFloats(x);
    expect(heapStats().usedBytes).toBe(before);
  });

  it('coalesces neighbouring free blocks into one that fits a larger buffer', () => {
    const a = heapFloats(64);
    const b = heapFloats(64);
    const c = heapFloats(64);
    const guard = heapFloats(4);
    freeHeapFloats(a);
    freeHeapFloats(c);
    freeHeapFloats(b);
    const big = heapFloats(192);
    expect(big.byteOffset).toBe(a.byteOffset);
    freeHeapFloats(big);
    freeHeapFloats(guard);
  });

  it('keeps earlier views valid while the memory grows', () => {
    const small = heapFloats(8);
    small.set([1, 2, 3, 4, 5, 6, 7, 8]);
    const reserved = heapStats().reservedBytes;
    const large = heapFloats(reserved / 4 + 1024);
    expect(heapStats().reservedBytes).toBeGreaterThan(reserved);
    small[0] = 9;
    expect(Array.from(small)).toEqual([9, 2, 3, 4, 5, 6, 7, 8]);
    large[large.length - 1] = 5;
    expect(large[large.length - 1]).toBe(5);
    freeHeapFloats(large);
    freeHeapFloats(small);
  });

  it('refuses to free a block twice', () => {
    const a = heapFloats(4);
    freeHeapFloats(a);
    expect(() => freeHeapFloats(a)).toThrow(/freed twice/);
  });
});
