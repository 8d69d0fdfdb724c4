// Export, then the check that gates every download and every written file: onnxruntime-web must reproduce
// the CPU forward's logits (verify.ts) on random sequences (batch 1 and 3) and on encoded expert episodes of
// the world the weights were trained in.
// The page and the `export-onnx` command both go through here.
import { Rng } from '../common/rng.ts';
import type { Environment } from '../env/environment.ts';
import type { ModelConfig } from '../model/config.ts';
import type { Tokenizer } from '../text/tokenizer.ts';
import { cpuLogits } from './cpu_logits.ts';
import { expertEpisodeSequences } from './episodes.ts';
import { exportPolicyOnnx } from './export.ts';
import type { TrainingCard } from './metadata.ts';
import type { RuntimeOptions } from './runtime.ts';
import { describeFailures, randomCases, sequenceCases, verifyOnnx, type VerifyReport } from './verify.ts';

interface VerifiedExportInput {
  config: ModelConfig;
  params: Float32Array;
  /** The world the weights were trained in: its expert episodes are the real sequences of the check. */
  env: Environment;
  /** The vocabulary the weights were trained with (the world's); its tokens and hash go into the file. */
  tokenizer: Tokenizer;
  card: TrainingCard;
}

interface VerifiedExportOptions extends RuntimeOptions {
  /** Seed of the random token sequences. */
  seed?: number;
  /** Expert episodes used as real sequences (0 for none). */
  episodes?: number;
  seqLens?: number[];
}

export class OnnxVerificationError extends Error {
  constructor(readonly report: VerifyReport) {
    super(`onnxruntime-web's logits differ from the CPU forward: ${describeFailures(report)}`);
    this.name = 'OnnxVerificationError';
  }
}

/** The file's bytes and the passed verification; throws OnnxVerificationError when the check fails. */
export async function exportVerifiedPolicy(
  input: VerifiedExportInput,
  options: VerifiedExportOptions = {},
): Promise<{ bytes: Uint8Array; report: VerifyReport }> {
  const { config, params, env, tokenizer, card } = input;
  const bytes = exportPolicyOnnx({
    config,
    params,
    vocabulary: [...tokenizer.tokens],
    vocabularyHash: tokenizer.hash,
    card,
  });
  const cases = [
    ...randomCases(config, new Rng(options.seed ?? 1).fork('onnx-verify'), {
      batchSizes: [1, 3],
      seqLens: options.seqLens ?? [1, 16, 64],
    }),
    ...sequenceCases(
      config,
      expertEpisodeSequences(env, tokenizer, options.episodes ?? 3, config.contextLength),
      3,
      'episode',
    ),
  ];
  const report = await verifyOnnx(bytes, cpuLogits(config, params), cases, options);
  if (!report.ok) throw new OnnxVerificationError(report);
  return { bytes, report };
}
