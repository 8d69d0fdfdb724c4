// The graph of a file read as a policy must be the one the exporter writes for the file's own model config
// (policy_graph.ts): the checksum covers the metadata and the weights, not the nodes, so a changed node (a
// negated output, another LayerNorm epsilon, swapped MatMul inputs) would otherwise run as a valid policy.
// The expected graph is rebuilt from the config and compared node by node: op type, domain, inputs,
// outputs and every attribute, after the graph's inputs and outputs. Names of nodes and of the graph, and doc
// strings, change no result and are not compared. The first difference is refused with an OnnxPolicyError
// naming the node.
import type { ModelConfig } from '../model/config.ts';
import type { ParameterLayout } from '../model/layout.ts';
import { isPresent } from './initializers.ts';
import { OnnxPolicyError } from './metadata.ts';
import { policyGraphStructure } from './policy_graph.ts';
import {
  AttributeType,
  DataType,
  decodeModel,
  encodeModel,
  tensorFloats,
  type GraphProto,
  type ModelProto,
  type NodeProto,
  type TensorProto,
} from './proto.ts';

/** Parts of a model that hold computation or data besides the graph's nodes and weights. */
const MODEL_EXTRAS = ['functions', 'training_info'] as const;
const GRAPH_EXTRAS = ['sparse_initializer', 'value_info', 'quantization_annotation'] as const;

export function checkPolicyGraph(model: ModelProto, config: ModelConfig, layout: ParameterLayout): void {
  const graph = model.graph ?? {};
  for (const key of MODEL_EXTRAS) {
    if (isPresent((model as Record<string, unknown>)[key]))
      throw new OnnxPolicyError(`the model holds ${key}, which a policy file has none of`);
  }
  for (const key of GRAPH_EXTRAS) {
    if (isPresent((graph as Record<string, unknown>)[key]))
      throw new OnnxPolicyError(`the graph holds ${key}, which a policy file has none of`);
  }
  // Through the encoder and back, so that both sides read alike (float attributes as float32, bytes as bytes).
  const expected = decodeModel(encodeModel({ graph: policyGraphStructure(config, layout) })).graph as GraphProto;
  for (const side of ['input', 'output'] as const) {
    const want = expected[side] ?? [];
    const got = graph[side] ?? [];
    if (got.length !== want.length) {
      throw new OnnxPolicyError(
        `the graph has ${got.length} ${side}s (${got
          .slice(0, 4)
          .map((v) => fileText(v.name))
          .join(
            ', ',
          )}${got.length > 4 ? ', ...' : ''}), a policy has ${want.length}: ${want.map((v) => v.name).join(', ')}`,
      );
    }
    want.forEach((w, i) => {
      const diff = difference(w, got[i], '');
      if (diff !== null) throw new OnnxPolicyError(`graph ${side} ${i} (${w.name}): ${diff}`);
    });
  }
  const want = expected.node ?? [];
  const got = graph.node ?? [];
  for (let k = 0; k < Math.max(want.length, got.length); k++) {
    if (k >= got.length)
      throw new OnnxPolicyError(
        `graph node ${k} (${nodeLabel(want[k])}) is missing: the file has ${got.length} nodes, the model config needs ${want.length}`,
      );
    if (k >= want.length)
      throw new OnnxPolicyError(
        `graph node ${k} (${fileText(got[k].op_type)}) is one node too many: the model config needs ${want.length}`,
      );
    const diff = nodeDifference(want[k], got[k]);
    if (diff !== null) throw new OnnxPolicyError(`graph node ${k} (${nodeLabel(want[k])}): ${diff}`);
  }
}

function nodeLabel(node: NodeProto): string {
  return `${node.op_type} ${node.name}`;
}

function nodeDifference(want: NodeProto, got: NodeProto): string | null {
  if (got.op_type !== want.op_type) return `op type is ${fileText(got.op_type)}, expected ${want.op_type}`;
  if ((got.domain ?? '') !== '') return `domain is ${fileText(got.domain)}, expected the default domain`;
  for (const side of ['input', 'output'] as const) {
    const a = got[side] ?? [];
    const e = want[side];
    for (let i = 0; i < Math.min(a.length, e.length); i++) {
      if (a[i] !== e[i]) return `${side} ${i} is ${fileText(a[i])}, expected ${JSON.stringify(e[i])}`;
    }
    if (a.length !== e.length) return `it has ${a.length} ${side}s, expected ${e.length}`;
  }
  const attributes = got.attribute ?? [];
  const expectedAttributes = want.attribute ?? [];
  for (const a of attributes) {
    if (!expectedAttributes.some((e) => e.name === a.name))
      return `attribute ${fileText(a.name)} is not one the exporter writes`;
    if (attributes.filter((b) => b.name === a.name).length > 1) return `attribute ${a.name} is given twice`;
  }
  for (const e of expectedAttributes) {
    const a = attributes.find((b) => b.name === e.name);
    if (!a) return `attribute ${e.name} is missing`;
    if (a.type !== e.type) return `attribute ${e.name} has type ${typeName(a.type)}, expected ${typeName(e.type)}`;
    const diff = difference(e, a, `attribute ${e.name}`, VALUE_KEYS[e.type]);
    if (diff !== null) return diff;
  }
  return null;
}

/** The field holding an attribute's value, by its type: a difference there reads "attribute epsilon is 10". */
const VALUE_KEYS: Record<number, string> = {
  [AttributeType.FLOAT]: 'f',
  [AttributeType.INT]: 'i',
  [AttributeType.TENSOR]: 't',
  [AttributeType.INTS]: 'ints',
};

function typeName(type: number | undefined): string {
  const name = Object.entries(AttributeType).find(([, v]) => v === type)?.[0];
  return name ?? fileText(type);
}

/**
 * The first difference between two decoded messages, or null: every set field but doc strings, with
 * `valueKey`'s value reported under `path` itself. Unset and empty repeated fields are alike.
 */
function difference(want: unknown, got: unknown, path: string, valueKey?: string): string | null {
  const at = (key: string) => (key === valueKey ? path : path === '' ? key : `${path}.${key}`);
  if (isBytes(want) || isBytes(got)) return bytesDifference(want, got, path);
  if (Array.isArray(want) || Array.isArray(got)) {
    const a = Array.isArray(got) ? got : [];
    const e = Array.isArray(want) ? want : [];
    if (a.length !== e.length) return `${path} has ${a.length} entries, expected ${e.length}`;
    for (let i = 0; i < e.length; i++) {
      const diff = difference(e[i], a[i], `${path}[${i}]`);
      if (diff !== null) return diff;
    }
    return null;
  }
  if (isRecord(want) && isRecord(got)) {
    if (isTensor(want) && isTensor(got)) {
      const values = tensorDifference(want, got, path);
      if (values !== null) return values;
    }
    const keys = new Set([...Object.keys(want), ...Object.keys(got)].filter((k) => k !== 'doc_string'));
    for (const key of keys) {
      const e = want[key];
      const a = got[key];
      if (!isPresent(a) && isPresent(e)) return `${at(key)} is missing`;
      if (isPresent(a) && !isPresent(e)) return `${at(key)} is set, the exporter leaves it out`;
      const diff = isPresent(e) ? difference(e, a, at(key)) : null;
      if (diff !== null) return diff;
    }
    return null;
  }
  if (Object.is(want, got)) return null;
  return `${path} is ${fileText(got)}, expected ${typeof want === 'number' ? numberText(want) : JSON.stringify(want)}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function isBytes(value: unknown): value is Uint8Array {
  return value instanceof Uint8Array;
}

function isTensor(value: Record<string, unknown>): boolean {
  return 'data_type' in value && isBytes(value.raw_data);
}

function bytesDifference(want: unknown, got: unknown, path: string): string | null {
  if (!isBytes(want) || !isBytes(got)) return `${path} is ${isBytes(got) ? 'bytes' : fileText(got)}, expected bytes`;
  if (got.length !== want.length) return `${path} has ${got.length} bytes, expected ${want.length}`;
  const i = want.findIndex((b, j) => got[j] !== b);
  return i < 0 ? null : `${path} differs at byte ${i}`;
}

/** A constant's values in the message when both are small tensors of one type: "[0.5], expected [0.044715]". */
function tensorDifference(want: TensorProto, got: TensorProto, path: string): string | null {
  const values = (t: TensorProto) =>
    t.data_type === DataType.FLOAT && t.raw_data!.length % 4 === 0
      ? [...tensorFloats(t)]
      : t.data_type === DataType.INT64 && t.raw_data!.length % 8 === 0
        ? int64Values(t.raw_data!)
        : null;
  if (got.data_type !== want.data_type || bytesDifference(want.raw_data, got.raw_data, path) === null) return null;
  const a = values(got);
  const e = values(want);
  if (a === null || e === null || a.length > 8 || e.length > 8) return null;
  return `${path} holds [${a.map(numberText).join(', ')}], expected [${e.map(numberText).join(', ')}]`;
}

function int64Values(raw: Uint8Array): number[] {
  const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
  return Array.from({ length: raw.length / 8 }, (_, i) => Number(view.getBigInt64(8 * i, true)));
}

/** Integers as they are; other numbers in the fewest digits that give back the same float32. */
function numberText(x: number): string {
  if (Number.isInteger(x) || !Number.isFinite(x)) return String(x);
  for (let p = 1; p < 17; p++) {
    const short = Number(x.toPrecision(p));
    if (Math.fround(short) === Math.fround(x)) return String(short);
  }
  return String(x);
}

/** A value read from the file, for a message: quoted and cut short (OnnxPolicyError escapes the rest). */
function fileText(value: unknown): string {
  if (typeof value === 'number') return numberText(value);
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
