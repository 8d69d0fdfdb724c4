// Entry of a CPU backend worker under Node (worker_threads, started by thread_node.ts): takes the heap's
// memory, says it is ready, then serves jobs for good (waking on the shared control block, not on messages).
import { parentPort, workerData } from 'node:worker_threads';
import { provideHeap } from './heap_source.ts';
import type { ThreadInit } from './threads.ts';

const init = workerData as ThreadInit;
provideHeap(init.memory);
const { serveThread } = await import('./thread.ts');
parentPort!.postMessage('ready');
serveThread(init);
