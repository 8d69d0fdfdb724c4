import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exportPolicyOnnx, policyModelProto } from './export.ts';
import { readPolicyOnnx } from './load.ts';
import { CARD_KEY, CONFIG_KEY, FORMAT_KEY, OnnxPolicyError, VOCABULARY_KEY, CRC_KEY } from './metadata.ts';
import { checkOnnxModel } from './onnx_checker.ts';
import { DataType, encodeModel, type ModelProto } from './proto.ts';
import { testPolicy } from './testing/fixtures.ts';

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
    expect(refusal(foreignModel())).toBe('not a SEED Playground policy: the model has no "seed_playground.format" metadata entry');
  });

  it('a newer format version', () => {
    expect(refusal(withMetadata((m) => m.set(FORMAT_KEY, '2')))).toMatch(/unsupported SEED Playground policy format version "2"/);
  });

  it('damaged metadata, each named', () => {
    expect(refusal(withMetadata((m) => m.set(CONFIG_KEY, '{"vocabSize": 3')))).toMatch(/"seed_playground.model_config" is not valid JSON/);
    expect(refusal(withMetadata((m) => m.delete(CARD_KEY)))).toBe('metadata "seed_playground.training_card" is missing');
    expect(refusal(withMetadata((m) => m.set(VOCABULARY_KEY, '["a", "b"]')))).toMatch(/vocabulary has 2 tokens but the model config says vocabSize/);
    expect(refusal(withMetadata((m) => m.set(VOCABULARY_KEY, '{"a": 1}')))).toMatch(/must be a JSON array of strings/);
    const badConfig = { ...policy.config, nHead: 3 };
    expect(refusal(withMetadata((m) => m.set(CONFIG_KEY, JSON.stringify(badConfig))))).toMatch(/not a multiple of nHead 3/);
    const badCard = { ...policy.card, success: { 'eval-seen': 1.5 } };
    expect(refusal(withMetadata((m) => m.set(CARD_KEY, JSON.stringify(badCard))))).toMatch(/success\["eval-seen"\] must be a rate in \[0, 1\]/);
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

  it('a config asking for more weights than the file holds is refused before allocating them', () => {
    const huge = { ...policy.config, dModel: 1 << 20, nHead: 1 };
    expect(refusal(withMetadata((m) => m.set(CONFIG_KEY, JSON.stringify(huge))))).toBe(`initializer "wte" has shape [${policy.config.vocabSize},16], the config needs [${policy.config.vocabSize},1048576]`);
  });

  it('weights missing or of the wrong shape', () => {
    const graph = proto.graph!;
    const without = encodeModel({ ...proto, graph: { ...graph, initializer: graph.initializer!.filter((t) => t.name !== 'h1.mlp.fc.b') } });
    expect(refusal(without)).toBe('the model has no initializer "h1.mlp.fc.b"');
    const reshaped = graph.initializer!.map((t) => (t.name === 'lnf.w' ? { ...t, dims: [2, 8] } : t));
    expect(refusal(encodeModel({ ...proto, graph: { ...graph, initializer: reshaped } }))).toMatch(/"lnf.w" has shape \[2,8\], the config needs \[16\]/);
  });

  it('truncated or corrupted files never load half a model (fuzz)', () => {
    const bytes = exportPolicyOnnx(policy);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: bytes.length - 1 }), fc.integer({ min: 1, max: 255 }), fc.boolean(), (at, xor, truncate) => {
        const damaged = truncate ? bytes.slice(0, at) : bytes.slice();
        if (!truncate) damaged[at] ^= xor;
        try {
          const loaded = readPolicyOnnx(damaged);
          // A changed byte can still decode where it touches none of our content (a node name, a doc
          // string): the checksum then proves the weights and metadata intact.
          expect(truncate).toBe(false);
          expect(loaded.vocabulary).toEqual(policy.vocabulary);
          expect(loaded.card).toEqual(policy.card);
          expect(Buffer.from(loaded.params.buffer).equals(Buffer.from(policy.params.buffer))).toBe(true);
        } catch (err) {
          expect(err).toBeInstanceOf(OnnxPolicyError);
        }
      }),
      { numRuns: 300, seed: 17 },
    );
  });
});

describe('readPolicyOnnx accepts its own exports', () => {
  it('vocabulary of arbitrary unique strings round-trips (unicode, quotes, newlines)', () => {
    const small = testPolicy('micro', 4);
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ unit: 'grapheme', maxLength: 6 }), { minLength: 1, maxLength: 40 }), (tokens) => {
        const vocabulary = small.vocabulary.map((t, i) => (i < tokens.length ? `${i}:${tokens[i]}` : t));
        const bytes = exportPolicyOnnx({ ...small, vocabulary });
        expect(readPolicyOnnx(bytes).vocabulary).toEqual(vocabulary);
        expect(checkOnnxModel(bytes).metadataKeys).toContain(VOCABULARY_KEY);
      }),
      { numRuns: 8, seed: 3 },
    );
  });
});
