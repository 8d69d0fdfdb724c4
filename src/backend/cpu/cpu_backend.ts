// The CPU reference backend: plain TypeScript loops over flat Float32 buffers (parameters, reference
// parameters, gradients and AdamW moments share one layout, model/layout.ts).
//
// lossBackward: forward each sequence -> logits at its scored positions -> masked log-softmax ->
// l_student -> SEED loss and per-token coefficient c (seed_loss.ts) -> dlogits = c (onehot(target) - p)
// over the allowed tokens -> backward through the model into a scratch gradient, which is checked and only
// then added to the accumulated gradient. The loss needs every l_student before any coefficient exists, so
// activations are kept between the two passes up to a memory budget and recomputed beyond it.
//
// The buffers the matmul kernel reads (parameters, activations, backward scratch) live in the CPU heap
// (heap.ts). Activations go back to it on dispose; the parameter buffers when the backend is collected.
import {
  NonFiniteError,
  maskWords,
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
  checkLossInputs,
  checkOptimizerHyper,
  checkOptimizerState,
  checkParameterBuffer,
  describeParameter,
  firstNonFiniteIndex,
  isAllowed,
  refuseNonFiniteInputs,
  refuseNonFiniteLogProbs,
  refuseNonFiniteLoss,
} from '../contract.ts';
import { validateConfig, type ModelConfig } from '../../model/config.ts';
import { initParameters } from '../../model/init.ts';
import { parameterLayout, type ParameterLayout } from '../../model/layout.ts';
import { adamwUpdate, clipScale, gradientNorm } from './adamw.ts';
import { CpuDecoder } from './decoder.ts';
import { freeHeapFloats, heapFloats } from './heap.ts';
import {
  activationFloats,
  allocBackwardScratch,
  carveActivations,
  gatherRows,
  gptBackward,
  gptForward,
  headBackward,
  headForward,
  type Activations,
  type BackwardScratch,
} from './gpt.ts';
import { gatherLogProbs, maskedLogSoftmax } from './log_softmax.ts';
import { seedLoss } from './seed_loss.ts';
import { bindWeights, type ModelWeights } from './weights.ts';

export interface CpuBackendOptions {
  /**
   * Floats of activations kept between the loss passes (default 96M = 384 MB, enough for 64 episodes of
   * 300 tokens of the tiny preset); sequences beyond it are recomputed (one more forward each).
   */
  activationBudget?: number;
}

/** One sequence of a batch, cut at its last scored position. */
interface SequenceSlice {
  tokens: Int32Array;
  /** Positions (within the sequence) of the scored targets, and their index in scored order. */
  rows: Int32Array;
  targets: Int32Array;
  firstScored: number;
}

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
  private readonly w: ModelWeights<Float32Array>;
  private readonly wRef: ModelWeights<Float32Array>;
  private readonly gScratch: ModelWeights<Float32Array>;
  private readonly budget: number;
  private block = heapFloats(0);
  private readonly keptBlocks: Float32Array[] = [];
  private backward: BackwardScratch<Float32Array> | null = null;
  private backwardRows = 0;

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
    parameterBuffers.register(this, [this.params, this.reference, this.gradScratch]);
    this.grads = new Float32Array(n);
    this.m = new Float32Array(n);
    this.v = new Float32Array(n);
    this.w = bindWeights(this.params, config, this.layout);
    this.wRef = bindWeights(this.reference, config, this.layout);
    this.gScratch = bindWeights(this.gradScratch, config, this.layout);
    this.budget = options.activationBudget ?? 96 * 1024 * 1024;
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
    const w = set === 'reference' ? this.wRef : this.w;
    const out = new Float32Array(countScored(slices));
    for (const sl of slices) {
      const acts = this.scratchActivations(sl.tokens.length);
      const logp = this.scoreSlice(sl, acts, w, batch.masks);
      gatherLogProbs(out.subarray(sl.firstScored), logp.logp, sl.targets, sl.rows.length, this.config.vocabSize);
    }
    return out;
  }

  async lossBackward(batch: TokenBatch, inputs: LossInputs, hyper: LossHyper): Promise<LossOutput> {
    const slices = this.slice(batch);
    const nScored = countScored(slices);
    checkLossInputs(inputs, nScored);
    refuseNonFiniteInputs(inputs);
    const V = this.config.vocabSize;
    const C = this.config.dModel;
    const lStudent = new Float32Array(nScored);
    // Pass 1: forward and log-probs; keep what fits in the budget (in blocks reused across calls).
    const kept: (Activations<Float32Array> | null)[] = [];
    const logps: Float32Array[] = [];
    let used = 0;
    for (const sl of slices) {
      const T = sl.tokens.length;
      const need = activationFloats(this.config, T);
      const keep = used + need <= this.budget;
      let acts: Activations<Float32Array>;
      if (keep) {
        const i = kept.length;
        if (!this.keptBlocks[i] || this.keptBlocks[i].length < need) {
          if (this.keptBlocks[i]) freeHeapFloats(this.keptBlocks[i]);
          this.keptBlocks[i] = heapFloats(need);
        }
        acts = carveActivations(this.keptBlocks[i], this.config, T);
        used += need;
      } else {
        acts = this.scratchActivations(T);
      }
      const { logp } = this.scoreSlice(sl, acts, this.w, batch.masks);
      gatherLogProbs(lStudent.subarray(sl.firstScored), logp, sl.targets, sl.rows.length, V);
      kept.push(keep ? acts : null);
      logps.push(logp);
    }
    refuseNonFiniteLogProbs(batch, lStudent);
    const loss = seedLoss(lStudent, inputs, hyper);
    refuseNonFiniteLoss(loss);

    // Pass 2: dlogits = c (onehot(target) - p) on allowed tokens, then backward into the scratch gradient.
    this.gradScratch.fill(0);
    const words = maskWords(V);
    for (let i = 0; i < slices.length; i++) {
      const sl = slices[i];
      const T = sl.tokens.length;
      const R = sl.rows.length;
      let acts = kept[i];
      if (acts === null) {
        acts = this.scratchActivations(T);
        gptForward(acts, this.w, this.config, sl.tokens);
      }
      const dlogits = logps[i];
      for (let r = 0; r < R; r++) {
        const c = loss.coef[sl.firstScored + r];
        const maskRow = sl.firstScored + r;
        const base = r * V;
        for (let v = 0; v < V; v++) {
          dlogits[base + v] = isAllowed(batch.masks, maskRow, words, v) ? -c * Math.exp(dlogits[base + v]) : 0;
        }
        dlogits[base + sl.targets[r]] += c;
      }
      const scratch = this.backwardScratch(T);
      const gathered = new Float32Array(R * C);
      const dlnf = new Float32Array(T * C);
      gatherRows(gathered, acts.lnf, sl.rows, C);
      headBackward(dlnf, this.gScratch.wte, dlogits, gathered, sl.rows, this.w.wte, V, C, new Float32Array(R * C));
      gptBackward(this.gScratch, this.w, acts, dlnf, this.config, sl.tokens, scratch);
    }
    const badGrad = firstNonFiniteIndex(this.gradScratch);
    if (badGrad >= 0) throw new NonFiniteError('gradient', describeParameter(this.layout, badGrad));
    for (let i = 0; i < this.grads.length; i++) this.grads[i] += this.gradScratch[i];
    return loss;
  }

  async optimizerStep(hyper: OptimizerHyper): Promise<StepStats> {
    checkOptimizerHyper(hyper);
    const norm = gradientNorm(this.grads);
    if (!Number.isFinite(norm)) throw new NonFiniteError('gradient norm', `value ${norm}`);
    this.step += 1;
    adamwUpdate(this.params, this.grads, this.m, this.v, this.layout, hyper, this.step, clipScale(norm, hyper.gradClip));
    this.grads.fill(0);
    return { gradNorm: norm, step: this.step };
  }

  async zeroGradients(): Promise<void> {
    this.grads.fill(0);
  }

  /** A copy of the accumulated gradient (for tests and the step-by-step view). */
  readGradients(): Float32Array {
    return this.grads.slice();
  }

  openDecoder(nStreams: number): Decoder {
    return new CpuDecoder(this, this.w, this.config, nStreams);
  }

  dispose(): void {
    freeHeapFloats(this.block);
    this.block = heapFloats(0);
    for (const buf of this.keptBlocks) freeHeapFloats(buf);
    this.keptBlocks.length = 0;
    this.freeBackwardScratch();
  }

  /** The batch (checked) cut into its sequences that have a scored position. */
  private slice(batch: TokenBatch): SequenceSlice[] {
    checkBatch(batch, this.config);
    const { nSeq, seqLen, tokens, targets } = batch;
    const slices: SequenceSlice[] = [];
    let scored = 0;
    for (let s = 0; s < nSeq; s++) {
      const base = s * seqLen;
      const rows: number[] = [];
      for (let t = 0; t < seqLen; t++) if (targets[base + t] >= 0) rows.push(t);
      if (rows.length > 0) {
        const T = rows[rows.length - 1] + 1;
        const tgt = new Int32Array(rows.length);
        for (let r = 0; r < rows.length; r++) tgt[r] = targets[base + rows[r]];
        slices.push({ tokens: tokens.subarray(base, base + T), rows: Int32Array.from(rows), targets: tgt, firstScored: scored });
      }
      scored += rows.length;
    }
    return slices;
  }

  private scoreSlice(sl: SequenceSlice, acts: Activations<Float32Array>, w: ModelWeights<Float32Array>, masks: Uint32Array): { logp: Float32Array } {
    const { vocabSize: V, dModel: C } = this.config;
    const R = sl.rows.length;
    gptForward(acts, w, this.config, sl.tokens);
    const logits = new Float32Array(R * V);
    headForward(logits, new Float32Array(R * C), acts.lnf, sl.rows, w.wte, V, C);
    const words = maskWords(V);
    maskedLogSoftmax(logits, logits, masks.subarray(sl.firstScored * words, (sl.firstScored + R) * words), R, V);
    return { logp: logits };
  }

  private scratchActivations(T: number): Activations<Float32Array> {
    const need = activationFloats(this.config, T);
    if (this.block.length < need) {
      freeHeapFloats(this.block);
      this.block = heapFloats(need);
    }
    return carveActivations(this.block, this.config, T);
  }

  private backwardScratch(T: number): BackwardScratch<Float32Array> {
    if (this.backward === null || this.backwardRows < T) {
      this.freeBackwardScratch();
      this.backward = allocBackwardScratch(heapFloats, this.config, T);
      this.backwardRows = T;
    }
    return this.backward;
  }

  private freeBackwardScratch(): void {
    if (this.backward !== null) for (const buf of Object.values(this.backward)) freeHeapFloats(buf);
    this.backward = null;
    this.backwardRows = 0;
  }
}

function countScored(slices: SequenceSlice[]): number {
  return slices.reduce((n, sl) => n + sl.rows.length, 0);
}
