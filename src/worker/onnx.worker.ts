// The ONNX worker: export with verification, and greedy play of an opened file, off the page's main thread
// (the CPU forward and onnxruntime-web's WebAssembly each take hundreds of milliseconds at a time on the
// larger presets). Calls run one at a time, in the order they came.
import { expose, transfer } from 'comlink';
import { messageOf } from '../common/errors.ts';
import { OnnxVerificationError } from '../onnx/verified_export.ts';
import { exportCheckpointOnnx, onnxFilename } from './onnx_export.ts';
import { openPolicyFile, playEvalGame, playSettingsOf, PolicyFileError, type OpenedPolicy } from './onnx_run.ts';
import type { ExportOutcome, OnnxWorkerApi, OpenOutcome } from './onnx_protocol.ts';

let queue: Promise<unknown> = Promise.resolve();
function serial<T>(task: () => Promise<T>): Promise<T> {
  const run = queue.then(task, task);
  queue = run.catch(() => undefined);
  return run;
}

let opened: OpenedPolicy | null = null;

const api: OnnxWorkerApi = {
  exportCheckpoint: (checkpoint) =>
    serial(async (): Promise<ExportOutcome> => {
      try {
        const result = await exportCheckpointOnnx(checkpoint);
        const outcome: ExportOutcome = { ok: true, result, filename: onnxFilename(result.card, result.config) };
        return transfer(outcome, [result.bytes.buffer]);
      } catch (err) {
        return { ok: false, message: messageOf(err), report: err instanceof OnnxVerificationError ? err.report : null };
      }
    }),

  open: (bytes) =>
    serial(async (): Promise<OpenOutcome> => {
      await opened?.session.release();
      opened = null;
      try {
        opened = await openPolicyFile(bytes);
      } catch (err) {
        return {
          ok: false,
          message: err instanceof PolicyFileError ? err.message : `The file could not be run: ${messageOf(err)}.`,
        };
      }
      const { config, card, opsetVersion } = opened.policy;
      const { env } = opened;
      const world = { name: env.name, scale: env.variant, evalCounts: env.evalCounts };
      return {
        ok: true,
        policy: { config, card, opsetVersion, bytes: bytes.length, play: playSettingsOf(card, env.name), world },
      };
    }),

  play: (request, onStep) =>
    serial(async () => {
      if (!opened) throw new Error('no policy file is open');
      return playEvalGame(opened, request, onStep);
    }),
};

expose(api);
