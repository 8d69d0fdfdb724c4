// Masked log-softmax and the log-prob gather on the GPU: the twins of src/backend/cpu/log_softmax.ts
// (kernels in shaders/log_softmax.wgsl). Each wrapper records one dispatch into a stage; the caller owns
// the buffers and submits the stage.
import code from '../../../shaders/log_softmax.wgsl?raw';
import { maskWords } from '../backend.ts';
import { kernel, workgroupGrid, type Buf, type KernelSpec } from './kernel.ts';
import { WG } from './prelude.ts';
import type { GpuRuntime } from './runtime.ts';
import type { Stage } from './stage.ts';
import { wgslStruct } from './wgsl_struct.ts';

/** @public: shaders.test.ts reads the module's exports to check each struct against its shader. */
export const SHAPE = wgslStruct('Shape', { rows: 'u32', vocab: 'u32', mask_words: 'u32', grid_x: 'u32' });

const BINDINGS = ['uniform', 'read', 'read', 'write'] as const;

/**
 * Threads per row: about 16 tokens per thread, a power of two in [32, 256]. Small groups suit the small
 * vocabularies here: each halving saves a barrier of the tree, and on SwiftShader a row of 350 tokens
 * took 63 ms at 32 threads against 740 ms at 256 (384 rows).
 */
export function logSoftmaxWorkgroupSize(vocab: number): number {
  return Math.min(256, Math.max(32, 2 ** Math.ceil(Math.log2(Math.max(Math.ceil(vocab / 16), 1)))));
}

/** The kernel with its own WG: the tree reductions need a power of two. */
function sized(entryPoint: string, workgroupSize: number): KernelSpec {
  if (!Number.isInteger(Math.log2(workgroupSize)) || workgroupSize > 256) {
    throw new RangeError(`${entryPoint}: workgroup size must be a power of two <= 256, got ${workgroupSize}`);
  }
  return kernel(code, entryPoint, BINDINGS, { WG: workgroupSize });
}

function checkShape(name: string, rows: number, vocab: number): void {
  if (!Number.isInteger(rows) || rows < 1 || !Number.isInteger(vocab) || vocab < 1) {
    throw new RangeError(`${name}: rows and vocab must be positive integers, got rows ${rows}, vocab ${vocab}`);
  }
}

/** out[r * vocab + v] = masked log-softmax of logits row r (f32), masks: [rows * ceil(vocab / 32)] u32. */
export function maskedLogSoftmax(
  stage: Stage,
  out: Buf,
  logits: Buf,
  masks: Buf,
  rows: number,
  vocab: number,
  workgroupSize = logSoftmaxWorkgroupSize(vocab),
): void {
  checkShape('maskedLogSoftmax', rows, vocab);
  const grid = workgroupGrid(rows);
  const shape = SHAPE.pack({ rows, vocab, mask_words: maskWords(vocab), grid_x: grid[0] });
  stage.dispatch(sized('masked_log_softmax', workgroupSize), [shape, logits, masks, out], grid);
}

/**
 * out[r] = logProbs[r * vocab + targets[r]] (targets: i32[rows]). A target outside the vocabulary reads as
 * MASKED_LOG_PROB (the CPU twin throws instead: validate targets on the host).
 */
export function gatherLogProbs(
  stage: Stage,
  out: Buf,
  logProbs: Buf,
  targets: Buf,
  rows: number,
  vocab: number,
  workgroupSize = WG,
): void {
  checkShape('gatherLogProbs', rows, vocab);
  const grid = workgroupGrid(Math.ceil(rows / workgroupSize));
  const shape = SHAPE.pack({ rows, vocab, mask_words: maskWords(vocab), grid_x: grid[0] });
  stage.dispatch(sized('gather_log_probs', workgroupSize), [shape, logProbs, targets, out], grid);
}

interface LogSoftmaxResult {
  logProbs: Float32Array;
  gathered: Float32Array;
}

/**
 * Host arrays in, host arrays out: uploads, runs both kernels in one stage (one submit, one map), reads
 * both results and returns the buffers to the pool. For tests, the self-test and one-off use.
 */
export async function runLogSoftmax(
  gpu: GpuRuntime,
  logits: Float32Array<ArrayBuffer>,
  masks: Uint32Array<ArrayBuffer>,
  targets: Int32Array<ArrayBuffer>,
  rows: number,
  vocab: number,
  workgroupSize = logSoftmaxWorkgroupSize(vocab),
): Promise<LogSoftmaxResult> {
  checkShape('runLogSoftmax', rows, vocab);
  if (logits.length !== rows * vocab || masks.length !== rows * maskWords(vocab) || targets.length !== rows) {
    throw new RangeError(
      `runLogSoftmax: for ${rows} rows of ${vocab} need ${rows * vocab} logits, ${rows * maskWords(vocab)} mask ` +
        `words and ${rows} targets; got ${logits.length}, ${masks.length}, ${targets.length}`,
    );
  }
  const logitsBuffer = gpu.upload(logits);
  const masksBuffer = gpu.upload(masks);
  const targetsBuffer = gpu.upload(targets);
  const logProbsBuffer = gpu.buffer(logits.byteLength);
  const gatheredBuffer = gpu.buffer(rows * 4);
  try {
    const stage = gpu.stage('log-softmax');
    maskedLogSoftmax(stage, logProbsBuffer, logitsBuffer, masksBuffer, rows, vocab, workgroupSize);
    gatherLogProbs(stage, gatheredBuffer, logProbsBuffer, targetsBuffer, rows, vocab);
    const logProbs = stage.read(logProbsBuffer, logits.byteLength);
    const gathered = stage.read(gatheredBuffer, rows * 4);
    await stage.submit();
    return { logProbs: new Float32Array(await logProbs), gathered: new Float32Array(await gathered) };
  } finally {
    gpu.release(logitsBuffer, masksBuffer, targetsBuffer, logProbsBuffer, gatheredBuffer);
  }
}
