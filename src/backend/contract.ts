// The rules of the Backend interface (backend.ts) that both backends enforce, written once: what a batch,
// a parameter buffer, the optimizer's state and hyperparameters, the loss inputs and a decoder call must
// satisfy, the messages that refuse them, and the checks that refuse a non-finite update. The CPU
// reference and the WebGPU backend call these, so they refuse the same inputs with the same words;
// conformance.test.ts runs the same cases against both.
import type { ModelConfig } from '../model/config.ts';
import type { ParameterLayout } from '../model/layout.ts';
import {
  NonFiniteError,
  maskWords,
  type LossHyper,
  type LossInputs,
  type LossOutput,
  type LossTerms,
  type OptimizerHyper,
  type TokenBatch,
} from './backend.ts';
import { LOSS_SETTING_KEYS, lossSettingProblem } from './loss_settings.ts';

/**
 * Log-probability of a disallowed token on both backends: a large negative FINITE number rather than
 * -Infinity, because WGSL lets an implementation assume that no infinity occurs, and a finite value keeps
 * p = exp(logp) = 0 and p * logp = 0 free of NaN. Exact in float32; shaders/prelude.wgsl holds its twin.
 */
export const MASKED_LOG_PROB = -1e30;

/** Bit `token` of mask row `row` (maskWords u32 words per row): is the token allowed there? */
export function isAllowed(masks: Uint32Array, row: number, maskWords: number, token: number): boolean {
  return ((masks[row * maskWords + (token >>> 5)] >>> (token & 31)) & 1) === 1;
}

export function allowToken(masks: Uint32Array, row: number, maskWords: number, token: number): void {
  masks[row * maskWords + (token >>> 5)] |= 1 << (token & 31);
}

/** Index of the first non-finite value, or -1. */
export function firstNonFiniteIndex(a: Float32Array | Float64Array): number {
  for (let i = 0; i < a.length; i++) if (!Number.isFinite(a[i])) return i;
  return -1;
}

/** Checks a batch against the model; returns its number of scored positions. */
export function checkBatch(batch: TokenBatch, config: ModelConfig): number {
  const { nSeq, seqLen, tokens, targets, masks } = batch;
  const V = config.vocabSize;
  if (!Number.isInteger(nSeq) || !Number.isInteger(seqLen) || nSeq < 0 || seqLen < 0)
    throw new RangeError(`batch: bad shape ${nSeq} x ${seqLen}`);
  if (seqLen > config.contextLength)
    throw new RangeError(`batch: sequences of ${seqLen} tokens exceed the context length ${config.contextLength}`);
  if (tokens.length !== nSeq * seqLen || targets.length !== nSeq * seqLen) {
    throw new RangeError(
      `batch: tokens (${tokens.length}) and targets (${targets.length}) must hold nSeq * seqLen = ${nSeq * seqLen}`,
    );
  }
  const words = maskWords(V);
  let nScored = 0;
  for (let i = 0; i < targets.length; i++) if (targets[i] >= 0) nScored++;
  if (masks.length !== nScored * words)
    throw new RangeError(`batch: masks hold ${masks.length} words, expected ${nScored} scored x ${words}`);
  let scored = 0;
  for (let s = 0; s < nSeq; s++) {
    for (let t = 0; t < seqLen; t++) {
      const tok = tokens[s * seqLen + t];
      if (!(tok >= 0 && tok < V))
        throw new RangeError(`batch: token ${tok} at sequence ${s}, position ${t} is outside [0, ${V})`);
      const target = targets[s * seqLen + t];
      if (target < 0) continue;
      if (!(target < V))
        throw new RangeError(`batch: target ${target} at sequence ${s}, position ${t} is outside [0, ${V})`);
      if (!isAllowed(masks, scored, words, target))
        throw new RangeError(`batch: target ${target} at sequence ${s}, position ${t} is not allowed by its mask`);
      scored++;
    }
  }
  return nScored;
}

/** "scored token k: sequence s, position t of seqLen": where a batch's k-th scored position is. */
export function describeScored(batch: TokenBatch, k: number): string {
  let seen = 0;
  for (let i = 0; i < batch.targets.length; i++) {
    if (batch.targets[i] < 0) continue;
    if (seen++ === k)
      return `scored token ${k}: sequence ${Math.floor(i / batch.seqLen)}, position ${i % batch.seqLen} of ${batch.seqLen}`;
  }
  return `scored token ${k}`;
}

/** "parameter name[i]": the named view (model/layout.ts) that holds flat index `index`. */
export function describeParameter(layout: ParameterLayout, index: number): string {
  for (const view of layout.list) {
    if (index >= view.offset && index < view.offset + view.size)
      return `parameter ${view.name}[${index - view.offset}]`;
  }
  return `parameter buffer index ${index}`;
}

/** A flat parameter-layout buffer handed in (parameters, optimizer moments): n finite float32 values. */
export function checkParameterBuffer(buf: Float32Array, n: number, what: string): void {
  if (!(buf instanceof Float32Array)) throw new TypeError(`${what} must be a Float32Array`);
  if (buf.length !== n) throw new RangeError(`${what} hold ${buf.length} floats, the model needs ${n}`);
  const bad = firstNonFiniteIndex(buf);
  if (bad >= 0) throw new RangeError(`${what}[${bad}] = ${buf[bad]} is not finite`);
}

export function checkOptimizerState(state: { m: Float32Array; v: Float32Array; step: number }, n: number): void {
  checkParameterBuffer(state.m, n, 'optimizer m');
  checkParameterBuffer(state.v, n, 'optimizer v');
  if (!Number.isInteger(state.step) || state.step < 0)
    throw new RangeError(`optimizer step must be an integer >= 0, got ${state.step}`);
  for (let i = 0; i < state.v.length; i++) {
    if (state.v[i] < 0) throw new RangeError(`optimizer v[${i}] = ${state.v[i]} is negative`);
  }
}

export function checkOptimizerHyper(h: OptimizerHyper): void {
  for (const key of ['lr', 'beta1', 'beta2', 'eps', 'weightDecay', 'gradClip'] as const) {
    if (!Number.isFinite(h[key])) throw new RangeError(`optimizer: ${key} must be a finite number, got ${h[key]}`);
  }
  if (h.lr < 0 || h.eps <= 0 || h.weightDecay < 0)
    throw new RangeError('optimizer: lr and weightDecay must be >= 0, eps > 0');
  if (!(h.beta1 >= 0 && h.beta1 < 1 && h.beta2 >= 0 && h.beta2 < 1))
    throw new RangeError('optimizer: beta1 and beta2 must be in [0, 1)');
}

/** The loss settings are in their ranges (loss_settings.ts): refused with the words of `--set`. */
export function checkLossHyper(hyper: LossHyper): void {
  for (const key of LOSS_SETTING_KEYS) {
    const problem = lossSettingProblem(key, hyper[key]);
    if (problem) throw new RangeError(problem);
  }
}

/** Every per-token loss input holds one value per scored token (the teacher's rows: checkDistilInputs). */

export function checkLossInputs(inputs: LossInputs, n: number): void {
  for (const [name, arr] of Object.entries(inputs) as [string, Float32Array | undefined][]) {
    if (name === 'teacher' || arr === undefined) continue;
    if (arr.length !== n) throw new RangeError(`loss input ${name} has ${arr.length} tokens, l_student has ${n}`);
  }
}

/** Exact distillation needs the teacher's rows, [n * vocab]; the paper's term takes none. */
export function checkDistilInputs(inputs: LossInputs, hyper: LossHyper, n: number, vocab: number): void {
  if (!hyper.distil) return;
  const { jsdAlpha } = hyper.distil;
  if (!(jsdAlpha >= 0 && jsdAlpha < 1)) throw new RangeError(`loss: jsdAlpha must be in [0, 1), got ${jsdAlpha}`);
  if (!inputs.teacher) throw new RangeError("loss: exact distillation needs the teacher's log-probs (inputs.teacher)");
  if (inputs.teacher.length !== n * vocab)
    throw new RangeError(`loss input teacher has ${inputs.teacher.length} floats, expected ${n} tokens x ${vocab}`);
}

export function allocateLossOutput(nTokens: number): LossOutput {
  return {
    L_GRPO: 0,
    L_OPD: 0,
    KL: 0,
    total: 0,
    lStudent: new Float32Array(nTokens),
    delta: new Float32Array(nTokens),
    gate: new Float32Array(nTokens),
    coef: new Float32Array(nTokens),
    coefGrpo: new Float32Array(nTokens),
    coefOpd: new Float32Array(nTokens),
    coefKl: new Float32Array(nTokens),
    divergence: new Float32Array(nTokens),
  };
}

/** 1 / N and 1 / N_opd of a batch: float64 sums of the 0/1 masks, 0 for an empty mask (its mean is then 0). */
export interface LossCounts {
  invN: number;
  invNOpd: number;
}

function inverseCount(mask: Float32Array): number {
  let n = 0;
  for (let k = 0; k < mask.length; k++) n += mask[k];
  return n > 0 ? 1 / n : 0;
}

export function lossCounts(inputs: LossInputs): LossCounts {
  return { invN: inverseCount(inputs.mask), invNOpd: inverseCount(inputs.opdMask) };
}

/** The loss terms from the per-token sums of the GRPO, OPD and KL terms (docs/seed-loss.md). */
export function setLossTerms(
  out: LossTerms,
  sums: { grpo: number; opd: number; kl: number },
  counts: LossCounts,
  hyper: LossHyper,
): void {
  out.L_GRPO = sums.grpo * counts.invN;
  out.L_OPD = sums.opd * counts.invNOpd;
  out.KL = sums.kl * counts.invN;
  out.total = out.L_GRPO + hyper.lambda * out.L_OPD + hyper.klCoef * out.KL;
}

/**
 * The first loss term or per-token coefficient that is not finite, as [term, where], or null when all are.
 * A backend refuses the update (NonFiniteError) when this is not null.
 */
export function firstNonFinite(out: LossOutput): [string, string] | null {
  for (const term of ['L_GRPO', 'L_OPD', 'KL', 'total'] as (keyof LossTerms)[]) {
    if (!Number.isFinite(out[term])) return [term, `value ${out[term]}`];
  }
  for (let k = 0; k < out.coef.length; k++) {
    if (!Number.isFinite(out.coef[k])) return ['coef', `token ${k}`];
  }
  return null;
}

/** The loss term that each per-token input enters first, in the order the terms are checked. */
const TERM_OF_INPUT: [keyof LossTerms, (keyof LossInputs)[]][] = [
  ['L_GRPO', ['advantage', 'mask', 'lOld']],
  ['L_OPD', ['opdMask', 'lSkill', 'distilWeight', 'teacher']],
  ['KL', ['lRef']],
];

/**
 * Refuses (NonFiniteError) non-finite loss inputs before any arithmetic sees them: WGSL may assume that
 * no NaN or infinity occurs, so a GPU cannot be trusted to carry one into the loss. Names the first term
 * (L_GRPO, L_OPD, KL) that one enters, with the value that poisons it.
 */
export function refuseNonFiniteInputs(inputs: LossInputs): void {
  for (const [term, names] of TERM_OF_INPUT) {
    for (const name of names) {
      const values = inputs[name];
      if (values === undefined) continue;
      const bad = firstNonFiniteIndex(values);
      if (bad >= 0) throw new NonFiniteError(term, `value ${values[bad]}`);
    }
  }
}

/** Refuses (NonFiniteError) a non-finite l_student, naming its position in the batch. */
export function refuseNonFiniteLogProbs(batch: TokenBatch, lStudent: Float32Array): void {
  const bad = firstNonFiniteIndex(lStudent);
  if (bad >= 0) throw new NonFiniteError('l_student', describeScored(batch, bad));
}

/** Refuses (NonFiniteError) a non-finite loss term or coefficient. */
export function refuseNonFiniteLoss(out: LossOutput): void {
  const bad = firstNonFinite(out);
  if (bad) throw new NonFiniteError(bad[0], bad[1]);
}

// Decoder calls. A stream's length counts every token given to it, fed or sampled.

export function checkStreamCount(nStreams: number): void {
  if (!Number.isInteger(nStreams) || nStreams < 1)
    throw new RangeError(`decoder needs at least one stream, got ${nStreams}`);
}

export function checkStream(index: number, nStreams: number, disposed: boolean): void {
  if (disposed) throw new Error('decoder was disposed');
  if (!Number.isInteger(index) || index < 0 || index >= nStreams)
    throw new RangeError(`stream ${index} is outside [0, ${nStreams})`);
}

/** feed(stream, tokens) on a stream that holds `length` tokens. */
export function checkFeed(config: ModelConfig, stream: number, length: number, tokens: Int32Array): void {
  const { vocabSize: V, contextLength } = config;
  if (length + tokens.length > contextLength) {
    throw new RangeError(
      `stream ${stream}: ${length} + ${tokens.length} tokens exceed the context length ${contextLength}`,
    );
  }
  for (let i = 0; i < tokens.length; i++) {
    if (!(tokens[i] >= 0 && tokens[i] < V))
      throw new RangeError(`stream ${stream}: token ${tokens[i]} is outside [0, ${V})`);
  }
}

export function checkTemperature(temperature: number): void {
  if (!(temperature >= 0) || !Number.isFinite(temperature))
    throw new RangeError(`temperature must be >= 0, got ${temperature}`);
}

export function checkDraw(u: number): void {
  if (!(u >= 0 && u < 1)) throw new RangeError(`uniform draw must be in [0, 1), got ${u}`);
}

/** A mask row must allow a token below the vocabulary size (bits at or past it do not count). */
export function checkAnyAllowed(masks: Uint32Array, row: number, vocab: number): void {
  const words = maskWords(vocab);
  for (let v = 0; v < vocab; v++) if (isAllowed(masks, row, words, v)) return;
  throw new RangeError('cannot sample: the mask allows no token');
}

/** sample(streams, masks, temperature, uniforms); `length(s)` is stream s's length (after checkStream). */
export function checkSample(
  config: ModelConfig,
  streams: Int32Array,
  masks: Uint32Array,
  temperature: number,
  uniforms: Float32Array,
  check: (stream: number) => void,
  length: (stream: number) => number,
): void {
  const words = maskWords(config.vocabSize);
  const S = streams.length;
  if (masks.length < S * words) throw new RangeError(`sample: masks hold ${masks.length} words, need ${S * words}`);
  if (uniforms.length < S) throw new RangeError(`sample: ${uniforms.length} uniforms for ${S} streams`);
  checkTemperature(temperature);
  const seen = new Set<number>();
  for (let i = 0; i < S; i++) {
    const s = streams[i];
    check(s);
    if (seen.has(s)) throw new RangeError(`sample: stream ${s} is listed twice`);
    seen.add(s);
    if (length(s) === 0) throw new RangeError(`sample: stream ${s} is empty; feed it a prompt first`);
    if (length(s) >= config.contextLength)
      throw new RangeError(`sample: stream ${s} is at the context length ${config.contextLength}`);
    checkDraw(uniforms[i]);
    checkAnyAllowed(masks, i, config.vocabSize);
  }
}
