// The policy as an ONNX graph (opset 17), layer for layer the forward of the CPU reference, with the same
// layer names: encoderForward, layernormForward, matmulForward, attentionForward, geluForward,
// residualForward and the tied output head.
//
//   input_ids int64 [batch, sequence]  ->  logits float32 [batch, sequence, vocab]
//
// Every initializer is one view of the flat parameter buffer under its layout name (model/layout.ts), with
// the layout's shape and row-major [out, in] order, so a file can be read back into the same buffer. The
// matrices enter MatMul through Transpose nodes, which ONNX runtimes fold into constants when they load.
import { headDim, type ModelConfig } from '../model/config.ts';
import { blockViewName, parameterLayout, viewOf, type ParameterLayout } from '../model/layout.ts';
import { attr, GraphBuilder } from './graph_builder.ts';
import { DataType, floatRawData, type GraphProto, type ValueInfoProto } from './proto.ts';

export const INPUT_NAME = 'input_ids';
export const OUTPUT_NAME = 'logits';
const BATCH_DIM = 'batch';
const SEQUENCE_DIM = 'sequence';

/** sqrt(2 / pi), the constant of GELU's tanh form. */
const GELU_SCALING_FACTOR = Math.sqrt(2 / Math.PI);

/** Values every layer shares: the position indices and the causal mask of this sequence length. */
interface SequenceValues {
  positions: string;
  /** bool [T, T], true where key position > query position (the future, masked out). */
  future: string;
}

export function buildPolicyGraph(
  config: ModelConfig,
  params: Float32Array,
  layout: ParameterLayout = parameterLayout(config),
): GraphProto {
  if (params.length !== layout.totalFloats) {
    throw new RangeError(
      `parameter buffer has ${params.length} floats, the layout of this config needs ${layout.totalFloats}`,
    );
  }
  const initializer = layout.list.map((view) => ({
    name: view.name,
    dims: view.shape,
    data_type: DataType.FLOAT,
    raw_data: floatRawData(viewOf(params, view)),
  }));
  return { ...policyGraphStructure(config, layout), initializer };
}

/**
 * The graph without its weights: nodes, input and output. It depends on the config alone, so a loader
 * rebuilds it from a file's metadata and compares it with the file's graph node by node.
 */
export function policyGraphStructure(
  config: ModelConfig,
  layout: ParameterLayout = parameterLayout(config),
): Omit<GraphProto, 'initializer'> {
  const g = new GraphBuilder();
  g.name(INPUT_NAME);
  // The weights' names are taken first, so no node output can be named like one.
  for (const view of layout.list) g.name(view.name);

  const seq = sequenceValues(g);
  let x = encoderForward(g, INPUT_NAME, seq);
  for (let l = 0; l < config.nLayer; l++) x = blockForward(g, config, l, x, seq);
  const xf = layernormForward(g, x, 'lnf', config.lnEps);
  const logits = headForward(g, xf);

  return {
    name: 'seed_policy',
    node: g.nodes,
    input: [tensorInfo(INPUT_NAME, DataType.INT64, [BATCH_DIM, SEQUENCE_DIM])],
    output: [tensorInfo(logits, DataType.FLOAT, [BATCH_DIM, SEQUENCE_DIM, config.vocabSize])],
  };
}

function tensorInfo(name: string, elemType: number, dims: (string | number)[]): ValueInfoProto {
  const dim = dims.map((d) => (typeof d === 'string' ? { dim_param: d } : { dim_value: d }));
  return { name, type: { tensor_type: { elem_type: elemType, shape: { dim } } } };
}

function sequenceValues(g: GraphBuilder): SequenceValues {
  const lengthVec = g.op('Shape', [INPUT_NAME], 'seq_len_vec', [attr.int('start', 1), attr.int('end', 2)]);
  const length = g.op('Squeeze', [lengthVec, g.constInt64('axis0', [0])], 'seq_len');
  const positions = g.op('Range', [g.constInt64('zero', [0], []), length, g.constInt64('one', [1], [])], 'positions');
  const rows = g.op('Unsqueeze', [positions, g.constInt64('axis1', [1])], 'query_pos');
  const cols = g.op('Unsqueeze', [positions, g.constInt64('axis0_cols', [0])], 'key_pos');
  const future = g.op('Greater', [cols, rows], 'causal_future');
  return { positions, future };
}

/** Token embedding plus learned position embedding: wte[token] + wpe[t]. */
function encoderForward(g: GraphBuilder, ids: string, seq: SequenceValues): string {
  const tok = g.op('Gather', ['wte', ids], 'tok_emb', [attr.int('axis', 0)]);
  const pos = g.op('Gather', ['wpe', seq.positions], 'pos_emb', [attr.int('axis', 0)]);
  return g.op('Add', [tok, pos], 'encoded');
}

function blockForward(g: GraphBuilder, config: ModelConfig, l: number, x: string, seq: SequenceValues): string {
  const p = (part: string) => blockViewName(l, part);
  const ln1 = layernormForward(g, x, p('ln1'), config.lnEps);
  const qkv = matmulForward(g, ln1, p('attn.qkv'));
  const att = attentionForward(g, config, qkv, seq, p('attn'));
  const attProj = matmulForward(g, att, p('attn.proj'));
  const res1 = residualForward(g, x, attProj, p('res1'));
  const ln2 = layernormForward(g, res1, p('ln2'), config.lnEps);
  const fc = matmulForward(g, ln2, p('mlp.fc'));
  const gelu = geluForward(g, fc, p('mlp.gelu'));
  const fcProj = matmulForward(g, gelu, p('mlp.proj'));
  return residualForward(g, res1, fcProj, p('res2'));
}

/** LayerNormalization over the last axis with gain `${name}.w` and shift `${name}.b`. */
function layernormForward(g: GraphBuilder, x: string, name: string, eps: number): string {
  return g.op('LayerNormalization', [x, `${name}.w`, `${name}.b`], `${name}.out`, [
    attr.int('axis', -1),
    attr.float('epsilon', eps),
  ]);
}

/** out = x @ w^T + b, with w the row-major [out, in] view `${name}.w`. */
function matmulForward(g: GraphBuilder, x: string, name: string): string {
  const wT = g.op('Transpose', [`${name}.w`], `${name}.wT`, [attr.ints('perm', [1, 0])]);
  const y = g.op('MatMul', [x, wT], `${name}.mm`);
  return g.op('Add', [y, `${name}.b`], `${name}.out`);
}

/**
 * Causal multi-head attention over the fused qkv [B, T, 3d]: per head softmax(q k^T / sqrt(hd)) v with the
 * future masked to -inf, heads concatenated back to [B, T, d].
 */
function attentionForward(
  g: GraphBuilder,
  config: ModelConfig,
  qkv: string,
  seq: SequenceValues,
  name: string,
): string {
  const d = config.dModel;
  const H = config.nHead;
  const hd = headDim(config);
  const [q, k, v] = g.opMulti(
    'Split',
    [qkv, g.constInt64(`${name}.split`, [d, d, d])],
    [`${name}.q`, `${name}.k`, `${name}.v`],
    [attr.int('axis', 2)],
  );
  const headsShape = g.constInt64(`${name}.heads_shape`, [0, 0, H, hd]);
  const heads = (x: string, perm: number[], hint: string) =>
    g.op('Transpose', [g.op('Reshape', [x, headsShape], `${hint}.bthd`)], hint, [attr.ints('perm', perm)]);
  const qh = heads(q, [0, 2, 1, 3], `${name}.qh`); // [B, H, T, hd]
  const kt = heads(k, [0, 2, 3, 1], `${name}.kt`); // [B, H, hd, T]
  const vh = heads(v, [0, 2, 1, 3], `${name}.vh`); // [B, H, T, hd]
  const dots = g.op('MatMul', [qh, kt], `${name}.dots`);
  const scores = g.op('Mul', [dots, g.constFloat(`${name}.scale`, [1 / Math.sqrt(hd)])], `${name}.scores`);
  const masked = g.op('Where', [seq.future, g.constFloat(`${name}.neg_inf`, [-Infinity]), scores], `${name}.masked`);
  const probs = g.op('Softmax', [masked], `${name}.probs`, [attr.int('axis', -1)]);
  const ctx = g.op('MatMul', [probs, vh], `${name}.ctx`); // [B, H, T, hd]
  const merged = g.op('Transpose', [ctx], `${name}.ctx_bthd`, [attr.ints('perm', [0, 2, 1, 3])]);
  return g.op('Reshape', [merged, g.constInt64(`${name}.merge_shape`, [0, 0, d])], `${name}.out`);
}

/** GELU in its tanh form, as llm.c: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))). */
function geluForward(g: GraphBuilder, x: string, name: string): string {
  const cube = g.op(
    'Mul',
    [g.op('Pow', [x, g.constFloat(`${name}.three`, [3])], `${name}.x3`), g.constFloat(`${name}.c`, [0.044715])],
    `${name}.cube`,
  );
  const inner = g.op(
    'Mul',
    [g.op('Add', [x, cube], `${name}.x_plus_cube`), g.constFloat(`${name}.scaling`, [GELU_SCALING_FACTOR])],
    `${name}.inner`,
  );
  const onePlusTanh = g.op(
    'Add',
    [g.op('Tanh', [inner], `${name}.tanh`), g.constFloat(`${name}.one`, [1])],
    `${name}.one_plus_tanh`,
  );
  const halfX = g.op('Mul', [x, g.constFloat(`${name}.half`, [0.5])], `${name}.half_x`);
  return g.op('Mul', [halfX, onePlusTanh], `${name}.out`);
}

function residualForward(g: GraphBuilder, a: string, b: string, name: string): string {
  return g.op('Add', [a, b], name);
}

/** Tied output head: logits = x @ wte^T. */
function headForward(g: GraphBuilder, x: string): string {
  const wteT = g.op('Transpose', ['wte'], 'wte.T', [attr.ints('perm', [1, 0])]);
  return g.op('MatMul', [x, wteT], OUTPUT_NAME);
}
