// The page's handle on the training worker. The worker owns the backend, the trainer and the saved runs;
// the page only sends commands and renders the events it gets back.
import { proxy, wrap, type Remote } from 'comlink';
import type { EngineApi, EngineEvent } from '../worker/protocol.ts';

export type Engine = Remote<EngineApi>;

export function startEngine(onEvent: (event: EngineEvent) => void): { engine: Engine; worker: Worker } {
  // The worker's name is the site's root URL, where the shipped files (warm starts) are.
  const siteRoot = new URL(import.meta.env.BASE_URL, document.baseURI).href;
  const worker = new Worker(new URL('../worker/engine.worker.ts', import.meta.url), { type: 'module', name: siteRoot });
  const engine = wrap<EngineApi>(worker);
  void engine.subscribe(proxy(onEvent));
  return { engine, worker };
}
