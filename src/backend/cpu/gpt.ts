// The GPT decoder on the CPU, llm.c style: one forward that keeps every activation of a sequence, one
// backward that walks the layers in reverse and accumulates into a gradient buffer of the same layout.
// Sequences are processed one at a time (batch = 1, length T): causal attention makes the positions after
// the last scored one irrelevant, so a padded batch never pays for its padding.
//
// The output head is tied to the token embedding (logits = lnf(x) @ wte^T) and runs only on the rows
// whose logits are needed: scored positions in training, the last position in decoding.
import type { ModelConfig } from '../../model/config.ts';
import { attentionBackward, attentionForward } from './attention.ts';
import { encoderBackward, encoderForward } from './encoder.ts';
import type { Floats } from './floats.ts';
import { geluBackward, geluForward } from './gelu.ts';
import { layernormBackward, layernormForward } from './layernorm.ts';
import { matmulBackward, matmulForward } from './matmul.ts';
import { residualBackward, residualForward } from './residual.ts';
import type { ModelWeights } from './weights.ts';

interface LayerActivations<F extends Floats> {
  ln1: F;
  ln1Mean: F;
  ln1Rstd: F;
  qkv: F;
  atty: F;
  att: F;
  attproj: F;
  residual2: F;
  ln2: F;
  ln2Mean: F;
  ln2Rstd: F;
  fch: F;
  fchGelu: F;
  fcproj: F;
  residual3: F;
}

export interface Activations<F extends Floats> {
  T: number;
  encoded: F;
  layers: LayerActivations<F>[];
  lnf: F;
  lnfMean: F;
  lnfRstd: F;
}

/** Floats needed by the activations of one sequence of length T. */
export function activationFloats(config: ModelConfig, T: number): number {
  const { dModel: C, dMlp: M, nHead: NH, nLayer: L } = config;
  const perLayer = T * (10 * C + 2 * M + 4) + NH * T * T;
  return T * C + L * perLayer + T * C + 2 * T;
}

/** Carves the activations of a length-T sequence out of `block` (at least activationFloats long). */
export function carveActivations<F extends Floats>(block: F, config: ModelConfig, T: number): Activations<F> {
  const { dModel: C, dMlp: M, nHead: NH, nLayer: L } = config;
  if (block.length < activationFloats(config, T)) throw new RangeError('activation block too small');
  let at = 0;
  const take = (n: number): F => {
    const v = block.subarray(at, at + n) as F;
    at += n;
    return v;
  };
  const encoded = take(T * C);
  const layers: LayerActivations<F>[] = [];
  for (let l = 0; l < L; l++) {
    layers.push({
      ln1: take(T * C),
      ln1Mean: take(T),
      ln1Rstd: take(T),
      qkv: take(3 * T * C),
      atty: take(T * C),
      att: take(NH * T * T),
      attproj: take(T * C),
      residual2: take(T * C),
      ln2: take(T * C),
      ln2Mean: take(T),
      ln2Rstd: take(T),
      fch: take(T * M),
      fchGelu: take(T * M),
      fcproj: take(T * C),
      residual3: take(T * C),
    });
  }
  return { T, encoded, layers, lnf: take(T * C), lnfMean: take(T), lnfRstd: take(T) };
}

export function allocActivations<F extends Floats>(
  ctor: { new (n: number): F },
  config: ModelConfig,
  T: number,
): Activations<F> {
  return carveActivations(new ctor(activationFloats(config, T)), config, T);
}

/** Runs tokens[0 .. acts.T) through the model up to the final LayerNorm (acts.lnf). */
export function gptForward<F extends Floats>(
  acts: Activations<F>,
  w: ModelWeights<F>,
  config: ModelConfig,
  tokens: Int32Array,
): void {
  const { dModel: C, dMlp: M, nHead: NH, lnEps: eps } = config;
  const T = acts.T;
  encoderForward(acts.encoded, tokens, w.wte, w.wpe, T, C);
  let residual = acts.encoded;
  for (let l = 0; l < config.nLayer; l++) {
    const a = acts.layers[l];
    const b = w.blocks[l];
    layernormForward(a.ln1, a.ln1Mean, a.ln1Rstd, residual, b.ln1w, b.ln1b, T, C, eps);
    matmulForward(a.qkv, a.ln1, b.qkvw, b.qkvb, T, C, 3 * C);
    attentionForward(a.atty, a.att, a.qkv, 0, T, C, NH);
    matmulForward(a.attproj, a.atty, b.attprojw, b.attprojb, T, C, C);
    residualForward(a.residual2, residual, a.attproj, T * C);
    layernormForward(a.ln2, a.ln2Mean, a.ln2Rstd, a.residual2, b.ln2w, b.ln2b, T, C, eps);
    matmulForward(a.fch, a.ln2, b.fcw, b.fcb, T, C, M);
    geluForward(a.fchGelu, a.fch, T * M);
    matmulForward(a.fcproj, a.fchGelu, b.fcprojw, b.fcprojb, T, M, C);
    residualForward(a.residual3, a.residual2, a.fcproj, T * C);
    residual = a.residual3;
  }
  layernormForward(acts.lnf, acts.lnfMean, acts.lnfRstd, residual, w.lnfw, w.lnfb, T, C, eps);
}

/**
 * Tied output head on selected rows: logits[r, v] = lnf[rows[r]] . wte[v]. `gathered` is scratch of at
 * least rows.length * C floats.
 */
export function headForward<F extends Floats>(
  logits: F,
  gathered: F,
  lnf: F,
  rows: Int32Array,
  wte: F,
  V: number,
  C: number,
): void {
  gatherRows(gathered, lnf, rows, C);
  matmulForward(logits, gathered, wte, null, rows.length, C, V);
}

/** Accumulates dwte and dlnf[rows[r]] from dlogits [rows.length, V]; `gathered` holds headForward's rows. */
export function headBackward<F extends Floats>(
  dlnf: F,
  dwte: F,
  dlogits: F,
  gathered: F,
  rows: Int32Array,
  wte: F,
  V: number,
  C: number,
  scratch: F,
): void {
  const R = rows.length;
  scratch.fill(0, 0, R * C);
  matmulBackward(scratch, dwte, null, dlogits, gathered, wte, R, C, V);
  for (let r = 0; r < R; r++) {
    const src = r * C;
    const dst = rows[r] * C;
    for (let c = 0; c < C; c++) dlnf[dst + c] += scratch[src + c];
  }
}

export function gatherRows<F extends Floats>(out: F, x: F, rows: Int32Array, C: number): void {
  for (let r = 0; r < rows.length; r++) out.set(x.subarray(rows[r] * C, rows[r] * C + C), r * C);
}

/** Scratch buffers of the backward pass, for sequences up to length T. */
export interface BackwardScratch<F extends Floats> {
  dresidual: F;
  dresidual2: F;
  dbranch: F;
  dln: F;
  datty: F;
  dqkv: F;
  dfch: F;
  dfchGelu: F;
}

export function allocBackwardScratch<F extends Floats>(
  alloc: (n: number) => F,
  config: ModelConfig,
  T: number,
): BackwardScratch<F> {
  const { dModel: C, dMlp: M } = config;
  return {
    dresidual: alloc(T * C),
    dresidual2: alloc(T * C),
    dbranch: alloc(T * C),
    dln: alloc(T * C),
    datty: alloc(T * C),
    dqkv: alloc(3 * T * C),
    dfch: alloc(T * M),
    dfchGelu: alloc(T * M),
  };
}

/**
 * Backward from dlnf (d loss / d final LayerNorm output, [T, C]) to every parameter, accumulating into
 * g. The scratch must hold at least acts.T rows.
 */
export function gptBackward<F extends Floats>(
  g: ModelWeights<F>,
  w: ModelWeights<F>,
  acts: Activations<F>,
  dlnf: F,
  config: ModelConfig,
  tokens: Int32Array,
  s: BackwardScratch<F>,
): void {
  const { dModel: C, dMlp: M, nHead: NH, nLayer: L } = config;
  const T = acts.T;
  const TC = T * C;
  let dres = s.dresidual.subarray(0, TC) as F;
  let dresIn = s.dresidual2.subarray(0, TC) as F;
  const dbranch = s.dbranch.subarray(0, TC) as F;
  const dln = s.dln.subarray(0, TC) as F;
  const datty = s.datty.subarray(0, TC) as F;
  const dqkv = s.dqkv.subarray(0, 3 * TC) as F;
  const dfch = s.dfch.subarray(0, T * M) as F;
  const dfchGelu = s.dfchGelu.subarray(0, T * M) as F;

  const last = L > 0 ? acts.layers[L - 1].residual3 : acts.encoded;
  dres.fill(0);
  layernormBackward(dres, g.lnfw, g.lnfb, dlnf, last, w.lnfw, acts.lnfMean, acts.lnfRstd, T, C);
  for (let l = L - 1; l >= 0; l--) {
    const a = acts.layers[l];
    const b = w.blocks[l];
    const gb = g.blocks[l];
    const residual = l === 0 ? acts.encoded : acts.layers[l - 1].residual3;
    // residual3 = residual2 + fcproj
    dresIn.fill(0);
    dbranch.fill(0);
    residualBackward(dresIn, dbranch, dres, TC);
    dfchGelu.fill(0);
    matmulBackward(dfchGelu, gb.fcprojw, gb.fcprojb, dbranch, a.fchGelu, b.fcprojw, T, M, C);
    dfch.fill(0);
    geluBackward(dfch, a.fch, dfchGelu, T * M);
    dln.fill(0);
    matmulBackward(dln, gb.fcw, gb.fcb, dfch, a.ln2, b.fcw, T, C, M);
    layernormBackward(dresIn, gb.ln2w, gb.ln2b, dln, a.residual2, b.ln2w, a.ln2Mean, a.ln2Rstd, T, C);
    // residual2 = residual + attproj
    [dres, dresIn] = [dresIn, dres];
    dresIn.fill(0);
    dbranch.fill(0);
    residualBackward(dresIn, dbranch, dres, TC);
    datty.fill(0);
    matmulBackward(datty, gb.attprojw, gb.attprojb, dbranch, a.atty, b.attprojw, T, C, C);
    dqkv.fill(0);
    attentionBackward(dqkv, datty, a.qkv, a.att, T, C, NH);
    dln.fill(0);
    matmulBackward(dln, gb.qkvw, gb.qkvb, dqkv, a.ln1, b.qkvw, T, C, 3 * C);
    layernormBackward(dresIn, gb.ln1w, gb.ln1b, dln, residual, b.ln1w, a.ln1Mean, a.ln1Rstd, T, C);
    [dres, dresIn] = [dresIn, dres];
  }
  encoderBackward(g.wte, g.wpe, dres, tokens, T, C);
}
