// Property tests of the checkpoint reader on files from anywhere: any bytes, and files sealed with a valid
// checksum around any header (so that the checks after the checksum are reached), give a checkpoint or a
// one-line CheckpointError, and never allocate for a size the file cannot hold.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nested, parsesOrRefuses } from '../common/parser_testing.ts';
import { CheckpointError, readCheckpoint, writeCheckpoint } from './checkpoint.ts';
import { headerJson, sealedCheckpoint } from './checkpoint_testing.ts';
import { validateConfig } from './config.ts';
import { initParameters } from './init.ts';
import { layoutFloats } from './layout.ts';

const small = validateConfig({ vocabSize: 9, contextLength: 6, dModel: 4, nLayer: 1, nHead: 2, dMlp: 8, lnEps: 1e-5 });
const good = writeCheckpoint({
  config: small,
  vocabHash: '0d60654c',
  params: initParameters(small, 1),
  optimizer: null,
  metadata: { seed: 1 },
});
const goodHeader = new TextDecoder().decode(good.subarray(20, 20 + new DataView(good.buffer).getUint32(16, true)));

const size = fc.oneof(
  fc.integer({ min: 1, max: 8 }),
  fc.integer({ min: 1, max: 1 << 20 }),
  fc.constantFrom(0, -1, 1.5, 2 ** 31, 2 ** 53, 1e308),
  fc.constant('4'),
  fc.constant(null),
);
const config = fc.record({
  vocabSize: size,
  contextLength: size,
  dModel: size,
  nLayer: size,
  nHead: size,
  dMlp: size,
  lnEps: fc.oneof(fc.constant(1e-5), fc.double()),
});
const metadata = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }),
  fc.integer({ min: 60, max: 100_000 }).map((d) => ({ deep: JSON.parse(nested(Math.min(d, 64))) })),
);

const file = fc.oneof(
  fc.uint8Array({ maxLength: 2000 }),
  fc
    .tuple(fc.string({ unit: 'binary', maxLength: 400 }), fc.nat({ max: 4096 }))
    .map(([header, payload]) => sealedCheckpoint(header, payload)),
  fc
    .tuple(config, metadata, fc.oneof(size, fc.constant(layoutFloats(small))), fc.nat({ max: 4096 }))
    .map(([c, m, floats, payload]) => sealedCheckpoint(headerJson(c, m, floats), payload)),
  fc
    .tuple(fc.integer({ min: 1, max: 200_000 }), fc.boolean())
    .map(([depth, objects]) =>
      sealedCheckpoint(
        goodHeader.replace('"metadata":', `"metadata":{"x":${nested(depth, '1', objects)}},"m":`),
        4 * layoutFloats(small),
      ),
    ),
  fc.tuple(fc.nat(), fc.string({ maxLength: 3 })).map(([at, text]) => {
    const i = at % goodHeader.length;
    return sealedCheckpoint(goodHeader.slice(0, i) + text + goodHeader.slice(i + 1), 4 * layoutFloats(small));
  }),
);

describe('checkpoint bytes (property)', () => {
  it('give a checkpoint or a one-line CheckpointError', () => {
    const outcomes = { value: 0, refused: 0 };
    fc.assert(
      fc.property(file, (bytes) => {
        outcomes[parsesOrRefuses(() => readCheckpoint(bytes), CheckpointError)]++;
      }),
      { numRuns: 400 },
    );
    expect(outcomes.refused).toBeGreaterThan(0);
  });
});
