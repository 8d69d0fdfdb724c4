// Entry of a CPU backend worker in the browser (started by thread_browser.ts): its one message carries the
// heap's memory and the control block; it says it is ready, then serves jobs for good (waking on the shared
// control block, not on messages).
import { provideHeap } from './heap_source.ts';
import type { ThreadInit } from './threads.ts';

const scope = self as unknown as DedicatedWorkerGlobalScope;

scope.addEventListener(
  'message',
  async (event: MessageEvent<ThreadInit>) => {
    provideHeap(event.data.memory);
    const { serveThread } = await import('./thread.ts');
    scope.postMessage('ready');
    serveThread(event.data);
  },
  { once: true },
);
