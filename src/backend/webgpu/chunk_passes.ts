// The passes the WebGPU backend records for one chunk of sequences (webgpu_backend.ts): the forward up to the
// log-prob of each scored target, which score, scoreRows and lossBackward share, and lossBackward's chunk,
// from that forward to the backward into the scratch gradient.
import type { LossHyper } from '../backend.ts';
import type { LossCounts } from '../contract.ts';
import type { ModelConfig } from '../../model/config.ts';
import type { ModelOffsets } from '../../model/layout.ts';
import { planBatch, type BatchChunk, type BatchPlan } from './batch.ts';
import { distilDivergence, distilLogitGradient, type DistilRows } from './distil.ts';
import { tokenRowIndex } from './encoder.ts';
import { allocGpuActivations, gptBackward, gptForward, type GpuActivations } from './gpt.ts';
import { gatherLogProbs, maskedLogSoftmax } from './log_softmax.ts';
import { matmulBackward, matmulForward, type MatmulVariant } from './matmul.ts';
import { copyRows, fill } from './rows.ts';
import type { Scratch } from './scratch.ts';
import { seedLogitGradient, seedLoss, TOKEN_IN_FLOATS, TOKEN_OUT_FLOATS } from './seed_loss.ts';
import type { Stage } from './stage.ts';

/** The model the passes run: its shapes, where each weight lies in the flat buffers, and the matmul variant. */
export interface ChunkModel {
  readonly config: ModelConfig;
  readonly offsets: ModelOffsets;
  readonly variant: MatmulVariant;
}

/** The weights lossBackward's chunk reads and the gradient it adds to. */
export interface ChunkBuffers {
  readonly params: GPUBuffer;
  readonly gradient: GPUBuffer;
}

/** The forward of a planned batch up to the log-prob of each scored target, recorded into stage. */
export function forwardLogProbs(model: ChunkModel, stage: Stage, scratch: Scratch, plan: BatchPlan, params: GPUBuffer) {
  const { vocabSize: V, dModel: C } = model.config;
  const R = plan.rows.length;
  const acts: GpuActivations = allocGpuActivations(scratch, model.config, plan.B, plan.T);
  gptForward(
    stage,
    acts,
    params,
    model.offsets,
    model.config,
    {
      tokens: stage.upload(plan.tokens),
      positions: stage.upload(plan.positions),
      seqs: stage.upload(plan.seqs),
    },
    model.variant,
  );
  const gathered = scratch.floats(R * C);
  copyRows(stage, gathered, acts.lnf, stage.upload(plan.gatherPairs), R, C);
  const logits = scratch.floats(R * V);
  matmulForward(stage, logits, gathered, params, model.offsets.wte, null, R, C, V, model.variant);
  const masks = stage.upload(plan.masks);
  const targets = stage.upload(plan.targets);
  const logp = scratch.floats(R * V);
  maskedLogSoftmax(stage, logp, logits, masks, R, V);
  const lStudent = scratch.floats(R);
  gatherLogProbs(stage, lStudent, logp, targets, R, V);
  return { acts, gathered, logp, lStudent, masks, targets };
}

/**
 * One chunk of lossBackward, recorded into stage: forward, (divergences,) SEED loss and logit gradient
 * (plus the divergences'), backward into the scratch gradient. Returns the chunk's TokenOut buffer.
 */
export function chunkLossBackward(
  model: ChunkModel,
  buffers: ChunkBuffers,
  stage: Stage,
  scratch: Scratch,
  chunk: BatchChunk,
  tokenIn: Float32Array<ArrayBuffer>,
  counts: LossCounts,
  hyper: LossHyper,
  distil: DistilRows | null,
): GPUBuffer {
  const { vocabSize: V, dModel: C } = model.config;
  const plan = planBatch(chunk.batch, model.config);
  const R = chunk.nScored;
  const first = chunk.firstScored;
  const { acts, gathered, logp, lStudent, masks, targets } = forwardLogProbs(
    model,
    stage,
    scratch,
    plan,
    buffers.params,
  );
  const inputsBuffer = stage.upload(tokenIn.subarray(first * TOKEN_IN_FLOATS, (first + R) * TOKEN_IN_FLOATS));
  const tokens = scratch.floats(R * TOKEN_OUT_FLOATS);
  fill(stage, tokens, R * TOKEN_OUT_FLOATS, 0);
  const teacher = distil && stage.upload(distil.teacher.slice(first * V, (first + R) * V));
  const divergence = distil && scratch.floats(R);
  if (distil)
    distilDivergence(
      stage,
      divergence!,
      logp,
      teacher!,
      masks,
      stage.upload(distil.opdMask.slice(first, first + R)),
      R,
      V,
      distil.alpha,
    );
  seedLoss(stage, tokens, inputsBuffer, lStudent, R, counts, hyper, divergence);
  const dlogits = scratch.floats(R * V);
  seedLogitGradient(stage, dlogits, logp, masks, targets, tokens, R, V);
  if (distil)
    distilLogitGradient(
      stage,
      dlogits,
      logp,
      teacher!,
      masks,
      stage.upload(distil.scale.slice(first, first + R)),
      R,
      V,
      distil.alpha,
    );
  const dgathered = scratch.floats(R * C);
  matmulBackward(
    stage,
    dgathered,
    buffers.gradient,
    dlogits,
    gathered,
    buffers.params,
    model.offsets.wte,
    null,
    R,
    C,
    V,
    model.variant,
  );
  const N = plan.B * plan.T;
  const dlnf = scratch.floats(N * C);
  fill(stage, dlnf, N * C, 0);
  copyRows(stage, dlnf, dgathered, stage.upload(plan.scatterPairs), R, C);
  const index = tokenRowIndex(plan.tokens, V);
  gptBackward(
    stage,
    scratch,
    buffers.gradient,
    buffers.params,
    model.offsets,
    acts,
    dlnf,
    model.config,
    {
      starts: stage.upload(index.starts),
      order: stage.upload(index.order),
    },
    model.variant,
  );
  return tokens;
}
