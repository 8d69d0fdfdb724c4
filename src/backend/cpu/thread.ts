// A worker thread of the CPU backend (threads.ts): it runs its share of the jobs the calling thread wakes
// it for, on views of the shared CPU heap. Its entry (thread_node_entry.ts, thread.worker.ts) provides the
// heap's memory before this module loads, says it is ready, then calls serveThread, which never returns.
import { feedJob, sampleJob } from './decoder_jobs.ts';
import { backwardJob, forwardJob, reduceJob } from './sequence_jobs.ts';
import { serve, type Job, type ThreadInit } from './threads.ts';

const JOBS: Record<string, Job<never>> = Object.fromEntries(
  ([forwardJob, backwardJob, reduceJob, feedJob, sampleJob] as Job<never>[]).map((job) => [job.name, job]),
);

export function serveThread(init: ThreadInit): never {
  return serve(init.control, init.worker, JOBS);
}
