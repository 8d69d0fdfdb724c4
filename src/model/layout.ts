// The parameter layout: ONE flat Float32 buffer holding every tensor of the model, each a named view
// starting at a multiple of 64 floats (256 bytes, WebGPU's minimum storage-buffer offset alignment).
// Gradients and the AdamW moments use the same layout in buffers of their own.
//
// Weight layout of every matrix: row-major [out, in], as llm.c and PyTorch's nn.Linear:
//   out[t, o] = b[o] + sum_i in[t, i] * w[o * in + i]
// The tied output head reads wte [V, d] as that same [out = V, in = d] matrix: logits = lnf(x) @ wte^T.
// The fused QKV projection h{l}.attn.qkv.w is [3d, d]: rows 0..d-1 produce q, d..2d-1 k, 2d..3d-1 v, and
// head h owns rows h*hd .. (h+1)*hd - 1 of each (hd = d / nHead).
//
// Views in buffer order:
//   wte [V, d], wpe [contextLength, d], then for each layer l:
//   h{l}.ln1.w [d], h{l}.ln1.b [d], h{l}.attn.qkv.w [3d, d], h{l}.attn.qkv.b [3d],
//   h{l}.attn.proj.w [d, d], h{l}.attn.proj.b [d], h{l}.ln2.w [d], h{l}.ln2.b [d],
//   h{l}.mlp.fc.w [dMlp, d], h{l}.mlp.fc.b [dMlp], h{l}.mlp.proj.w [d, dMlp], h{l}.mlp.proj.b [d],
//   then lnf.w [d], lnf.b [d].
import type { ModelConfig } from './config.ts';

const VIEW_ALIGN_FLOATS = 64;

interface ParameterView {
  name: string;
  offset: number;
  size: number;
  shape: number[];
  /** AdamW weight decay applies to matrices and embeddings, not to biases or LayerNorm parameters. */
  decay: boolean;
}

export interface ParameterLayout {
  totalFloats: number;
  views: Readonly<Record<string, ParameterView>>;
  /** The same views in buffer order. */
  list: readonly ParameterView[];
}

/** Offsets of one transformer block's views, for the layer loops of the backends. */
export interface BlockOffsets {
  ln1w: number;
  ln1b: number;
  qkvw: number;
  qkvb: number;
  attprojw: number;
  attprojb: number;
  ln2w: number;
  ln2b: number;
  fcw: number;
  fcb: number;
  fcprojw: number;
  fcprojb: number;
}

export interface ModelOffsets {
  wte: number;
  wpe: number;
  blocks: BlockOffsets[];
  lnfw: number;
  lnfb: number;
}

function alignUp(n: number, align = VIEW_ALIGN_FLOATS): number {
  return Math.ceil(n / align) * align;
}

export function blockViewName(layer: number, part: string): string {
  return `h${layer}.${part}`;
}

export function parameterLayout(config: ModelConfig): ParameterLayout {
  const { vocabSize: V, contextLength: C, dModel: d, nLayer: L, dMlp: m } = config;
  const list: ParameterView[] = [];
  let offset = 0;
  const add = (name: string, shape: number[], decay: boolean) => {
    const size = shape.reduce((a, b) => a * b, 1);
    list.push({ name, offset, size, shape, decay });
    offset = alignUp(offset + size);
  };
  add('wte', [V, d], true);
  add('wpe', [C, d], true);
  for (let l = 0; l < L; l++) {
    add(blockViewName(l, 'ln1.w'), [d], false);
    add(blockViewName(l, 'ln1.b'), [d], false);
    add(blockViewName(l, 'attn.qkv.w'), [3 * d, d], true);
    add(blockViewName(l, 'attn.qkv.b'), [3 * d], false);
    add(blockViewName(l, 'attn.proj.w'), [d, d], true);
    add(blockViewName(l, 'attn.proj.b'), [d], false);
    add(blockViewName(l, 'ln2.w'), [d], false);
    add(blockViewName(l, 'ln2.b'), [d], false);
    add(blockViewName(l, 'mlp.fc.w'), [m, d], true);
    add(blockViewName(l, 'mlp.fc.b'), [m], false);
    add(blockViewName(l, 'mlp.proj.w'), [d, m], true);
    add(blockViewName(l, 'mlp.proj.b'), [d], false);
  }
  add('lnf.w', [d], false);
  add('lnf.b', [d], false);
  const views: Record<string, ParameterView> = {};
  for (const v of list) views[v.name] = v;
  return { totalFloats: offset, views, list };
}

/**
 * The layout's length in floats, computed without building its views (parameterLayout makes 12 views per
 * layer): a config read from a file is weighed against the file's size with it before anything is built.
 */
export function layoutFloats(config: ModelConfig): number {
  const { vocabSize: V, contextLength: C, dModel: d, nLayer: L, dMlp: m } = config;
  const a = (n: number) => alignUp(n);
  const block = 6 * a(d) + a(3 * d * d) + a(3 * d) + a(d * d) + a(m * d) + a(m) + a(d * m);
  return a(V * d) + a(C * d) + L * block + 2 * a(d);
}

/** A size declared in a file that the file's bytes cannot hold. */
export class DeclaredSizeError extends RangeError {
  constructor(message: string) {
    super(message);
    this.name = 'DeclaredSizeError';
  }
}

/**
 * The check every reader of a file makes before it allocates for a size the file declares: `declaredBytes`
 * (what `what` needs, by the file's own account) must not exceed `presentBytes` (what the file holds).
 * Throws a DeclaredSizeError saying both; a NaN or infinite declaration is refused too.
 */
export function checkDeclaredSize(what: string, declaredBytes: number, presentBytes: number): void {
  if (!(declaredBytes <= presentBytes)) {
    throw new DeclaredSizeError(`${what} needs ${declaredBytes} bytes, the file holds ${presentBytes}`);
  }
}

/**
 * `config`'s parameter count, after checking that `copies` float32 copies of them (1 for the weights, 3 with
 * AdamW's two moments) fit in `presentBytes`; throws a DeclaredSizeError otherwise.
 */
export function checkParameterBytes(config: ModelConfig, presentBytes: number, copies = 1): number {
  const floats = layoutFloats(config);
  checkDeclaredSize(
    `the model config (${floats} parameters${copies > 1 ? ` x ${copies}` : ''})`,
    4 * floats * copies,
    presentBytes,
  );
  return floats;
}

export function modelOffsets(layout: ParameterLayout, nLayer: number): ModelOffsets {
  const at = (name: string) => {
    const v = layout.views[name];
    if (!v) throw new RangeError(`parameter layout has no view "${name}"`);
    return v.offset;
  };
  const blocks: BlockOffsets[] = [];
  for (let l = 0; l < nLayer; l++) {
    const b = (part: string) => at(blockViewName(l, part));
    blocks.push({
      ln1w: b('ln1.w'),
      ln1b: b('ln1.b'),
      qkvw: b('attn.qkv.w'),
      qkvb: b('attn.qkv.b'),
      attprojw: b('attn.proj.w'),
      attprojb: b('attn.proj.b'),
      ln2w: b('ln2.w'),
      ln2b: b('ln2.b'),
      fcw: b('mlp.fc.w'),
      fcb: b('mlp.fc.b'),
      fcprojw: b('mlp.proj.w'),
      fcprojb: b('mlp.proj.b'),
    });
  }
  return { wte: at('wte'), wpe: at('wpe'), blocks, lnfw: at('lnf.w'), lnfb: at('lnf.b') };
}

/** A view's floats inside a flat buffer (shares memory with it). */
export function viewOf<T extends Float32Array | Float64Array>(buffer: T, view: ParameterView): T {
  return buffer.subarray(view.offset, view.offset + view.size) as T;
}
