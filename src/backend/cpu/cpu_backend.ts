// The CPU reference backend: WebAssembly SIMD kernels and TypeScript loops over flat Float32 buffers
// (parameters, reference parameters, gradients and AdamW moments share one layout, model/layout.ts).
//
// lossBackward: forward each sequence -> logits at its scored positions -> masked log-softmax ->
// l_student -> SEED loss and per-token coefficient c (seed_loss.ts) -> dlogits = c (onehot(target) - p)
// over the allowed tokens -> backward through the model into a scratch gradient, which is checked and only
// then added to the accumulated gradient. The loss needs every l_student before any coefficient exists, so
// activations are kept between the two passes up to a memory budget and recomputed beyond it. A second call on
// the same batch with the same weights (loss.ts measures the gradient's OPD part with a pass of its own) skips the
// forward: the kept activations and the log-probs the first call saved are what the forward would write again.
//
// Sequences are spread over threads (threads.ts, sequence_jobs.ts); the decoder spreads its streams. The
// results are the same bits on any number of threads.
//
// The buffers the kernels read (parameters, activations, log-probs, gradient groups) live in the CPU heap
// (heap.ts). Activations go back to it on dispose; the parameter buffers when the backend is collected.
import {
  maskWords,
  NonFiniteError,
  type Backend,
  type Decoder,
  type LossHyper,
  type LossInputs,
  type LossOutput,
  type OptimizerHyper,
  type ParameterSet,
  type StepStats,
  type TokenBatch,
} from '../backend.ts';
import {
  checkBatch,
  checkDistilInputs,
  checkLossInputs,
  lossCounts,
  checkLossHyper,
  checkOptimizerHyper,
  checkOptimizerState,
  checkParameterBuffer,
  describeParameter,
  refuseNonFiniteInputs,
  refuseNonFiniteLogProbs,
  refuseNonFiniteLoss,
} from '../contract.ts';
import { validateConfig, type ModelConfig } from '../../model/config.ts';
import { initParameters } from '../../model/init.ts';
import { parameterLayout, type ParameterLayout } from '../../model/layout.ts';
import { adamwUpdate, clipScale, gradientNorm } from './adamw.ts';
import { CpuDecoder } from './decoder.ts';
import { activationFloats } from './gpt.ts';
import { freeHeapFloats, heapFloats } from './heap.ts';
import { distilDivergence, distilLogitGradient } from './distil.ts';
import { seedLoss } from './seed_loss.ts';
import {
  backwardJob,
  forwardJob,
  gradientGroups,
  reduceJob,
  type ForwardDesc,
  type SliceRef,
} from './sequence_jobs.ts';
import { cpuThreads, parallelFor } from './threads.ts';
import { addIntoF32, firstNonFiniteF32 } from './wasm_kernels.ts';

interface CpuBackendOptions {
  /**
   * Floats of activations kept between the loss passes (default 96M = 384 MB, enough for 64 episodes of
   * 300 tokens of the tiny preset); sequences beyond it are recomputed (one more forward each).
   */
  activationBudget?: number;
  /** Threads (this one included); by default cpuThreads() when the backend is made. */
  threads?: number;
}

/** Floats of the gradient summed per thread item in reduceJob. */
const REDUCE_CHUNK = 1 << 16;

/** Frees a collected backend's parameter buffers (its decoders hold it, so none is still reading them). */
const parameterBuffers = new FinalizationRegistry<Float32Array[]>((buffers) => {
  for (const buf of buffers) freeHeapFloats(buf);
});

export class CpuBackend implements Backend {
  readonly kind = 'cpu' as const;
  readonly layout: ParameterLayout;
  private readonly params: Float32Array;
  private readonly reference: Float32Array;
  private readonly grads: Float32Array;
  private readonly gradScratch: Float32Array;
  private m: Float32Array;
  private v: Float32Array;
  private step = 0;
  private readonly budget: number;
  /** Threads this backend's calls use (this one included). */
  readonly threads: number;
  private readonly keptBlocks: Float32Array[] = [];
  /** Gradient groups 1 .. (group 0 is gradScratch). */
  private readonly groupGrads: Float32Array[] = [];
  /** l_student [nScored], and the log-probs [nScored, V] between the two passes of lossBackward. */
  private scored = heapFloats(0);
  private logp = heapFloats(0);
  /** Exact distillation's logit gradient [nScored, V], added to each row's dlogits in the backward. */
  private distilGrad = heapFloats(0);
  /** Bumped whenever the current parameters change: a kept forward is of the weights of its generation. */
  private generation = 0;
  /** The last lossBackward's forward: its batch, weights and log-probs, which its kept activations belong to. */
  private lastForward: KeptForward | null = null;

  constructor(
    readonly config: ModelConfig,
    params?: Float32Array,
    options: CpuBackendOptions = {},
  ) {
    validateConfig(config);
    this.layout = parameterLayout(config);
    const n = this.layout.totalFloats;
    if (params) checkParameterBuffer(params, n, 'parameters');
    this.params = heapFloats(n);
    if (params) this.params.set(params);
    this.reference = heapFloats(n);
    this.reference.set(this.params);
    this.gradScratch = heapFloats(n);
    this.grads = heapFloats(n);
    parameterBuffers.register(this, [this.params, this.reference, this.gradScratch, this.grads]);
    this.m = new Float32Array(n);
    this.v = new Float32Array(n);
    this.budget = options.activationBudget ?? 96 * 1024 * 1024;
    this.threads = options.threads ?? cpuThreads();
  }

  /** A backend with freshly initialised parameters (model/init.ts). */
  static fromSeed(config: ModelConfig, seed: number, options?: CpuBackendOptions): CpuBackend {
    return new CpuBackend(config, initParameters(config, seed), options);
  }

  async readParameters(set: ParameterSet = 'current'): Promise<Float32Array> {
    return (set === 'reference' ? this.reference : this.params).slice();
  }

  async writeParameters(params: Float32Array): Promise<void> {
    checkParameterBuffer(params, this.layout.totalFloats, 'parameters');
    this.params.set(params);
    this.generation++;
  }

  async setReferenceFromCurrent(): Promise<void> {
    this.reference.set(this.params);
  }

  async readOptimizerState(): Promise<{ m: Float32Array; v: Float32Array; step: number }> {
    return { m: this.m.slice(), v: this.v.slice(), step: this.step };
  }

  async writeOptimizerState(state: { m: Float32Array; v: Float32Array; step: number }): Promise<void> {
    checkOptimizerState(state, this.layout.totalFloats);
    this.m = state.m.slice();
    this.v = state.v.slice();
    this.step = state.step;
  }

  async score(batch: TokenBatch, set: ParameterSet = 'current'): Promise<Float32Array> {
    const slices = this.slice(batch);
    const nScored = countScored(slices);
    this.scored = regrown(this.scored, nScored);
    const params = set === 'reference' ? this.reference : this.params;
    await parallelFor(
      forwardJob,
      this.forwardDesc(
        batch,
        slices,
        params,
        slices.map(() => null),
        null,
      ),
      slices.length,
      this.threads,
    );
    return this.scored.slice(0, nScored);
  }

  async scoreRows(batch: TokenBatch, set: ParameterSet = 'current'): Promise<Float32Array> {
    const slices = this.slice(batch);
    const nScored = countScored(slices);
    const V = this.config.vocabSize;
    this.scored = regrown(this.scored, nScored);
    this.logp = regrown(this.logp, nScored * V);
    const params = set === 'reference' ? this.reference : this.params;
    await parallelFor(
      forwardJob,
      this.forwardDesc(
        batch,
        slices,
        params,
        slices.map(() => null),
        this.logp,
      ),
      slices.length,
      this.threads,
    );
    return this.logp.slice(0, nScored * V);
  }

  async lossBackward(batch: TokenBatch, inputs: LossInputs, hyper: LossHyper): Promise<LossOutput> {
    const slices = this.slice(batch);
    const nScored = countScored(slices);
    const V = this.config.vocabSize;
    checkLossHyper(hyper);
    checkLossInputs(inputs, nScored);
    checkDistilInputs(inputs, hyper, nScored, V);
    refuseNonFiniteInputs(inputs);
    // Pass 1: forward and log-probs; keep the activations that fit in the budget (in blocks reused across calls).
    const kept: (Float32Array | null)[] = [];
    let used = 0;
    for (const [i, sl] of slices.entries()) {
      const need = activationFloats(this.config, sl.T);
      if (used + need > this.budget) {
        kept.push(null);
        continue;
      }
      this.keptBlocks[i] = regrown(this.keptBlocks[i] ?? heapFloats(0), need);
      kept.push(this.keptBlocks[i].subarray(0, need));
      used += need;
    }
    this.scored = regrown(this.scored, nScored);
    this.logp = regrown(this.logp, nScored * this.config.vocabSize);
    const desc = this.forwardDesc(batch, slices, this.params, kept, this.logp);
    const again = this.lastForward !== null && sameForward(this.lastForward, batch, this.generation);
    if (again) {
      this.logp.set(this.lastForward!.logp);
      this.scored.set(this.lastForward!.lStudent);
    } else {
      this.lastForward = null;
      await parallelFor(forwardJob, desc, slices.length, this.threads);
      this.lastForward = {
        generation: this.generation,
        seqLen: batch.seqLen,
        tokens: batch.tokens.slice(),
        targets: batch.targets.slice(),
        masks: batch.masks.slice(),
        logp: this.logp.slice(0, nScored * V),
        lStudent: this.scored.slice(0, nScored),
      };
    }
    const lStudent = this.scored.slice(0, nScored);
    refuseNonFiniteLogProbs(batch, lStudent);
    const loss = seedLoss(
      lStudent,
      inputs,
      hyper,
      hyper.distil ? this.distil(batch, inputs, hyper, nScored) : undefined,
    );
    refuseNonFiniteLoss(loss);

    // Pass 2: the gradient by groups of sequences into the scratch gradient (group 0) and the group buffers.
    const groups = gradientGroups(slices.length);
    const nGroups = groups.length - 1;
    // zeroed by their job
    while (this.groupGrads.length < nGroups - 1) this.groupGrads.push(heapFloats(this.layout.totalFloats, false));
    const grads = [this.gradScratch, ...this.groupGrads.slice(0, nGroups - 1)];
    const distilGrad = hyper.distil ? this.distilGrad : null;
    await parallelFor(backwardJob, { ...desc, coef: loss.coef, distilGrad, groups, grads }, nGroups, this.threads);
    const floats = this.layout.totalFloats;
    if (nGroups > 1)
      await parallelFor(
        reduceJob,
        { grads, floats, chunk: REDUCE_CHUNK },
        Math.ceil(floats / REDUCE_CHUNK),
        this.threads,
      );
    const badGrad = firstNonFiniteF32(this.gradScratch);
    if (badGrad >= 0) throw new NonFiniteError('gradient', describeParameter(this.layout, badGrad));
    addIntoF32(this.grads, this.gradScratch);
    return loss;
  }

  /**
   * Exact distillation after pass 1 (this.logp holds the student's rows): the divergence of every token under
   * the OPD mask, and into this.distilGrad its logit gradient, lambda w / N_opd dD/dz, before the backward
   * turns the rows into dlogits in place.
   */
  private distil(batch: TokenBatch, inputs: LossInputs, hyper: LossHyper, nScored: number): Float32Array {
    const V = this.config.vocabSize;
    const words = maskWords(V);
    const alpha = hyper.distil!.jsdAlpha;
    const teacher = inputs.teacher!;
    const { invNOpd } = lossCounts(inputs);
    const divergence = new Float32Array(nScored);
    const scale = new Float32Array(nScored);
    for (let k = 0; k < nScored; k++) {
      if (inputs.opdMask[k] === 0) continue;
      const rows = [k * V, (k + 1) * V] as const;
      distilDivergence(
        divergence.subarray(k, k + 1),
        this.logp.subarray(...rows),
        teacher.subarray(...rows),
        batch.masks.subarray(k * words, (k + 1) * words),
        1,
        V,
        alpha,
      );
      scale[k] = hyper.lambda * inputs.opdMask[k] * (inputs.distilWeight?.[k] ?? 1) * invNOpd;
    }
    this.distilGrad = regrown(this.distilGrad, nScored * V);
    const grad = this.distilGrad.subarray(0, nScored * V);
    grad.fill(0);
    distilLogitGradient(grad, this.logp, teacher, batch.masks, scale, nScored, V, alpha);
    return divergence;
  }

  async optimizerStep(hyper: OptimizerHyper): Promise<StepStats> {
    checkOptimizerHyper(hyper);
    const norm = gradientNorm(this.grads);
    if (!Number.isFinite(norm)) throw new NonFiniteError('gradient norm', `value ${norm}`);
    this.step += 1;
    this.generation++;
    adamwUpdate(
      this.params,
      this.grads,
      this.m,
      this.v,
      this.layout,
      hyper,
      this.step,
      clipScale(norm, hyper.gradClip),
    );
    this.grads.fill(0);
    return { gradNorm: norm, step: this.step };
  }

  async zeroGradients(): Promise<void> {
    this.grads.fill(0);
  }

  /** A copy of the accumulated gradient (for tests and the step-by-step view). */
  async readGradients(): Promise<Float32Array> {
    return this.grads.slice();
  }

  openDecoder(nStreams: number): Decoder {
    return new CpuDecoder(this, this.params, this.config, nStreams, this.threads);
  }

  dispose(): void {
    // keptBlocks has holes where a sequence's activations did not fit the budget and a later one's did
    const kept = this.keptBlocks.filter((b) => b !== undefined);
    for (const buf of [...kept, ...this.groupGrads, this.scored, this.logp, this.distilGrad]) freeHeapFloats(buf);
    this.keptBlocks.length = 0;
    this.groupGrads.length = 0;
    this.scored = heapFloats(0);
    this.logp = heapFloats(0);
    this.distilGrad = heapFloats(0);
    this.lastForward = null;
  }

  /** The batch (checked) cut into its sequences that have a scored position. */
  private slice(batch: TokenBatch): SliceRef[] {
    checkBatch(batch, this.config);
    const { nSeq, seqLen, targets } = batch;
    const slices: SliceRef[] = [];
    let scored = 0;
    for (let s = 0; s < nSeq; s++) {
      const base = s * seqLen;
      const rows: number[] = [];
      for (let t = 0; t < seqLen; t++) if (targets[base + t] >= 0) rows.push(t);
      if (rows.length > 0) {
        const tgt = new Int32Array(rows.length);
        for (let r = 0; r < rows.length; r++) tgt[r] = targets[base + rows[r]];
        slices.push({
          seq: s,
          T: rows[rows.length - 1] + 1,
          rows: Int32Array.from(rows),
          targets: tgt,
          firstScored: scored,
        });
      }
      scored += rows.length;
    }
    return slices;
  }

  private forwardDesc(
    batch: TokenBatch,
    slices: SliceRef[],
    params: Float32Array,
    kept: (Float32Array | null)[],
    logp: Float32Array | null,
  ): ForwardDesc {
    return {
      config: this.config,
      params,
      tokens: batch.tokens,
      seqLen: batch.seqLen,
      masks: batch.masks,
      slices,
      kept,
      logp,
      lStudent: this.scored,
    };
  }
}

/**
 * `block` when it holds n floats, else a larger heap block in its place, not cleared: what lives in these
 * blocks (activations, log-probs) is written before it is read.
 */
function regrown(block: Float32Array, n: number): Float32Array {
  if (block.length >= n) return block;
  freeHeapFloats(block);
  return heapFloats(Math.max(n, Math.ceil(block.length * 1.5)), false);
}

/** A lossBackward's forward, kept so that a second call on the same batch and weights can skip it. */
interface KeptForward {
  generation: number;
  seqLen: number;
  tokens: Int32Array;
  targets: Int32Array;
  masks: Uint32Array;
  /** The masked log-probs [nScored, V] and l_student as the forward wrote them (the backward overwrites the rows). */
  logp: Float32Array;
  lStudent: Float32Array;
}

function sameArray<T extends Int32Array | Uint32Array>(a: T, b: T): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Whether `batch` on the weights of `generation` is the forward `kept` holds. */
function sameForward(kept: KeptForward, batch: TokenBatch, generation: number): boolean {
  return (
    kept.generation === generation &&
    kept.seqLen === batch.seqLen &&
    sameArray(kept.tokens, batch.tokens) &&
    sameArray(kept.targets, batch.targets) &&
    sameArray(kept.masks, batch.masks)
  );
}

function countScored(slices: SliceRef[]): number {
  return slices.reduce((n, sl) => n + sl.rows.length, 0);
}
