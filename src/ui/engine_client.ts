// The page's handle on the training worker. The worker owns the backend, the trainer and the saved runs;
// the page only sends commands and renders the events it gets back.
import { proxy, wrap, type Remote } from 'comlink';
import { engineWorkerName } from '../worker/engine_worker_name.ts';
import type { EngineApi, EngineEvent } from '../worker/protocol.ts';

export type Engine = Remote<EngineApi>;

/**
 * `threads`: the CPU backend's thread budget (null: every core); `keepRuns`: whether the run saves to the browser
 * and is offered for resuming (a race arm's is not).
 */
export function startEngine(
  onEvent: (event: EngineEvent) => void,
  threads: number | null = null,
  keepRuns = true,
): { engine: Engine; worker: Worker } {
  // The worker's name holds the site's root URL, where the shipped files (warm starts) are.
  const siteRoot = new URL(import.meta.env.BASE_URL, document.baseURI).href;
  const name = engineWorkerName({ siteRoot, threads, keepRuns });
  const worker = new Worker(new URL('../worker/engine.worker.ts', import.meta.url), { type: 'module', name });
  const engine = wrap<EngineApi>(worker);
  void engine.subscribe(proxy(onEvent));
  return { engine, worker };
}
