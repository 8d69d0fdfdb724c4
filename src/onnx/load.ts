// Reads an .onnx file and tells whether it is a SEED Playground policy: its metadata, its graph (the one the
// exporter writes for the metadata's model config, graph_check.ts), and its weights read back into the flat
// parameter buffer, metadata and weights checked against the file's CRC-32. Any other file, or a damaged
// one, is refused with an OnnxPolicyError saying why; no other error escapes.
import { parameterLayout } from '../model/layout.ts';
import { contentCrc32 } from './checksum.ts';
import { checkPolicyGraph } from './graph_check.ts';
import { checkDeclaredSizes, matchInitializers } from './initializers.ts';
import { CRC_KEY, decodeMetadata, METADATA_PREFIX, OnnxPolicyError, type PolicyMetadata } from './metadata.ts';
import { decodeModel, OPSET_VERSION, tensorFloats, type ModelProto } from './proto.ts';

export interface LoadedPolicy extends PolicyMetadata {
  params: Float32Array;
  irVersion: number;
  opsetVersion: number;
  producer: string;
}

/** The default domain's operator set, under either of its names. */
const DEFAULT_DOMAINS = new Set(['', 'ai.onnx']);

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
  const opsets = model.opset_import.filter((o) => DEFAULT_DOMAINS.has(o.domain ?? '')).map((o) => o.version);
  const opset = opsets.find((v) => v !== OPSET_VERSION) ?? opsets[0] ?? 0;
  if (opset !== OPSET_VERSION)
    throw new OnnxPolicyError(`the model imports opset ${opset}; a policy graph is opset ${OPSET_VERSION}`);

  // Sizes first, with arithmetic alone: the layout and the expected graph are built only for a config
  // whose weights the file holds, so a damaged config can never ask for more than the file itself holds.
  const initializers = graph.initializer ?? [];
  checkDeclaredSizes(meta.config, initializers);
  const layout = parameterLayout(meta.config);
  const tensors = matchInitializers(initializers, layout);
  checkPolicyGraph(model, meta.config, layout);

  const params = new Float32Array(layout.totalFloats);
  layout.list.forEach((view, i) => {
    params.set(tensorFloats(tensors[i]), view.offset);
  });
  const props = model.metadata_props ?? [];
  const crc = props.find((p) => p.key === CRC_KEY)?.value;
  if (crc === undefined) throw new OnnxPolicyError(`metadata "${CRC_KEY}" is missing`);
  const ours = props.filter((p) => p.key?.startsWith(METADATA_PREFIX) && p.key !== CRC_KEY);
  if (crc !== contentCrc32(ours, params, layout)) {
    throw new OnnxPolicyError('the metadata or weights do not match their checksum: the file is damaged');
  }
  return { ...meta, params, irVersion: model.ir_version, opsetVersion: opset, producer: model.producer_name ?? '' };
}
