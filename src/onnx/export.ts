// Export of the policy as a self-describing ONNX model: the graph of policy_graph.ts, the weights as
// initializers, and the config, vocabulary, training card and a content checksum in metadata_props.
import { parameterLayout } from '../model/layout.ts';
import { contentCrc32 } from './checksum.ts';
import { CRC_KEY, encodeMetadata, OnnxPolicyError, type PolicyMetadata } from './metadata.ts';
import { buildPolicyGraph } from './policy_graph.ts';
import { encodeModel, IR_VERSION, OPSET_VERSION, type ModelProto } from './proto.ts';

const PRODUCER_NAME = 'seed-playground';
const PRODUCER_VERSION = '1';

export interface PolicyExport extends PolicyMetadata {
  /** The flat parameter buffer (model/layout.ts) of `config`. */
  params: Float32Array;
}

export function policyModelProto(policy: PolicyExport): ModelProto {
  const layout = parameterLayout(policy.config);
  for (const view of layout.list) {
    for (let i = view.offset; i < view.offset + view.size; i++) {
      if (!Number.isFinite(policy.params[i])) {
        throw new OnnxPolicyError(
          `parameter ${view.name}[${i - view.offset}] is ${policy.params[i]}; refusing to export non-finite weights`,
        );
      }
    }
  }
  const metadata = encodeMetadata(policy);
  return {
    ir_version: IR_VERSION,
    opset_import: [{ domain: '', version: OPSET_VERSION }],
    producer_name: PRODUCER_NAME,
    producer_version: PRODUCER_VERSION,
    doc_string: `SEED Playground policy (${policy.card.algorithm}, ${policy.card.updates} updates): input_ids int64 [batch, sequence] -> logits float32 [batch, sequence, ${policy.config.vocabSize}]`,
    graph: buildPolicyGraph(policy.config, policy.params, layout),
    metadata_props: [...metadata, { key: CRC_KEY, value: contentCrc32(metadata, policy.params, layout) }],
  };
}

/** The .onnx file's bytes. */
export function exportPolicyOnnx(policy: PolicyExport): Uint8Array {
  return encodeModel(policyModelProto(policy));
}
