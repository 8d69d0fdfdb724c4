// ONNX protobuf encoding and decoding through protobufjs and the ONNX schema itself (onnx.proto of ONNX
// 1.12: IR version 8, opsets up to 17), loaded as text so that the browser bundle, vitest and the CLI all
// read the same file. Field names keep the schema's snake_case.
import { parse, type Type } from 'protobufjs';
import onnxProtoText from './onnx.proto?raw';

/** IR version of the schema shipped here (onnx.proto's IR_VERSION). */
export const IR_VERSION = 8;
export const OPSET_VERSION = 17;

/** TensorProto.DataType values used by the policy graph. */
export const DataType = { FLOAT: 1, INT64: 7, BOOL: 9 } as const;

/** AttributeProto.AttributeType values used by the policy graph. */
export const AttributeType = { FLOAT: 1, INT: 2, TENSOR: 4, INTS: 7 } as const;

export interface TensorProto {
  name?: string;
  dims?: number[];
  data_type?: number;
  raw_data?: Uint8Array;
  float_data?: number[];
  int64_data?: number[];
  int32_data?: number[];
  doc_string?: string;
}

export interface AttributeProto {
  name: string;
  type: number;
  f?: number;
  i?: number;
  t?: TensorProto;
  ints?: number[];
}

export interface NodeProto {
  name?: string;
  op_type: string;
  domain?: string;
  input: string[];
  output: string[];
  attribute?: AttributeProto[];
  doc_string?: string;
}

/** A dimension is either fixed (dim_value) or named and dynamic (dim_param). */
interface DimensionProto {
  dim_value?: number;
  dim_param?: string;
}

export interface ValueInfoProto {
  name: string;
  type?: { tensor_type?: { elem_type?: number; shape?: { dim?: DimensionProto[] } } };
  doc_string?: string;
}

export interface GraphProto {
  name?: string;
  node?: NodeProto[];
  initializer?: TensorProto[];
  input?: ValueInfoProto[];
  output?: ValueInfoProto[];
  value_info?: ValueInfoProto[];
  doc_string?: string;
}

export interface StringStringEntryProto {
  key: string;
  value: string;
}

interface OperatorSetIdProto {
  domain?: string;
  version: number;
}

export interface ModelProto {
  ir_version?: number;
  opset_import?: OperatorSetIdProto[];
  producer_name?: string;
  producer_version?: string;
  domain?: string;
  model_version?: number;
  doc_string?: string;
  graph?: GraphProto;
  metadata_props?: StringStringEntryProto[];
}

let modelType: Type | undefined;

function modelProtoType(): Type {
  modelType ??= parse(onnxProtoText, { keepCase: true }).root.lookupType('onnx.ModelProto');
  return modelType;
}

export function encodeModel(model: ModelProto): Uint8Array {
  const type = modelProtoType();
  const problem = type.verify(model);
  if (problem) throw new Error(`ONNX model does not match the schema: ${problem}`);
  const bytes = type.encode(type.fromObject(model)).finish();
  // In Node protobufjs returns a Buffer, possibly a view into a shared pool whose slice() does not copy:
  // hand out a plain Uint8Array that owns its memory.
  return bytes.constructor === Uint8Array ? bytes : new Uint8Array(bytes);
}

/** Decodes bytes as an ONNX ModelProto; throws the protobuf reader's error when they are not one. */
export function decodeModel(bytes: Uint8Array): ModelProto {
  const type = modelProtoType();
  const message = type.decode(bytes);
  return type.toObject(message, { longs: Number, defaults: false, arrays: true }) as ModelProto;
}

/** The float32 values of a tensor stored as raw little-endian bytes or as float_data. */
export function tensorFloats(tensor: TensorProto): Float32Array {
  if (tensor.raw_data && tensor.raw_data.length > 0) {
    const raw = tensor.raw_data;
    if (raw.length % 4 !== 0)
      throw new Error(`tensor "${tensor.name}" has ${raw.length} raw bytes, not a multiple of 4`);
    const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
    const out = new Float32Array(raw.length / 4);
    for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(4 * i, true);
    return out;
  }
  return Float32Array.from(tensor.float_data ?? []);
}

/** Little-endian raw bytes of float32 values, as TensorProto.raw_data requires. */
export function floatRawData(values: ArrayLike<number>): Uint8Array {
  const bytes = new Uint8Array(values.length * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < values.length; i++) view.setFloat32(4 * i, values[i], true);
  return bytes;
}

/** Little-endian raw bytes of int64 values. */
export function int64RawData(values: ArrayLike<number>): Uint8Array {
  const bytes = new Uint8Array(values.length * 8);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < values.length; i++) view.setBigInt64(8 * i, BigInt(values[i]), true);
  return bytes;
}
