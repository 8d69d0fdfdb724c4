// Worker threads for the CPU backend under Node (the CLI, the tests): worker_threads running
// thread_node_entry.ts, compiled on the fly by tsx as the CLI's own modules are (its loader registered in
// the worker first: a worker does not take the loader options of the process that starts it).
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ThreadHost } from './threads.ts';

const tsxApi = pathToFileURL(
  join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist', 'esm', 'api', 'index.mjs'),
).href;
const entry = new URL('./thread_node_entry.ts', import.meta.url).href;
const bootstrap = `import(${JSON.stringify(tsxApi)}).then((tsx) => tsx.register()).then(() => import(${JSON.stringify(entry)}))`;

export const nodeThreadHost: ThreadHost = {
  cores: availableParallelism(),
  spawn(init) {
    const worker = new Worker(bootstrap, { eval: true, workerData: init });
    // an idle pool must not keep the process alive
    worker.unref();
    return {
      started(ready, failed) {
        worker.once('message', ready);
        worker.once('error', failed);
      },
    };
  },
};
