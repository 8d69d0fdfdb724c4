// The page's ONNX export, loaded on demand (it brings onnxruntime-web and its 14 MB WebAssembly file): a
// checkpoint of the run becomes an .onnx file only after onnxruntime-web has run that file and matched the
// CPU forward within LOGITS_TOLERANCE on random and real token sequences (onnx/verified_export.ts).
import type { Environment } from '../env/environment.ts';
import { environmentOf } from '../worlds/environments.ts';
import { factsOf, theWorld } from '../worlds/facts.ts';
import { DEFAULT_WORLD, isEnvironmentName } from '../worlds/names.ts';
import { type Checkpoint, CheckpointError, readCheckpoint } from '../model/checkpoint.ts';
import type { ModelConfig } from '../model/config.ts';
import { trainingCardFromMetadata } from '../onnx/card.ts';
import type { TrainingCard } from '../onnx/metadata.ts';
import { exportVerifiedPolicy } from '../onnx/verified_export.ts';
import type { VerifyReport } from '../onnx/verify.ts';
import { tokenizerOf } from '../text/tokenizer.ts';
import { pageThreads } from './onnx_threads.ts';

export interface PageExport {
  bytes: Uint8Array;
  report: VerifyReport;
  card: TrainingCard;
  config: ModelConfig;
  /** onnxruntime-web's WebAssembly threads (1 unless the page is cross-origin isolated). */
  threads: number;
}

/**
 * The world a run's checkpoint names (metadata env and scale, as run checkpoints and warm starts write them; a
 * household run's names none), refused in words when it names no world of this build.
 */
function worldOfRun(metadata: Record<string, unknown>) {
  const name = metadata.env ?? DEFAULT_WORLD;
  if (typeof name !== 'string' || !isEnvironmentName(name))
    throw new Error(`the run's checkpoint names the world ${JSON.stringify(name)}, which this page does not know`);
  const scale = metadata.scale ?? 'tiny';
  if (typeof scale !== 'string' || !factsOf(name).variants.includes(scale))
    throw new Error(
      `the run's checkpoint names ${theWorld(name)}'s scale ${JSON.stringify(scale)}, which this page does not know`,
    );
  return environmentOf(name, scale);
}

export async function exportCheckpointOnnx(checkpoint: Uint8Array): Promise<PageExport> {
  let ckpt: Checkpoint;
  let env: Environment;
  try {
    env = worldOfRun(readCheckpoint(checkpoint).metadata);
    ckpt = readCheckpoint(checkpoint, { vocabHash: tokenizerOf(env).hash });
  } catch (err) {
    if (err instanceof CheckpointError) throw new Error(`the run's checkpoint could not be read: ${err.message}`);
    throw err;
  }
  const tokenizer = tokenizerOf(env);
  const card = trainingCardFromMetadata(ckpt.metadata, ckpt.optimizer?.step ?? 0);
  const threads = pageThreads();
  const { bytes, report } = await exportVerifiedPolicy(
    { config: ckpt.config, params: ckpt.params, env, tokenizer, card },
    { threads },
  );
  return { bytes, report, card, config: ckpt.config, threads };
}

/** A file name that says what the weights are: the world (unless the default one, which files leave unnamed), algorithm, updates and size. */
export function onnxFilename(card: TrainingCard, config: ModelConfig): string {
  const slug = (text: string) => text.replace(/[^a-z0-9_-]+/gi, '-').toLowerCase();
  const name = slug(card.algorithm) || 'policy';
  const world = card.extra?.env;
  const prefix = typeof world === 'string' && world !== DEFAULT_WORLD ? `${slug(world)}-` : '';
  return `seed-policy-${prefix}${name}-u${card.updates}-d${config.dModel}x${config.nLayer}.onnx`;
}
