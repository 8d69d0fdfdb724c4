import { describe, expect, it } from 'vitest';
import { wgslStruct } from './wgsl_struct.ts';

describe('wgslStruct', () => {
  const S = wgslStruct('Shape', { n: 'u32', eps: 'f32', off: 'i32', grid_x: 'u32', clip: 'f32' });

  it('gives each field its word, in declaration order, and pads the struct to 16 bytes', () => {
    expect(S.offsets).toEqual({ n: 0, eps: 1, off: 2, grid_x: 3, clip: 4 });
    expect(S.words).toBe(8);
    expect(wgslStruct('T', { a: 'u32' }).words).toBe(4);
  });

  it('packs each field by name with its own type, zeros in the padding', () => {
    const words = S.pack({ grid_x: 7, clip: 0.5, n: 3, eps: 1e-5, off: -2 });
    expect(words.length).toBe(8);
    expect(words[0]).toBe(3);
    expect(new Float32Array(words.buffer)[1]).toBe(Math.fround(1e-5));
    expect(new Int32Array(words.buffer)[2]).toBe(-2);
    expect(words[3]).toBe(7);
    expect(new Float32Array(words.buffer)[4]).toBe(0.5);
    expect(Array.from(words.subarray(5))).toEqual([0, 0, 0]);
  });

  it('refuses a u32 field that is not one', () => {
    expect(() => S.pack({ n: -1, eps: 0, off: 0, grid_x: 0, clip: 0 })).toThrow('Shape.n must be a u32, got -1');
    expect(() => S.pack({ n: 1.5, eps: 0, off: 0, grid_x: 0, clip: 0 })).toThrow(/Shape\.n must be a u32/);
    expect(() => S.pack({ n: 2 ** 32, eps: 0, off: 0, grid_x: 0, clip: 0 })).toThrow(/Shape\.n must be a u32/);
  });

  it('packs arrays of structs, and columns of f32 fields into structs', () => {
    const R = wgslStruct('Rows', { slot: 'u32', pos0: 'u32', count: 'u32' });
    expect(
      Array.from(
        R.packArray([
          { slot: 1, pos0: 2, count: 3 },
          { slot: 4, pos0: 5, count: 6 },
        ]),
      ),
    ).toEqual([1, 2, 3, 0, 4, 5, 6, 0]);
    expect(R.packArray([]).length).toBe(0);
    const T = wgslStruct('Tok', { a: 'f32', b: 'f32' });
    expect(Array.from(T.packColumns({ a: [1, 2], b: [3, 4] }, 2))).toEqual([1, 3, 0, 0, 2, 4, 0, 0]);
    expect(Array.from(T.packColumns({ a: [], b: [] }, 0))).toEqual([0, 0, 0, 0]);
    expect(() => R.packColumns({ slot: [1], pos0: [1], count: [1] }, 1)).toThrow('Rows.slot is u32, not f32');
  });
});
