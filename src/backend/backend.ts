// The compute interface that the trainer talks to. The CPU reference (backend/cpu) and the WebGPU backend
// (backend/webgpu) both implement it, so src/rl never knows which one it runs on.
//
// Conventions:
// - A batch is nSeq token sequences padded to seqLen. Position t of sequence s predicts targets[s*seqLen+t]
//   from tokens[s*seqLen .. s*seqLen+t]; targets = -1 marks positions that are not scored.
// - Every scored position carries an allowed-token bitmask (maskWords = ceil(vocab/32) u32 words, bit v of
//   word v>>5 set when token v is allowed). Log-probabilities are those of the masked softmax, exactly what
//   constrained decoding sampled from. Free decoding stores an all-ones mask.
// - Per scored position the order of per-token arrays (log-probs, loss inputs, outputs) is row-major over
//   (s, t) restricted to targets >= 0.
import type { ModelConfig } from '../model/config.ts';

export interface TokenBatch {
  nSeq: number;
  seqLen: number;
  /** [nSeq * seqLen] input token ids (padding: any valid id; it is never scored). */
  tokens: Int32Array;
  /** [nSeq * seqLen] token predicted at each position, or -1 where the position is not scored. */
  targets: Int32Array;
  /** [nScored * maskWords] allowed-token bitmask of each scored position, in scored order. */
  masks: Uint32Array;
}

/** Which parameter set a forward pass uses: the trained weights, or the frozen reference (start of RL). */
export type ParameterSet = 'current' | 'reference';

/** Per scored token, what the SEED loss needs besides the current log-prob (docs/seed-loss.md). */
export interface LossInputs {
  advantage: Float32Array;
  mask: Float32Array;
  opdMask: Float32Array;
  lSkill: Float32Array;
  lOld: Float32Array;
  lRef: Float32Array;
  /**
   * Exact distillation only (LossHyper.distil): the teacher's masked log-probs over the whole vocabulary,
   * [nScored * V] in scored order, computed under the same masks as the student's (MASKED_LOG_PROB where a
   * token is not allowed). Rows of tokens with opd_mask 0 are not read.
   */
  teacher?: Float32Array;
  /** Exact distillation only: a weight per scored token on its divergence (1 when absent). */
  distilWeight?: Float32Array;
}

/**
 * Exact distillation: in place of the paper's one-sample gated term, the OPD term is the full-vocabulary
 * divergence D(p_student || p_teacher) at every scored token under the OPD mask (docs/seed-loss.md):
 * jsdAlpha 0 = the reverse KL, jsdAlpha in (0, 1) = the generalised Jensen-Shannon divergence
 * alpha KL(p || m) + (1 - alpha) KL(q || m), m = alpha p + (1 - alpha) q.
 */
interface DistilHyper {
  jsdAlpha: number;
}

export interface LossHyper {
  lambda: number;
  beta: number;
  clip: number;
  klCoef: number;
  /** false = the seed-nogate ablation: g = 1 for every token. */
  gate: boolean;
  /** Present: exact distillation (inputs.teacher required); absent: the paper's sampled-token term. */
  distil?: DistilHyper;
}

export interface LossTerms {
  L_GRPO: number;
  L_OPD: number;
  KL: number;
  total: number;
}

/** What one loss-backward pass returns: loss terms and, per scored token, the numbers the UI shows. */
export interface LossOutput extends LossTerms {
  lStudent: Float32Array;
  delta: Float32Array;
  gate: Float32Array;
  /** d total / d l_student, and its three parts (coef = grpo + opd + kl). */
  coef: Float32Array;
  coefGrpo: Float32Array;
  coefOpd: Float32Array;
  coefKl: Float32Array;
  /** Per token, the divergence D(p_student || p_teacher) of exact distillation; 0 elsewhere. */
  divergence: Float32Array;
}

export interface OptimizerHyper {
  lr: number;
  beta1: number;
  beta2: number;
  eps: number;
  weightDecay: number;
  /** Global gradient-norm clip; <= 0 disables clipping. */
  gradClip: number;
}

export interface StepStats {
  /** Gradient norm before clipping. */
  gradNorm: number;
  step: number;
}

/** Incremental decoding of many streams in lockstep, each with its own KV cache. */
export interface Decoder {
  readonly nStreams: number;
  /** Extends the KV cache of a stream with tokens (prompt or observation) without sampling. */
  feed(stream: number, tokens: Int32Array): Promise<void>;
  /**
   * Samples one token for each listed stream from its masked, temperature-scaled distribution, appends it
   * to that stream's cache, and returns the tokens with their masked log-probs at temperature 1 (l_old).
   * temperature 0 = greedy. uniforms holds one U[0,1) draw per stream from the caller's Rng, so both
   * backends sample the same tokens from the same distribution.
   */
  sample(streams: Int32Array, masks: Uint32Array, temperature: number, uniforms: Float32Array): Promise<Sampled>;
  /** Tokens held in a stream's cache. */
  length(stream: number): number;
  reset(stream: number): void;
  dispose(): void;
}

export interface Sampled {
  tokens: Int32Array;
  logprobs: Float32Array;
}

export interface Backend {
  readonly kind: 'cpu' | 'webgpu';
  readonly config: ModelConfig;

  /** Copies of the flat parameter buffer (see model/layout.ts). */
  readParameters(set?: ParameterSet): Promise<Float32Array>;
  writeParameters(params: Float32Array): Promise<void>;
  /** Freezes the current parameters as the reference policy (for the KL term). */
  setReferenceFromCurrent(): Promise<void>;
  readOptimizerState(): Promise<{ m: Float32Array; v: Float32Array; step: number }>;
  writeOptimizerState(state: { m: Float32Array; v: Float32Array; step: number }): Promise<void>;

  /** Masked log-prob of every scored target, in scored order; no gradient. */
  score(batch: TokenBatch, set?: ParameterSet): Promise<Float32Array>;
  /** The masked log-probs of every scored position over the whole vocabulary, [nScored * V]; no gradient. */
  scoreRows(batch: TokenBatch, set?: ParameterSet): Promise<Float32Array>;

  /**
   * Forward on the current parameters, the SEED loss and its logit gradient where the logits live, then
   * backward; gradients accumulate until optimizerStep. Refuses (throws NonFiniteError) before touching
   * gradients when a loss term or gradient is not finite.
   */
  lossBackward(batch: TokenBatch, inputs: LossInputs, hyper: LossHyper): Promise<LossOutput>;

  /** A copy of the gradient accumulated since the last optimizer step (the gradient-norm diagnostics read it). */
  readGradients(): Promise<Float32Array>;

  /** Clips the accumulated gradient, applies AdamW, zeroes the gradient. */
  optimizerStep(hyper: OptimizerHyper): Promise<StepStats>;
  zeroGradients(): Promise<void>;

  openDecoder(nStreams: number): Decoder;
  dispose(): void;
}

export class NonFiniteError extends Error {
  constructor(
    readonly term: string,
    readonly where: string,
  ) {
    super(`non-finite ${term} (${where}); the update was skipped and the weights are unchanged`);
    this.name = 'NonFiniteError';
  }
}

export function maskWords(vocabSize: number): number {
  return Math.ceil(vocabSize / 32);
}
