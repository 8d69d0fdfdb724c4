// The page's ONNX export, loaded on demand (it brings onnxruntime-web and its 14 MB WebAssembly file): a
// checkpoint of the run becomes an .onnx file only after onnxruntime-web has run that file and matched the
// CPU forward within LOGITS_TOLERANCE on random and real token sequences (onnx/verified_export.ts).
import { CheckpointError, readCheckpoint } from '../model/checkpoint.ts';
import type { ModelConfig } from '../model/config.ts';
import { trainingCardFromMetadata } from '../onnx/card.ts';
import type { TrainingCard } from '../onnx/metadata.ts';
import { exportVerifiedPolicy } from '../onnx/verified_export.ts';
import type { VerifyReport } from '../onnx/verify.ts';
import { defaultTokenizer } from '../text/tokenizer.ts';
import { pageThreads } from './onnx_threads.ts';

export interface PageExport {
  bytes: Uint8Array;
  report: VerifyReport;
  card: TrainingCard;
  config: ModelConfig;
  /** onnxruntime-web's WebAssembly threads (1 unless the page is cross-origin isolated). */
  threads: number;
}

export async function exportCheckpointOnnx(checkpoint: Uint8Array): Promise<PageExport> {
  const tokenizer = defaultTokenizer();
  let ckpt;
  try {
    // The export and its check speak the household's vocabulary; a run of another world says so in words.
    const world = readCheckpoint(checkpoint).metadata.env;
    if (typeof world === 'string' && world !== 'household') throw new Error(`the ONNX export takes household runs only for now, and this run plays the ${world}`);
    ckpt = readCheckpoint(checkpoint, { vocabHash: tokenizer.hash });
  } catch (err) {
    if (err instanceof CheckpointError) throw new Error(`the run's checkpoint could not be read: ${err.message}`);
    throw err;
  }
  const card = trainingCardFromMetadata(ckpt.metadata, ckpt.optimizer?.step ?? 0);
  const threads = pageThreads();
  const { bytes, report } = await exportVerifiedPolicy({ config: ckpt.config, params: ckpt.params, tokenizer, card }, { threads });
  return { bytes, report, card, config: ckpt.config, threads };
}

/** A file name that says what the weights are: algorithm, updates and size. */
export function onnxFilename(card: TrainingCard, config: ModelConfig): string {
  const name = card.algorithm.replace(/[^a-z0-9_-]+/gi, '-').toLowerCase() || 'policy';
  return `seed-policy-${name}-u${card.updates}-d${config.dModel}x${config.nLayer}.onnx`;
}
