// The weights of a file read as a policy, checked before anything is built or allocated for them: the
// sizes the file's model config declares (layers, widths, vocabulary, context) are weighed against the
// initializers present first, with arithmetic alone, so a small file whose metadata declares a huge model is
// refused at once; only then is the parameter layout built and each initializer matched to its view.
import type { ModelConfig } from '../model/config.ts';
import type { ParameterLayout } from '../model/layout.ts';
import { OnnxPolicyError } from './metadata.ts';
import { DataType, type TensorProto } from './proto.ts';

/** Weight tensors outside the blocks (wte, wpe, lnf.w, lnf.b) and in each block (model/layout.ts). */
const TENSORS_OUTSIDE_BLOCKS = 4;
const TENSORS_PER_BLOCK = 12;

/** How many weight tensors and float32 values a config's layout has, computed without building it. */
export function declaredWeights(config: ModelConfig): { tensors: number; values: number } {
  const { vocabSize: V, contextLength: C, dModel: d, nLayer: L, dMlp: m } = config;
  // Per block: two LayerNorms (4d), qkv (3d^2 + 3d), attention projection (d^2 + d), MLP (2md + m + d).
  const block = 4 * d * d + 2 * m * d + 9 * d + m;
  return { tensors: TENSORS_OUTSIDE_BLOCKS + TENSORS_PER_BLOCK * L, values: V * d + C * d + L * block + 2 * d };
}

/** The float32 values a tensor's storage holds, whatever its declared shape (0 for other storages). */
function heldValues(tensor: TensorProto): number {
  if (tensor.raw_data !== undefined) return tensor.raw_data.length / 4;
  return tensor.float_data?.length ?? 0;
}

/** Refuses a config whose weights the file's initializers cannot hold, before any layout is built. */
export function checkDeclaredSizes(config: ModelConfig, initializers: readonly TensorProto[]): void {
  const declared = declaredWeights(config);
  if (initializers.length !== declared.tensors) {
    throw new OnnxPolicyError(
      `the model config declares ${config.nLayer} layers, i.e. ${declared.tensors} weight tensors, but the file holds ${initializers.length} initializers`,
    );
  }
  const held = initializers.reduce((sum, t) => sum + heldValues(t), 0);
  if (held !== declared.values) {
    throw new OnnxPolicyError(
      `the model config declares ${declared.values} weights, but the file's initializers hold ${held}`,
    );
  }
}

/** Fields a weight tensor may carry: one storage of float32 values, raw or listed, and nothing else. */
const WEIGHT_FIELDS = new Set(['name', 'dims', 'data_type', 'raw_data', 'float_data', 'doc_string']);

/**
 * The file's initializer for each view of the layout, in layout order, each checked for name, data type,
 * shape and size (checkDeclaredSizes has already matched their number).
 */
export function matchInitializers(initializers: readonly TensorProto[], layout: ParameterLayout): TensorProto[] {
  const byName = new Map<string, TensorProto>();
  for (const t of initializers) {
    if (t.name !== undefined && byName.has(t.name))
      throw new OnnxPolicyError(`initializer ${JSON.stringify(t.name)} is defined twice`);
    if (t.name !== undefined) byName.set(t.name, t);
  }
  return layout.list.map((view) => {
    const tensor = byName.get(view.name);
    if (!tensor) throw new OnnxPolicyError(`the model has no initializer "${view.name}"`);
    if (tensor.data_type !== DataType.FLOAT)
      throw new OnnxPolicyError(`initializer "${view.name}" has data type ${tensor.data_type}, not float32`);
    const dims = tensor.dims ?? [];
    if (dims.length !== view.shape.length || dims.some((d, i) => d !== view.shape[i])) {
      throw new OnnxPolicyError(`initializer "${view.name}" has shape [${dims}], the config needs [${view.shape}]`);
    }
    const fields = Object.keys(tensor).filter((k) => isPresent((tensor as Record<string, unknown>)[k]));
    const other = fields.find((k) => !WEIGHT_FIELDS.has(k));
    if (other !== undefined)
      throw new OnnxPolicyError(
        `initializer "${view.name}" sets ${other}; a weight holds its values in raw_data or float_data alone`,
      );
    if (fields.includes('raw_data') && fields.includes('float_data')) {
      throw new OnnxPolicyError(`initializer "${view.name}" holds values in both raw_data and float_data`);
    }
    const held = heldValues(tensor);
    if (held !== view.size)
      throw new OnnxPolicyError(`initializer "${view.name}" holds ${held} values, its shape needs ${view.size}`);
    return tensor;
  });
}

/** Whether a decoded field is set: protobufjs gives unset repeated fields as empty arrays. */
export function isPresent(value: unknown): boolean {
  return value !== undefined && value !== null && !(Array.isArray(value) && value.length === 0);
}
