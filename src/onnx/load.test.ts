import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { parameterLayout } from '../model/layout.ts';
import { exportPolicyOnnx, policyModelProto } from './export.ts';
import { declaredWeights } from './initializers.ts';
import { readPolicyOnnx, type LoadedPolicy } from './load.ts';
import { CARD_KEY, CONFIG_KEY, FORMAT_KEY, OnnxPolicyError, VOCABULARY_KEY, CRC_KEY } from './metadata.ts';
import { checkOnnxModel } from './onnx_checker.ts';
import { DataType, encodeModel, type ModelProto } from './proto.ts';
import { testPolicy } from './testing/fixtures.ts';

// parameterLayout watched, and refused for more layers than any test file holds: the loader must weigh a
// config against the file before it builds its layout, and one that did not fails here at once.
vi.mock('../model/layout.ts', async (importOriginal) => {
  const layout = await importOriginal<typeof import('../model/layout.ts')>();
  return {
    ...layout,
    parameterLayout: vi.fn((config: Parameters<typeof layout.parameterLayout>[0]) => {
      if (config.nLayer > 64) throw new Error(`a layout of ${config.nLayer} layers was built`);
      return layout.parameterLayout(config);
    }),
  };
});

const policy = testPolicy('micro', 2);
const proto = policyModelProto(policy);

function withMetadata(edit: (props: Map<string, string>) => void): Uint8Array {
  const props = new Map((proto.metadata_props ?? []).map((p) => [p.key, p.value]));
  edit(props);
  return encodeModel({ ...proto, metadata_props: [...props].map(([key, value]) => ({ key, value })) });
}

/** A valid ONNX model that is not ours: y = x + w. */
function foreignModel(): Uint8Array {
  const model: ModelProto = {
    ir_version: 8,
    opset_import: [{ domain: '', version: 17 }],
    producer_name: 'someone-else',
    graph: {
      name: 'add',
      node: [{ op_type: 'Add', input: ['x', 'w'], output: ['y'] }],
      initializer: [{ name: 'w', dims: [1], data_type: DataType.FLOAT, float_data: [1] }],
      input: [{ name: 'x', type: { tensor_type: { elem_type: DataType.FLOAT, shape: { dim: [{ dim_value: 1 }] } } } }],
      output: [{ name: 'y', type: { tensor_type: { elem_type: DataType.FLOAT, shape: { dim: [{ dim_value: 1 }] } } } }],
    },
  };
  return encodeModel(model);
}

function refusal(bytes: Uint8Array): string {
  try {
    readPolicyOnnx(bytes);
  } catch (err) {
    expect(err).toBeInstanceOf(OnnxPolicyError);
    return (err as Error).message;
  }
  throw new Error('the file was accepted');
}

describe('readPolicyOnnx refuses what is not a SEED Playground policy', () => {
  it('an empty file', () => {
    expect(refusal(new Uint8Array(0))).toBe('the file is empty');
  });

  it('bytes that are not protobuf', () => {
    expect(refusal(new TextEncoder().encode('{"version": 1, "not": "onnx"}'))).toMatch(/^not an ONNX model/);
  });

  it('an ONNX model from elsewhere', () => {
    expect(refusal(foreignModel())).toBe(
      'not a SEED Playground policy: the model has no "seed_playground.format" metadata entry',
    );
  });

  it('a newer format version', () => {
    expect(refusal(withMetadata((m) => m.set(FORMAT_KEY, '2')))).toMatch(
      /unsupported SEED Playground policy format version "2"/,
    );
  });

  it('damaged metadata, each named', () => {
    expect(refusal(withMetadata((m) => m.set(CONFIG_KEY, '{"vocabSize": 3')))).toMatch(
      /"seed_playground.model_config" is not valid JSON/,
    );
    expect(refusal(withMetadata((m) => m.delete(CARD_KEY)))).toBe(
      'metadata "seed_playground.training_card" is missing',
    );
    expect(refusal(withMetadata((m) => m.set(VOCABULARY_KEY, '["a", "b"]')))).toMatch(
      /vocabulary has 2 tokens but the model config says vocabSize/,
    );
    expect(refusal(withMetadata((m) => m.set(VOCABULARY_KEY, '{"a": 1}')))).toMatch(/must be a JSON array of strings/);
    const badConfig = { ...policy.config, nHead: 3 };
    expect(refusal(withMetadata((m) => m.set(CONFIG_KEY, JSON.stringify(badConfig))))).toMatch(
      /not a multiple of nHead 3/,
    );
    const badCard = { ...policy.card, success: { 'eval-seen': 1.5 } };
    expect(refusal(withMetadata((m) => m.set(CARD_KEY, JSON.stringify(badCard))))).toMatch(
      /success\["eval-seen"\] must be a rate in \[0, 1\]/,
    );
  });

  it('a weight or a token changed inside the file: the checksum catches it', () => {
    const graph = proto.graph!;
    const changed = graph.initializer!.map((t) => {
      if (t.name !== 'h0.mlp.fc.w') return t;
      const raw = t.raw_data!.slice();
      raw[5] ^= 0x10;
      return { ...t, raw_data: raw };
    });
    const damaged = 'the metadata or weights do not match their checksum: the file is damaged';
    expect(refusal(encodeModel({ ...proto, graph: { ...graph, initializer: changed } }))).toBe(damaged);
    const tokens = [...policy.vocabulary];
    tokens[40] = `${tokens[40]}x`;
    expect(refusal(withMetadata((m) => m.set(VOCABULARY_KEY, JSON.stringify(tokens))))).toBe(damaged);
    expect(refusal(withMetadata((m) => m.delete(CRC_KEY)))).toBe('metadata "seed_playground.crc32" is missing');
    // Entries other tools add are not ours and do not count.
    expect(readPolicyOnnx(withMetadata((m) => m.set('converted_by', 'some tool'))).card).toEqual(policy.card);
  });

  it('a config asking for more weights than the file holds is refused at once, before any layout is built', () => {
    // A valid config of 2^20 layers: its layout alone would take 12.6 million views.
    const deep = withMetadata((m) => m.set(CONFIG_KEY, JSON.stringify({ ...policy.config, nLayer: 1 << 20 })));
    const layouts = vi.mocked(parameterLayout);
    layouts.mockClear();
    expect(refusal(deep)).toBe(
      'the model config declares 1048576 layers, i.e. 12582916 weight tensors, but the file holds 28 initializers',
    );
    expect(layouts).not.toHaveBeenCalled();
    // The same watch sees a file that loads build its layout.
    readPolicyOnnx(withMetadata(() => {}));
    expect(layouts).toHaveBeenCalled();
    const wide = withMetadata((m) =>
      m.set(CONFIG_KEY, JSON.stringify({ ...policy.config, dModel: 1 << 20, nHead: 1 })),
    );
    const longer = withMetadata((m) =>
      m.set(CONFIG_KEY, JSON.stringify({ ...policy.config, contextLength: policy.config.contextLength + 1 })),
    );
    // One more position: one more row of dModel weights than the file holds.
    const held = Number(/initializers hold (\d+)$/.exec(refusal(longer))![1]);
    expect(refusal(longer)).toBe(
      `the model config declares ${held + policy.config.dModel} weights, but the file's initializers hold ${held}`,
    );
    expect(refusal(wide)).toMatch(
      new RegExp(`^the model config declares \\d{13} weights, but the file's initializers hold ${held}$`),
    );
  });

  it('the declared weights are counted as the layout counts them', () => {
    fc.assert(
      fc.property(
        fc.record({
          vocabSize: fc.integer({ min: 1, max: 300 }),
          contextLength: fc.integer({ min: 1, max: 80 }),
          nHead: fc.integer({ min: 1, max: 4 }),
          headDim: fc.integer({ min: 1, max: 12 }),
          nLayer: fc.integer({ min: 1, max: 5 }),
          dMlp: fc.integer({ min: 1, max: 70 }),
        }),
        ({ headDim, ...c }) => {
          const config = { ...c, dModel: c.nHead * headDim, lnEps: 1e-5 };
          const layout = parameterLayout(config);
          expect(declaredWeights(config)).toEqual({
            tensors: layout.list.length,
            values: layout.list.reduce((n, v) => n + v.size, 0),
          });
        },
      ),
      { numRuns: 200, seed: 5 },
    );
  });

  it('weights missing, renamed, doubled or of the wrong shape', () => {
    const graph = proto.graph!;
    const without = encodeModel({
      ...proto,
      graph: { ...graph, initializer: graph.initializer!.filter((t) => t.name !== 'h1.mlp.fc.b') },
    });
    expect(refusal(without)).toBe(
      'the model config declares 2 layers, i.e. 28 weight tensors, but the file holds 27 initializers',
    );
    const renamed = graph.initializer!.map((t) => (t.name === 'h1.mlp.fc.b' ? { ...t, name: 'h1.mlp.fc.bias' } : t));
    expect(refusal(encodeModel({ ...proto, graph: { ...graph, initializer: renamed } }))).toBe(
      'the model has no initializer "h1.mlp.fc.b"',
    );
    const doubled = graph.initializer!.map((t) => (t.name === 'lnf.b' ? { ...t, name: 'lnf.w' } : t));
    expect(refusal(encodeModel({ ...proto, graph: { ...graph, initializer: doubled } }))).toBe(
      'initializer "lnf.w" is defined twice',
    );
    const reshaped = graph.initializer!.map((t) => (t.name === 'lnf.w' ? { ...t, dims: [2, 8] } : t));
    expect(refusal(encodeModel({ ...proto, graph: { ...graph, initializer: reshaped } }))).toMatch(
      /"lnf.w" has shape \[2,8\], the config needs \[16\]/,
    );
    const external = graph.initializer!.map((t) =>
      t.name === 'wpe' ? { ...t, external_data: [{ key: 'location', value: 'weights.bin' }] } : t,
    );
    expect(refusal(encodeModel({ ...proto, graph: { ...graph, initializer: external } }))).toBe(
      'initializer "wpe" sets external_data; a weight holds its values in raw_data or float_data alone',
    );
    const twice = graph.initializer!.map((t) =>
      t.name === 'lnf.b' ? { ...t, float_data: Array.from({ length: 16 }, () => 1) } : t,
    );
    expect(refusal(encodeModel({ ...proto, graph: { ...graph, initializer: twice } }))).toBe(
      'initializer "lnf.b" holds values in both raw_data and float_data',
    );
  });
});

/** The loader's whole contract on one input: a policy or a one-line OnnxPolicyError. */
function loadOrRefuse(bytes: Uint8Array): LoadedPolicy | null {
  try {
    return readPolicyOnnx(bytes);
  } catch (err) {
    expect(err).toBeInstanceOf(OnnxPolicyError);
    expect((err as Error).message).not.toMatch(/[\n\r]/);
    return null;
  }
}

describe("readPolicyOnnx's contract on any input (property-based)", () => {
  const bytes = exportPolicyOnnx(policy);

  it('arbitrary bytes are refused with its own error', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 4096 }), (data) => {
        expect(loadOrRefuse(data)).toBeNull();
      }),
      { numRuns: 500, seed: 23 },
    );
  });

  it('a real export with bytes flipped, cut off or spliced in never loads half a model', () => {
    const flips = fc.array(fc.tuple(fc.integer({ min: 0, max: bytes.length - 1 }), fc.integer({ min: 1, max: 255 })), {
      minLength: 1,
      maxLength: 4,
    });
    const damage = fc.oneof(
      flips.map((list) => {
        const out = bytes.slice();
        for (const [at, xor] of list) out[at] ^= xor;
        return out;
      }),
      fc.integer({ min: 0, max: bytes.length - 1 }).map((at) => bytes.slice(0, at)),
      fc
        .tuple(fc.integer({ min: 0, max: bytes.length }), fc.uint8Array({ minLength: 1, maxLength: 64 }))
        .map(([at, data]) => Uint8Array.from([...bytes.subarray(0, at), ...data, ...bytes.subarray(at)])),
    );
    fc.assert(
      fc.property(damage, (out) => {
        const loaded = loadOrRefuse(out);
        if (loaded === null) return;
        // A change can still decode where it touches none of our content (a node name, a doc string): the
        // graph check and the checksum then prove the graph, the weights and the metadata intact.
        expect(loaded.vocabulary).toEqual(policy.vocabulary);
        expect(loaded.card).toEqual(policy.card);
        expect(loaded.config).toEqual(policy.config);
        expect(Buffer.from(loaded.params.buffer).equals(Buffer.from(policy.params.buffer))).toBe(true);
      }),
      { numRuns: 300, seed: 17 },
    );
  });

  it('metadata nested deep, or with control characters, is refused in one line', () => {
    // Written as text: a value this deep overflows JSON.stringify's stack (JSON.parse reads it).
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const config = JSON.stringify(policy.config).slice(0, -1);
    expect(
      refusal(
        withMetadata((m) =>
          m.set(CARD_KEY, `{"algorithm":"seed","extra":{"x":${deep}},"seed":2,"success":{},"updates":12}`),
        ),
      ),
    ).toBe('training card: extra["x"] must be a string, number or boolean');
    expect(
      refusal(
        withMetadata((m) => m.set(CARD_KEY, `{"algorithm":"seed","seed":2,"success":{"x":${deep}},"updates":12}`)),
      ),
    ).toBe('training card: success["x"] must be a rate in [0, 1], got object');
    expect(refusal(withMetadata((m) => m.set(CONFIG_KEY, `${config},"nLayer":${deep}}`)))).toBe(
      'metadata "seed_playground.model_config": nLayer must be a number, got object',
    );
    expect(refusal(withMetadata((m) => m.set(FORMAT_KEY, '1\n\u001b[31mred')))).toBe(
      'unsupported SEED Playground policy format version "1\\n\\u001b[31mred" (this build reads version 1)',
    );
    // Keys beside the config's fields are not kept (the file's checksum still covers them).
    expect(refusal(withMetadata((m) => m.set(CONFIG_KEY, `${config},"note":${deep}}`)))).toBe(
      'the metadata or weights do not match their checksum: the file is damaged',
    );
  });
});

describe('readPolicyOnnx accepts its own exports', () => {
  it('vocabulary of arbitrary unique strings round-trips (unicode, quotes, newlines)', () => {
    const small = testPolicy('micro', 4);
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ unit: 'grapheme', maxLength: 6 }), { minLength: 1, maxLength: 40 }),
        (tokens) => {
          const vocabulary = small.vocabulary.map((t, i) => (i < tokens.length ? `${i}:${tokens[i]}` : t));
          const bytes = exportPolicyOnnx({ ...small, vocabulary });
          expect(readPolicyOnnx(bytes).vocabulary).toEqual(vocabulary);
          expect(checkOnnxModel(bytes).metadataKeys).toContain(VOCABULARY_KEY);
        },
      ),
      { numRuns: 8, seed: 3 },
    );
  });
});
