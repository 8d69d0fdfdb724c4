// Entry of a CPU backend worker under Node (worker_threads, started by thread_node.ts): takes the heap's
// memory, then serves jobs; its first message to the parent says it is ready.
import { parentPort, workerData } from 'node:worker_threads';
import { provideHeap } from './heap_source.ts';
import type { ThreadInit } from './threads.ts';

const init = workerData as ThreadInit;
provideHeap(init.memory);
const { serveThread } = await import('./thread.ts');
serveThread(init.control, (handler) => parentPort!.on('message', handler));
parentPort!.postMessage('ready');
