import { describe, expect, it } from 'vitest';
import { Rng } from '../common/rng.ts';
import { presetConfig } from '../model/config.ts';
import { decodeModel, encodeModel, floatRawData, int64RawData, tensorFloats } from './proto.ts';
import { randomCases, sequenceCases } from './verify.ts';

describe('ONNX tensors and messages through protobufjs', () => {
  it('raw data is little-endian: 1.0f = 00 00 80 3f, -2.5f = 00 00 20 c0, int64 -1 = ff x 8', () => {
    expect([...floatRawData([1, -2.5])]).toEqual([0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x20, 0xc0]);
    expect([...int64RawData([-1, 258])]).toEqual([255, 255, 255, 255, 255, 255, 255, 255, 2, 1, 0, 0, 0, 0, 0, 0]);
  });

  it('tensor values survive encode and decode, from raw data at any byte offset and from float_data', () => {
    const values = Float32Array.of(0.1, -3e-8, 65504, -Infinity);
    const model = decodeModel(
      encodeModel({
        ir_version: 8,
        graph: {
          initializer: [
            { name: 'raw', dims: [4], data_type: 1, raw_data: floatRawData(values) },
            { name: 'list', dims: [2], data_type: 1, float_data: [1.5, -2] },
          ],
        },
      }),
    );
    const [raw, list] = model.graph!.initializer!;
    expect(tensorFloats(raw)).toEqual(values);
    expect(tensorFloats(list)).toEqual(Float32Array.of(1.5, -2));
    expect(model.ir_version).toBe(8);
    expect(raw.dims).toEqual([4]);
  });

  it('encoded bytes are a plain Uint8Array owning its memory, so slice() copies', () => {
    const bytes = encodeModel({ ir_version: 8, producer_name: 'x' });
    expect(bytes.constructor).toBe(Uint8Array);
    expect(bytes.byteOffset).toBe(0);
    expect(bytes.buffer.byteLength).toBe(bytes.length);
    const copy = bytes.slice();
    copy[0] ^= 1;
    expect(copy[0]).not.toBe(bytes[0]);
  });

  it('a message that breaks the schema is refused before encoding', () => {
    expect(() => encodeModel({ ir_version: 'eight' as unknown as number })).toThrow(
      /does not match the schema: ir_version/,
    );
  });
});

describe('verification cases', () => {
  const config = presetConfig('micro', 50);

  it('random cases cover every batch size and length within the context, ids inside the vocabulary', () => {
    const cases = randomCases(config, new Rng(1), { batchSizes: [1, 3], seqLens: [2, 600] });
    expect(cases.map((c) => [c.batch, c.seqLen])).toEqual([
      [1, 2],
      [3, 2],
    ]);
    expect(cases[1].ids.length).toBe(6);
    expect(cases.every((c) => c.ids.every((id) => id >= 0 && id < 50))).toBe(true);
  });

  it('real sequences run alone and as one batch cut to the shortest', () => {
    const seqs = [Int32Array.of(1, 2, 3, 4), Int32Array.of(5, 6, 7), Int32Array.of(8, 9, 10, 11, 12)];
    const cases = sequenceCases(config, seqs, 3);
    expect(cases.map((c) => c.label)).toEqual(['real #0 t4', 'real #1 t3', 'real #2 t5', 'real b3 t3']);
    expect([...cases[3].ids]).toEqual([1, 2, 3, 5, 6, 7, 8, 9, 10]);
  });
});
