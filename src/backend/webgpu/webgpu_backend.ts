// The WebGPU backend: the Backend interface of backend.ts on hand-written WGSL, the twin of
// src/backend/cpu/cpu_backend.ts. Parameters, the frozen reference, gradients, a scratch gradient and the
// AdamW moments live in GPU buffers for the whole run (one flat buffer each, model/layout.ts); only tokens,
// per-token loss numbers and metrics come back.
//
// lossBackward is one stage (one submit): it zeroes the scratch gradient, then per chunk of sequences (one
// chunk unless the batch exceeds the activation budget; chunk_passes.ts records each) forward -> tied head
// on the scored rows -> masked log-softmax -> l_student -> probability shift and fused SEED coefficient ->
// logit gradient -> backward into the scratch gradient. Under exact distillation the chunk's teacher rows are uploaded too, each
// token's divergence is computed before the coefficient (which takes it as the OPD term), and its logit
// gradient is added to the SEED one before the backward. The chunks run one after the other in the same
// buffers, so memory stays one chunk's. The coefficient of a token needs only its own l_student (and
// divergence) and the batch's N and N_opd, which the host knows from the masks, so chunks need no second
// pass. At the end the stage counts the non-finite numbers (the per-token ones, divergences included, and
// the gradient), adds the scratch to the gradient only when that count is 0, and reads back, once, the
// per-token numbers and the count, from which the host refuses (NonFiniteError) with the gradient
// untouched, as the CPU does. `score` and `scoreRows` are one stage and one readback too.
import {
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
  checkDistilInputs,
  checkLossHyper,
  checkOptimizerHyper,
  checkOptimizerState,
  checkParameterBuffer,
  describeParameter,
  firstNonFiniteIndex,
  lossCounts,
  refuseNonFiniteInputs,
  refuseNonFiniteLogProbs,
  refuseNonFiniteLoss,
} from '../contract.ts';
import { validateConfig, type ModelConfig } from '../../model/config.ts';
import { initParameters } from '../../model/init.ts';
import { modelOffsets, parameterLayout, type ModelOffsets, type ParameterLayout } from '../../model/layout.ts';
import { planBatch, splitBatch } from './batch.ts';
import { chunkLossBackward, forwardLogProbs, type ChunkModel } from './chunk_passes.ts';
import { GpuDecoder } from './decoder.ts';
import type { AdapterReport } from './device.ts';
import { DeviceLostError, type DeviceLostInfo } from './errors.ts';
import { distilRows } from './distil.ts';
import {
  accumulateGradients,
  adamwUpdate,
  countNonFinite,
  decayBits,
  gradNorm,
  NORM_STATE_FLOATS,
  normPartials,
} from './adamw.ts';
import type { MatmulVariant } from './matmul.ts';
import { fill } from './rows.ts';
import type { GpuRuntime } from './runtime.ts';
import { Scratch } from './scratch.ts';
import { packLossInputs, TOKEN_OUT_FLOATS, unpackLossOutput } from './seed_loss.ts';
import type { Stage } from './stage.ts';

interface WebGpuBackendOptions {
  /** matmul_forward variant; default preferredMatmul(adapter). */
  matmul?: MatmulVariant;
  /**
   * Floats of GPU activation memory per chunk of sequences (default 32M = 128 MB): a batch runs as
   * consecutive chunks of sequences within this budget (batch.ts splitBatch), so a large batch never
   * needs a binding larger than the adapter allows.
   */
  activationBudget?: number;
  /** Floats of attention scratch per batch of fed tokens in the decoder (default DECODE_ATTENTION_BUDGET, 64 MB). */
  decodeAttentionBudget?: number;
}

/**
 * The matmul variant for an adapter: on software adapters (SwiftShader, llvmpipe, lavapipe), which run
 * workgroup memory and barriers slowly and are bound by loads, one thread per output reading four floats
 * at a time (vec4; bench/kernels.md measures naive, vec4 and tiled on this machine's adapter); on hardware
 * GPUs the 16 x 16 tiles through workgroup memory.
 */
export function preferredMatmul(adapter: AdapterReport): MatmulVariant {
  const text = `${adapter.vendor} ${adapter.architecture} ${adapter.description} ${adapter.device}`;
  return adapter.isFallback || /swiftshader|llvmpipe|lavapipe|software/i.test(text) ? 'vec4' : 'tiled';
}

/**
 * The device was lost in the middle of `operation`. GPU state (weights, moments, gradient) is gone; the
 * caller resumes from its last checkpoint on a new backend. completedSteps is the number of optimizer
 * steps that finished before the loss: a checkpoint taken at that step or earlier is consistent.
 */
export class GpuBackendLostError extends Error {
  constructor(
    readonly info: DeviceLostInfo,
    readonly operation: string,
    readonly completedSteps: number,
  ) {
    super(
      `WebGPU device lost (${info.reason}) during ${operation} after ${completedSteps} optimizer steps: ` +
        `${info.message || 'no message'}. The GPU state is gone; resume from the last checkpoint (step <= ${completedSteps}) on a new backend`,
    );
    this.name = 'GpuBackendLostError';
  }
}

export class WebGpuBackend implements Backend {
  readonly kind = 'webgpu' as const;
  readonly layout: ParameterLayout;
  readonly offsets: ModelOffsets;
  private readonly n: number;
  private readonly params: GPUBuffer;
  private readonly reference: GPUBuffer;
  private readonly grads: GPUBuffer;
  private readonly gradScratch: GPUBuffer;
  private readonly m: GPUBuffer;
  private readonly v: GPUBuffer;
  private readonly decay: GPUBuffer;
  private readonly normState: GPUBuffer;
  private readonly normPartials: GPUBuffer;
  private readonly flag: GPUBuffer;
  private readonly variant: MatmulVariant;
  /** What the chunk passes (chunk_passes.ts) run. */
  private readonly model: ChunkModel;
  private readonly budget: number;
  private readonly decodeBudget: number | undefined;
  private step = 0;
  private disposed = false;
  /** Bytes copied back to the host so far (tokens, per-token numbers, metrics): what the read budget tests check. */
  bytesRead = 0;
  /** Bytes the decoder has uploaded so far (one packed write per decoding position). */
  bytesWritten = 0;

  constructor(
    readonly gpu: GpuRuntime,
    readonly config: ModelConfig,
    params?: Float32Array,
    options: WebGpuBackendOptions = {},
  ) {
    validateConfig(config);
    this.layout = parameterLayout(config);
    this.offsets = modelOffsets(this.layout, config.nLayer);
    this.n = this.layout.totalFloats;
    this.variant = options.matmul ?? preferredMatmul(gpu.adapter);
    this.model = { config, offsets: this.offsets, variant: this.variant };
    this.budget = options.activationBudget ?? 32 * 1024 * 1024;
    this.decodeBudget = options.decodeAttentionBudget;
    const bytes = this.n * 4;
    this.params = gpu.buffer(bytes, undefined, 'params');
    this.reference = gpu.buffer(bytes, undefined, 'reference');
    this.grads = gpu.buffer(bytes, undefined, 'grads');
    this.gradScratch = gpu.buffer(bytes, undefined, 'grad scratch');
    this.m = gpu.buffer(bytes, undefined, 'adam m');
    this.v = gpu.buffer(bytes, undefined, 'adam v');
    this.decay = gpu.upload(decayBits(this.layout), undefined, 'decay bits');
    this.normState = gpu.buffer(NORM_STATE_FLOATS * 4, undefined, 'norm state');
    this.normPartials = gpu.buffer(normPartials(this.n) * 4, undefined, 'norm partials');
    this.flag = gpu.buffer(4, undefined, 'non-finite count');
    const initial = new Float32Array(this.n);
    if (params) {
      checkParameterBuffer(params, this.n, 'parameters');
      initial.set(params);
    }
    const zeros = new Float32Array(this.n);
    gpu.write(this.params, initial);
    gpu.write(this.reference, initial);
    for (const b of [this.grads, this.gradScratch, this.m, this.v]) gpu.write(b, zeros);
  }

  /** A backend with freshly initialised parameters (model/init.ts), the same as CpuBackend.fromSeed. */
  static fromSeed(gpu: GpuRuntime, config: ModelConfig, seed: number, options?: WebGpuBackendOptions): WebGpuBackend {
    return new WebGpuBackend(gpu, config, initParameters(config, seed), options);
  }

  /** Optimizer steps completed (what a resume after device loss starts from). */
  get completedSteps(): number {
    return this.step;
  }

  async readParameters(set: ParameterSet = 'current'): Promise<Float32Array> {
    return this.readFloats('readParameters', set === 'reference' ? this.reference : this.params, this.n);
  }

  async writeParameters(params: Float32Array): Promise<void> {
    this.checkOpen();
    checkParameterBuffer(params, this.n, 'parameters');
    this.gpu.write(this.params, Float32Array.from(params));
  }

  async setReferenceFromCurrent(): Promise<void> {
    const stage = this.stage('setReferenceFromCurrent');
    stage.copy(this.params, this.reference, this.n * 4);
    await this.submit('setReferenceFromCurrent', stage);
  }

  async readOptimizerState(): Promise<{ m: Float32Array; v: Float32Array; step: number }> {
    const stage = this.stage('readOptimizerState');
    const m = stage.read(this.m, this.n * 4);
    const v = stage.read(this.v, this.n * 4);
    await this.submit('readOptimizerState', stage);
    this.bytesRead += 2 * this.n * 4;
    return { m: new Float32Array(await m), v: new Float32Array(await v), step: this.step };
  }

  async writeOptimizerState(state: { m: Float32Array; v: Float32Array; step: number }): Promise<void> {
    this.checkOpen();
    checkOptimizerState(state, this.n);
    this.gpu.write(this.m, Float32Array.from(state.m));
    this.gpu.write(this.v, Float32Array.from(state.v));
    this.step = state.step;
  }

  async score(batch: TokenBatch, set: ParameterSet = 'current'): Promise<Float32Array> {
    return this.scoreChunks('score', batch, set, 1, (pass) => pass.lStudent);
  }

  async scoreRows(batch: TokenBatch, set: ParameterSet = 'current'): Promise<Float32Array> {
    return this.scoreChunks('scoreRows', batch, set, this.config.vocabSize, (pass) => pass.logp);
  }

  /** One stage: the forward of each chunk, then one readback of `width` floats per scored row from `pick`. */
  private async scoreChunks(
    operation: string,
    batch: TokenBatch,
    set: ParameterSet,
    width: number,
    pick: (pass: ReturnType<typeof forwardLogProbs>) => GPUBuffer,
  ): Promise<Float32Array> {
    this.checkOpen();
    const chunks = splitBatch(batch, this.config, this.budget);
    const R = chunks.reduce((n, c) => n + c.nScored, 0);
    if (R === 0) return new Float32Array(0);
    const all = new Scratch(this.gpu);
    try {
      const outAll = all.floats(R * width);
      const stage = this.stage(operation);
      for (const chunk of chunks) {
        const scratch = new Scratch(this.gpu);
        try {
          const plan = planBatch(chunk.batch, this.config);
          const pass = forwardLogProbs(
            this.model,
            stage,
            scratch,
            plan,
            set === 'reference' ? this.reference : this.params,
          );
          stage.copy(pick(pass), { buffer: outAll, offset: chunk.firstScored * width * 4 }, chunk.nScored * width * 4);
        } finally {
          // Recorded is enough (see Scratch.release): the next chunk reuses these buffers after this one.
          scratch.release();
        }
      }
      const out = stage.read(outAll, R * width * 4);
      await this.submit(operation, stage);
      this.bytesRead += R * width * 4;
      return new Float32Array(await out);
    } finally {
      all.release();
    }
  }

  async lossBackward(batch: TokenBatch, inputs: LossInputs, hyper: LossHyper): Promise<LossOutput> {
    this.checkOpen();
    const chunks = splitBatch(batch, this.config, this.budget);
    checkLossHyper(hyper);
    const R = chunks.reduce((n, c) => n + c.nScored, 0);
    const tokenIn = packLossInputs(inputs, R);
    checkDistilInputs(inputs, hyper, R, this.config.vocabSize);
    refuseNonFiniteInputs(inputs);
    if (R === 0) return unpackLossOutput(new Float32Array(0), 0, inputs, hyper);
    const counts = lossCounts(inputs);
    const distil = distilRows(inputs, hyper, counts);
    const all = new Scratch(this.gpu);
    try {
      const tokensAll = all.floats(R * TOKEN_OUT_FLOATS);
      const stage = this.stage('lossBackward');
      fill(stage, this.gradScratch, this.n, 0);
      for (const chunk of chunks) {
        const scratch = new Scratch(this.gpu);
        try {
          const tokens = chunkLossBackward(
            this.model,
            { params: this.params, gradient: this.gradScratch },
            stage,
            scratch,
            chunk,
            tokenIn,
            counts,
            hyper,
            distil,
          );
          stage.copy(
            tokens,
            { buffer: tokensAll, offset: chunk.firstScored * TOKEN_OUT_FLOATS * 4 },
            chunk.nScored * TOKEN_OUT_FLOATS * 4,
          );
        } finally {
          // Recorded is enough (see Scratch.release): the next chunk reuses these buffers after this one.
          scratch.release();
        }
      }
      countNonFinite(stage, this.flag, tokensAll, R * TOKEN_OUT_FLOATS, this.gradScratch, this.n);
      accumulateGradients(stage, this.grads, this.gradScratch, this.flag, this.n);
      const raw = stage.read(tokensAll, R * TOKEN_OUT_FLOATS * 4);
      const flag = stage.read(this.flag, 4);
      await this.submit('lossBackward', stage);
      this.bytesRead += R * TOKEN_OUT_FLOATS * 4 + 4;
      const out = unpackLossOutput(new Float32Array(await raw), R, inputs, hyper);
      if (new Uint32Array(await flag)[0] !== 0) await this.refuse(out, batch);
      return out;
    } finally {
      all.release();
    }
  }

  async optimizerStep(hyper: OptimizerHyper): Promise<StepStats> {
    this.checkOpen();
    checkOptimizerHyper(hyper);
    const stage = this.stage('optimizerStep');
    gradNorm(stage, this.normState, this.normPartials, this.grads, this.n, hyper.gradClip);
    adamwUpdate(
      stage,
      this.params,
      this.grads,
      this.m,
      this.v,
      this.decay,
      this.normState,
      this.n,
      hyper,
      this.step + 1,
    );
    const state = stage.read(this.normState, NORM_STATE_FLOATS * 4);
    await this.submit('optimizerStep', stage);
    this.bytesRead += NORM_STATE_FLOATS * 4;
    const [norm, , finite] = new Float32Array(await state);
    if (finite !== 1) throw new NonFiniteError('gradient norm', `value ${norm}`);
    this.step += 1;
    return { gradNorm: norm, step: this.step };
  }

  async zeroGradients(): Promise<void> {
    const stage = this.stage('zeroGradients');
    fill(stage, this.grads, this.n, 0);
    await this.submit('zeroGradients', stage);
  }

  /** A copy of the accumulated gradient (tests and the step-by-step view). */
  async readGradients(): Promise<Float32Array> {
    return this.readFloats('readGradients', this.grads, this.n);
  }

  openDecoder(nStreams: number): Decoder {
    this.checkOpen();
    return new GpuDecoder(
      this.gpu,
      this.config,
      this.offsets,
      this.params,
      nStreams,
      this.variant,
      (bytes) => (this.bytesRead += bytes),
      (bytes) => (this.bytesWritten += bytes),
      (op, err) => this.translate(op, err),
      this.decodeBudget,
    );
  }

  /** Gives the backend's buffers back; the runtime (and its device) stays with its owner. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.gpu.release(
      this.params,
      this.reference,
      this.grads,
      this.gradScratch,
      this.m,
      this.v,
      this.decay,
      this.normState,
      this.normPartials,
      this.flag,
    );
  }

  /** Throws the NonFiniteError the CPU would throw for the same numbers. */
  private async refuse(out: LossOutput, batch: TokenBatch): Promise<never> {
    refuseNonFiniteLogProbs(batch, out.lStudent);
    refuseNonFiniteLoss(out);
    const grads = await this.readFloats('lossBackward', this.gradScratch, this.n);
    throw new NonFiniteError('gradient', describeParameter(this.layout, firstNonFiniteIndex(grads)));
  }

  private async readFloats(operation: string, buffer: GPUBuffer, n: number): Promise<Float32Array> {
    const stage = this.stage(operation);
    const data = stage.read(buffer, n * 4);
    await this.submit(operation, stage);
    this.bytesRead += n * 4;
    return new Float32Array(await data);
  }

  private stage(operation: string): Stage {
    this.checkOpen(operation);
    return this.gpu.stage('webgpu-backend');
  }

  private async submit(operation: string, stage: Stage): Promise<void> {
    try {
      await stage.submit();
    } catch (err) {
      throw this.translate(operation, err);
    }
  }

  private translate(operation: string, err: unknown): unknown {
    const info = err instanceof DeviceLostError ? err.info : this.gpu.lostInfo();
    return info ? new GpuBackendLostError(info, operation, this.step) : err;
  }

  private checkOpen(operation = 'a call after the loss'): void {
    if (this.disposed) throw new Error('the WebGPU backend was disposed');
    const lost = this.gpu.lostInfo();
    if (lost) throw new GpuBackendLostError(lost, operation, this.step);
  }
}
