// A WGSL struct of 32-bit scalars, declared once in TypeScript: its name and its fields in declaration order,
// named as in WGSL. A wrapper packs a uniform from it by field name, and reads or writes arrays of it (per-token
// structs, per-sequence rows) at the offsets it gives. shaders.test.ts parses each shader and checks that every
// struct there matches its declaration field by field, so the WGSL, the packing and the header cannot drift
// apart.
//
// Layout: a struct is padded at its end to a multiple of 16 bytes (4 words), which a uniform needs; WGSL
// writes the padding as trailing fields named _pad, _pad0, _pad1, ..., which the declaration leaves out.

export type WgslScalar = 'u32' | 'i32' | 'f32';

export class WgslStruct<F extends string> {
  readonly fields: readonly { name: F; type: WgslScalar }[];
  /** Word (4-byte) offset of each field in the struct. */
  readonly offsets: Readonly<Record<F, number>>;
  /** Words of one struct, padding included. */
  readonly words: number;

  constructor(
    readonly name: string,
    fields: Readonly<Record<F, WgslScalar>>,
  ) {
    this.fields = (Object.entries(fields) as [F, WgslScalar][]).map(([n, type]) => ({ name: n, type }));
    this.offsets = Object.fromEntries(this.fields.map((f, i) => [f.name, i])) as Record<F, number>;
    this.words = Math.max(4, Math.ceil(this.fields.length / 4) * 4);
  }

  /** One struct (a uniform's value), every field given by name. */
  pack(values: Readonly<Record<F, number>>): Uint32Array<ArrayBuffer> {
    return this.packArray([values]);
  }

  /** An array of structs, one per item. */
  packArray(items: readonly Readonly<Record<F, number>>[]): Uint32Array<ArrayBuffer> {
    const out = new Uint32Array(items.length * this.words);
    const ints = new Int32Array(out.buffer);
    const floats = new Float32Array(out.buffer);
    items.forEach((values, k) => {
      this.fields.forEach(({ name, type }, i) => {
        const v = values[name];
        const at = k * this.words + i;
        if (type === 'f32') floats[at] = v;
        else if (type === 'i32') ints[at] = v;
        else {
          if (!Number.isInteger(v) || v < 0 || v > 0xffffffff)
            throw new RangeError(`${this.name}.${name} must be a u32, got ${v}`);
          out[at] = v;
        }
      });
    });
    return out;
  }

  /** n structs (at least one, zeros, when n is 0) of f32 fields from one array per field, value k to struct k. */
  packColumns(columns: Readonly<Record<F, ArrayLike<number>>>, n: number): Float32Array<ArrayBuffer> {
    const out = new Float32Array(Math.max(n, 1) * this.words);
    this.fields.forEach(({ name, type }, i) => {
      if (type !== 'f32') throw new TypeError(`${this.name}.${name} is ${type}, not f32`);
      const column = columns[name];
      for (let k = 0; k < n; k++) out[k * this.words + i] = column[k];
    });
    return out;
  }
}

export function wgslStruct<F extends string>(name: string, fields: Readonly<Record<F, WgslScalar>>): WgslStruct<F> {
  return new WgslStruct(name, fields);
}
