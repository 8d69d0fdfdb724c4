// Reads an .onnx file and tells whether it is a SEED Playground policy: its metadata, and its weights read
// back into the flat parameter buffer, both checked against the file's CRC-32. Any other file, or a damaged
// one, is refused with an OnnxPolicyError saying why.
import { parameterLayout } from '../model/layout.ts';
import { contentCrc32 } from './checksum.ts';
import { CRC_KEY, decodeMetadata, METADATA_PREFIX, OnnxPolicyError, type PolicyMetadata } from './metadata.ts';
import { INPUT_NAME, OUTPUT_NAME } from './policy_graph.ts';
import { DataType, decodeModel, OPSET_VERSION, tensorFloats, type ModelProto, type TensorProto } from './proto.ts';

export interface LoadedPolicy extends PolicyMetadata {
  params: Float32Array;
  irVersion: number;
  opsetVersion: number;
  producer: string;
}

export function readPolicyOnnx(bytes: Uint8Array): LoadedPolicy {
  if (bytes.length === 0) throw new OnnxPolicyError('the file is empty');
  let model: ModelProto;
  try {
    model = decodeModel(bytes);
  } catch (err) {
    throw new OnnxPolicyError(`not an ONNX model: protobuf decoding failed (${(err as Error).message})`);
  }
  const graph = model.graph;
  if (!graph || !model.ir_version || !model.opset_import?.length) {
    throw new OnnxPolicyError('not an ONNX model: it has no graph, IR version or opset');
  }
  const meta = decodeMetadata(model.metadata_props ?? []);
  const opset = model.opset_import.find((o) => (o.domain ?? '') === '')?.version ?? 0;
  if (opset > OPSET_VERSION) throw new OnnxPolicyError(`the model needs opset ${opset}; this build reads up to ${OPSET_VERSION}`);
  if (graph.input?.[0]?.name !== INPUT_NAME || graph.output?.[0]?.name !== OUTPUT_NAME) {
    throw new OnnxPolicyError(`the graph must map "${INPUT_NAME}" to "${OUTPUT_NAME}"; found ${graph.input?.[0]?.name} -> ${graph.output?.[0]?.name}`);
  }

  const layout = parameterLayout(meta.config);
  const byName = new Map<string, TensorProto>();
  for (const t of graph.initializer ?? []) if (t.name) byName.set(t.name, t);
  // Every weight is checked against the config before anything is allocated, so a damaged config can
  // never ask for more memory than the file itself holds.
  const tensors = layout.list.map((view) => {
    const tensor = byName.get(view.name);
    if (!tensor) throw new OnnxPolicyError(`the model has no initializer "${view.name}"`);
    if (tensor.data_type !== DataType.FLOAT) throw new OnnxPolicyError(`initializer "${view.name}" has data type ${tensor.data_type}, not float32`);
    const dims = tensor.dims ?? [];
    if (dims.length !== view.shape.length || dims.some((d, i) => d !== view.shape[i])) {
      throw new OnnxPolicyError(`initializer "${view.name}" has shape [${dims}], the config needs [${view.shape}]`);
    }
    const held = tensor.raw_data?.length ? tensor.raw_data.length / 4 : (tensor.float_data?.length ?? 0);
    if (held !== view.size) throw new OnnxPolicyError(`initializer "${view.name}" holds ${held} values, its shape needs ${view.size}`);
    return tensor;
  });
  const params = new Float32Array(layout.totalFloats);
  layout.list.forEach((view, i) => params.set(tensorFloats(tensors[i]), view.offset));
  const props = model.metadata_props ?? [];
  const crc = props.find((p) => p.key === CRC_KEY)?.value;
  if (crc === undefined) throw new OnnxPolicyError(`metadata "${CRC_KEY}" is missing`);
  const ours = props.filter((p) => p.key.startsWith(METADATA_PREFIX) && p.key !== CRC_KEY);
  if (crc !== contentCrc32(ours, params, layout)) {
    throw new OnnxPolicyError('the metadata or weights do not match their checksum: the file is damaged');
  }
  return { ...meta, params, irVersion: model.ir_version, opsetVersion: opset, producer: model.producer_name ?? '' };
}
