import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { presetConfig, validateConfig } from './config.ts';
import { CHECKPOINT_VERSION, CheckpointError, readCheckpoint, writeCheckpoint, type Checkpoint } from './checkpoint.ts';
import { crc32 } from './crc32.ts';
import { initParameters } from './init.ts';
import { parameterLayout } from './layout.ts';
import { headerJson, sealedCheckpoint } from './checkpoint_testing.ts';

const small = validateConfig({ vocabSize: 9, contextLength: 6, dModel: 4, nLayer: 1, nHead: 2, dMlp: 8, lnEps: 1e-5 });

function sample(withOptimizer: boolean): Checkpoint {
  const params = initParameters(small, 3);
  const n = params.length;
  return {
    config: small,
    vocabHash: '0d60654c',
    params,
    optimizer: withOptimizer ? { m: params.map((x) => x / 2), v: params.map((x) => x * x), step: 12 } : null,
    metadata: { preset: 'custom', seed: 3, algorithm: 'seed', updates: 12, note: 'héllo', n },
  };
}

function kindOf(bytes: Uint8Array, vocabHash?: string): string {
  try {
    readCheckpoint(bytes, { vocabHash });
    return 'ok';
  } catch (err) {
    if (err instanceof CheckpointError) return err.kind;
    throw err;
  }
}

describe('crc32', () => {
  it('matches the standard check value', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
  });
});

describe('checkpoint round trip', () => {
  it('restores config, vocabulary hash, parameters, optimizer state and metadata exactly', () => {
    for (const withOpt of [false, true]) {
      const ck = sample(withOpt);
      const bytes = writeCheckpoint(ck);
      expect(bytes.length % 4).toBe(0);
      const back = readCheckpoint(bytes, { vocabHash: '0d60654c' });
      expect(back.config).toEqual(small);
      expect(back.vocabHash).toBe('0d60654c');
      expect(back.params).toEqual(ck.params);
      expect(back.metadata).toEqual(ck.metadata);
      if (withOpt) {
        expect(back.optimizer?.step).toBe(12);
        expect(back.optimizer?.m).toEqual(ck.optimizer?.m);
        expect(back.optimizer?.v).toEqual(ck.optimizer?.v);
      } else {
        expect(back.optimizer).toBeNull();
      }
    }
  });

  it('writes the same bytes for the same checkpoint, and reads a preset-sized file', () => {
    expect(writeCheckpoint(sample(true))).toEqual(writeCheckpoint(sample(true)));
    const config = presetConfig('tiny', 300);
    const params = initParameters(config, 1);
    const back = readCheckpoint(writeCheckpoint({ config, vocabHash: 'x', params, optimizer: null, metadata: {} }));
    expect(back.params.length).toBe(parameterLayout(config).totalFloats);
    expect(Buffer.from(back.params.buffer).equals(Buffer.from(params.buffer))).toBe(true);
  });

  it('refuses to write non-finite weights', () => {
    const ck = sample(false);
    ck.params[5] = NaN;
    expect(() => writeCheckpoint(ck)).toThrow(/parameters\[5\] is not finite/);
  });
});

describe('checkpoint refusals', () => {
  const good = writeCheckpoint(sample(true));

  it('names a wrong vocabulary', () => {
    expect(() => readCheckpoint(good, { vocabHash: 'ffffffff' })).toThrow(
      /written for vocabulary 0d60654c, this build's vocabulary is ffffffff/,
    );
  });

  it('names a wrong version', () => {
    const b = good.slice();
    new DataView(b.buffer).setUint32(8, CHECKPOINT_VERSION + 1, true);
    expect(() => readCheckpoint(b)).toThrow(/unsupported checkpoint version 2/);
  });

  it('names a file that is not a checkpoint', () => {
    expect(kindOf(new TextEncoder().encode('{"json": "instead"}'))).toBe('not-a-checkpoint');
    expect(kindOf(new Uint8Array(0))).toBe('truncated');
  });

  it('names a flipped bit as a checksum mismatch', () => {
    const b = good.slice();
    b[b.length - 40] ^= 0x10;
    expect(() => readCheckpoint(b)).toThrow(/corrupted checkpoint: checksum mismatch/);
  });

  it('refuses every truncation as truncated (fuzz)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: good.length - 1 }), (len) => kindOf(good.subarray(0, len)) === 'truncated'),
      { numRuns: 300 },
    );
  });

  it('refuses every mutated file with a typed error, never a crash and never a partial result (fuzz)', () => {
    const mutation = fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 })), { minLength: 1, maxLength: 6 });
    fc.assert(
      fc.property(mutation, fc.boolean(), (edits, alsoTruncate) => {
        const b = good.slice();
        for (const [at, x] of edits) b[at % b.length] ^= x;
        const cut = alsoTruncate ? b.subarray(0, (edits[0][0] * 7) % b.length) : b;
        const kind = kindOf(cut, '0d60654c');
        // XOR with a non-zero byte always changes the file: a single edit is always caught by CRC-32.
        return kind !== 'ok' || edits.length > 1;
      }),
      { numRuns: 400 },
    );
  });

  it('refuses appended bytes', () => {
    const b = new Uint8Array(good.length + 3);
    b.set(good);
    expect(kindOf(b)).toBe('corrupted');
  });

  it('refuses a well-sealed file whose header does not match its contents', () => {
    // A file sealed with a valid checksum but a config that does not fit the parameter count.
    const ck = sample(false);
    const b = writeCheckpoint(ck);
    const text = new TextDecoder().decode(b.subarray(20, 20 + new DataView(b.buffer).getUint32(16, true)));
    const forged = text.replace('"dModel":4', '"dModel":6');
    const enc = new TextEncoder().encode(forged);
    expect(enc.length).toBe(new TextEncoder().encode(text).length);
    b.set(enc, 20);
    new DataView(b.buffer).setUint32(b.length - 4, crc32(b.subarray(0, b.length - 4)), true);
    expect(() => readCheckpoint(b)).toThrow(
      /corrupted checkpoint: (bad model config|\d+ parameters declared|the model config \(\d+ parameters\) needs \d+ bytes)/,
    );
  });
});

describe('sizes declared in the header', () => {
  it('refuses a 424-byte file whose valid-CRC header declares 2^20 layers before allocating for them', () => {
    const config = { vocabSize: 300, contextLength: 512, dModel: 16, nLayer: 1 << 20, nHead: 2, dMlp: 64, lnEps: 1e-5 };
    let header = headerJson(config, { note: '' }, 1 << 30);
    header = headerJson(config, { note: 'x'.repeat(400 - header.length) }, 1 << 30);
    const file = sealedCheckpoint(header);
    expect(file.length).toBe(424);
    let err: unknown;
    try {
      readCheckpoint(file);
    } catch (e) {
      err = e;
    }
    // The size check's own message: an allocation for 2^20 layers' weights (15 GB) would have thrown a RangeError.
    expect(err).toBeInstanceOf(CheckpointError);
    expect((err as CheckpointError).kind).toBe('corrupted');
    expect((err as Error).message).toMatch(
      /^corrupted checkpoint: the model config \(\d+ parameters\) needs \d+ bytes, the file holds 0$/,
    );
  });

  it('refuses metadata nested 100,000 deep in one line (no stack overflow)', () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    // A file that is right in every other way: its parameters are all there (zeros).
    const n = parameterLayout(small).totalFloats;
    const file = sealedCheckpoint(
      `{"config":${JSON.stringify(small)},"vocabHash":"0d60654c","parameterFloats":${n},"optimizer":null,"metadata":{"a":${deep}}}`,
      4 * n,
    );
    expect(readCheckpoint(sealedCheckpoint(headerJson(small, { a: [[1]] }, n), 4 * n)).metadata).toEqual({ a: [[1]] });
    expect(() => readCheckpoint(file)).toThrow(
      /^corrupted checkpoint: header cannot be read \(JSON nested deeper than 64 levels\)$/,
    );
  });

  it('refuses a header with a key "__proto__", which would set the prototype of a copy of its metadata', () => {
    const n = parameterLayout(small).totalFloats;
    const header = (metadata: string) =>
      `{"config":${JSON.stringify(small)},"vocabHash":"0d60654c","parameterFloats":${n},"optimizer":null,"metadata":${metadata}}`;
    expect(readCheckpoint(sealedCheckpoint(header('{"proto":"__proto__"}'), 4 * n)).metadata).toEqual({
      proto: '__proto__',
    });
    for (const [metadata, at] of [
      ['{"__proto__":{"preset":"tiny"}}', 'metadata'],
      ['{"run":{"\\u005f\\u005fproto__":{}}}', 'metadata.run'],
    ])
      expect(() => readCheckpoint(sealedCheckpoint(header(metadata), 4 * n))).toThrow(
        new CheckpointError(
          'corrupted',
          `corrupted checkpoint: header cannot be read (JSON with a key "__proto__" in ${at}, which no file read here holds)`,
        ),
      );
  });
});
