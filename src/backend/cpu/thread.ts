// A worker thread of the CPU backend (threads.ts): it runs the items of the jobs the main thread posts,
// on views of the shared CPU heap. Its entry (thread_node_entry.ts, thread.worker.ts) provides the heap's
// memory before this module loads.
import { feedJob, sampleJob } from './decoder_jobs.ts';
import { backwardJob, forwardJob, reduceJob } from './sequence_jobs.ts';
import { controlViews, fromWire, work, type Job } from './threads.ts';

const JOBS: Record<string, Job<never>> = Object.fromEntries(
  ([forwardJob, backwardJob, reduceJob, feedJob, sampleJob] as Job<never>[]).map((job) => [job.name, job]),
);

interface JobMessage {
  job: string;
  desc: unknown;
  items: number;
  slot: number;
}

/** Serves jobs: `listen` delivers each message posted to this thread. */
export function serveThread(control: SharedArrayBuffer, listen: (handler: (message: JobMessage) => void) => void): void {
  const { words, text } = controlViews(control);
  listen((m) => work(words, text, JOBS[m.job], fromWire(m.desc) as never, m.items, m.slot));
}
