// Entry of a CPU backend worker in the browser (started by thread_browser.ts): its first message carries
// the heap's memory and the control block; it then serves jobs, and says so first.
import { provideHeap } from './heap_source.ts';
import type { ThreadInit } from './threads.ts';

const scope = self as unknown as DedicatedWorkerGlobalScope;

scope.addEventListener(
  'message',
  async (event: MessageEvent<ThreadInit>) => {
    provideHeap(event.data.memory);
    const { serveThread } = await import('./thread.ts');
    serveThread(event.data.control, (handler) => scope.addEventListener('message', (e) => handler(e.data)));
    scope.postMessage('ready');
  },
  { once: true },
);
