// What the ONNX worker (onnx.worker.ts) offers the page. Outcomes that the page shows (a failed check with
// its report, a refused file with its reason) come back as values, not as thrown errors, so that nothing of
// them is lost on the way through postMessage.
import type { EnvironmentName } from '../worlds/names.ts';
import type { ModelConfig } from '../model/config.ts';
import type { TrainingCard } from '../onnx/metadata.ts';
import type { VerifyReport } from '../onnx/verify.ts';
import type { GreedyEpisode, GreedyStep } from '../onnx/greedy_episode.ts';
import type { PageExport } from './onnx_export.ts';
import type { PlayRequest, PlaySettings } from './onnx_run.ts';

export type ExportOutcome =
  | { ok: true; result: PageExport; filename: string }
  | { ok: false; message: string; report: VerifyReport | null };

export interface PolicySummary {
  config: ModelConfig;
  card: TrainingCard;
  opsetVersion: number;
  bytes: number;
  /** How the training run played (from the card), the run view's starting settings. */
  play: PlaySettings;
  /** The world the policy plays (its vocabulary's), at its scale, and the size of each eval split. */
  world: { name: EnvironmentName; scale: string; evalCounts: Readonly<Record<'seen' | 'unseen', number>> };
}

export type OpenOutcome = { ok: true; policy: PolicySummary } | { ok: false; message: string };

export interface OnnxWorkerApi {
  /** The run's checkpoint as a verified .onnx file, or why there is none. */
  exportCheckpoint(checkpoint: Uint8Array): Promise<ExportOutcome>;
  /** Opens an .onnx file for play (releasing the one opened before). */
  open(bytes: Uint8Array): Promise<OpenOutcome>;
  /** One greedy episode of the opened policy; onStep is called after every step. */
  play(request: PlayRequest, onStep: (step: GreedyStep, index: number) => void): Promise<GreedyEpisode>;
}
