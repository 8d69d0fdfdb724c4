// The page's handle on the ONNX worker: started at the first export or opened file, shared by both panels.
// A worker that fails (its script did not load, or it crashed) fails every call with a message, instead of
// leaving the call waiting for an answer that never comes.
import { wrap, type Remote } from 'comlink';
import type { OnnxWorkerApi } from '../../worker/onnx_protocol.ts';

interface Started {
  api: Remote<OnnxWorkerApi>;
  failure: Promise<never>;
}

let started: Started | null = null;

function start(): Started {
  const worker = new Worker(new URL('../../worker/onnx.worker.ts', import.meta.url), { type: 'module', name: 'onnx' });
  const failure = new Promise<never>((_, fail) => {
    worker.addEventListener('error', (e) =>
      fail(new Error(`the ONNX worker failed: ${e.message || 'its script could not be loaded'}`)),
    );
  });
  failure.catch(() => undefined);
  return { api: wrap<OnnxWorkerApi>(worker), failure };
}

export function withOnnxWorker<T>(call: (api: Remote<OnnxWorkerApi>) => Promise<T>): Promise<T> {
  started ??= start();
  return Promise.race([call(started.api), started.failure]);
}
