// Worker threads for the CPU backend in the browser: Web Workers running thread.worker.ts, started from
// the engine's own worker (nested workers share its cross-origin isolation, which SharedArrayBuffer needs).
import type { ThreadHost } from './threads.ts';

export const browserThreadHost: ThreadHost = {
  cores: globalThis.navigator?.hardwareConcurrency ?? 1,
  spawn(init) {
    const worker = new Worker(new URL('./thread.worker.ts', import.meta.url), {
      type: 'module',
      name: 'seed-cpu-thread',
    });
    worker.postMessage(init);
    return {
      started(ready, failed) {
        worker.addEventListener('message', () => ready(), { once: true });
        worker.addEventListener('error', (e) => failed(new Error(e.message || 'a CPU worker thread could not start')), {
          once: true,
        });
      },
    };
  },
};
