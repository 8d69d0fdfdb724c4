// The CPU backend's threads: a pool of workers that share the CPU heap (heap.ts) with this thread, and a
// fork-join `parallelFor` over the items of a job (sequences of a batch, gradient groups, decoder streams).
//
// A job's items are independent and each is computed the same way whichever thread runs it, and the jobs
// fix every sum that spans items (gradient groups are summed in group order), so results do not depend on
// the number of threads, bit for bit. Items are claimed one at a time from a shared counter, so a slow
// thread takes fewer.
//
// How workers start is the host's business (thread_node.ts: worker_threads; thread_browser.ts: Web Workers);
// without a host, or where the heap is not shared (a page that is not cross-origin isolated), or where a
// thread may not block (a page's main thread), everything runs on the calling thread. The calling thread
// works too, then blocks (Atomics.wait) until the workers are done: a backend call is synchronous inside.
import { heapIsShared, heapMemory } from './heap.ts';
import { post, read } from './mailbox.ts';

/** A job the workers know by name (thread.ts registers every job). */
export interface Job<D> {
  readonly name: string;
  run(desc: D, item: number): void;
}

export interface ThreadInit {
  memory: WebAssembly.Memory;
  control: SharedArrayBuffer;
  /** The worker's index in the pool (its wake-up word). */
  worker: number;
}

interface ThreadPort {
  /** Calls `ready` once the thread serves jobs, `failed` if it could not start. */
  started(ready: () => void, failed: (err: Error) => void): void;
}

export interface ThreadHost {
  /** Logical cores of the machine. */
  readonly cores: number;
  spawn(init: ThreadInit): ThreadPort;
}

/** The most threads a backend uses. */
export const MAX_THREADS = 16;
/** How long a new worker may take to start before the backend runs without it. */
const START_TIMEOUT_MS = 60_000;

// Control words (Int32) of the shared control block: the job's counters and where its description lies,
// a wake-up word per worker, then per participant (0 is the calling thread) an error record.
const NEXT = 0; // the next unclaimed item
const DONE = 1;
const FAILED = 2;
const ITEMS = 3;
const MAIL_AT = 4;
const MAIL_JSON = 5;
const WAKE = 8; // WAKE + w: bumped to start worker w on the job
const ERRORS = WAKE + MAX_THREADS; // participant p: [item, kind, length] at ERRORS + 4p, its text at TEXT + ERROR_CHARS p (UTF-16)
const ERROR_CHARS = 512;
const TEXT_BYTE = 4 * (ERRORS + 4 * (MAX_THREADS + 1));
const CONTROL_BYTES = TEXT_BYTE + 2 * ERROR_CHARS * (MAX_THREADS + 1);
const ERROR_KINDS = [Error, RangeError, TypeError] as const;
/**
 * How long a worker keeps checking its wake-up word after a job before it sleeps: a decoder's steps often
 * come less than that apart, and a sleeping thread takes longer to wake; longer would take cores from other
 * processes on a busy machine.
 */
const SPIN_MS = 0.2;

let host: ThreadHost | null = null;
let chosen: number | null = null;

/** Installs how workers start (once per process or page); null removes it. */
export function installThreadHost(next: ThreadHost | null): void {
  host = next;
}

/** The thread count of backends made from now on (1 .. MAX_THREADS); by default, the machine's cores. */
export function setCpuThreads(n: number): void {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`threads must be a positive integer, got ${n}`);
  chosen = Math.min(n, MAX_THREADS);
}

/** Why the CPU backend runs on one thread here, or null when it may use more. */
export function singleThreadReason(): string | null {
  if (!heapIsShared) return 'the page is not cross-origin isolated (no SharedArrayBuffer)';
  if (!mayBlock()) return "this thread may not block (a page's main thread)";
  if (host === null) return 'no way to start worker threads here';
  return null;
}

/** Threads a backend made now uses: the set count, or the machine's cores, capped; 1 where threads are unavailable. */
export function cpuThreads(): number {
  if (singleThreadReason() !== null) return 1;
  return chosen ?? Math.min(host!.cores, MAX_THREADS);
}

function mayBlock(): boolean {
  const g = globalThis as { window?: unknown; process?: { versions?: { node?: string } } };
  return g.window === undefined || g.process?.versions?.node !== undefined;
}

/** The control block's views: its words and its error texts. */
function controlViews(control: SharedArrayBuffer): { words: Int32Array; text: Uint16Array } {
  return { words: new Int32Array(control, 0, TEXT_BYTE / 4), text: new Uint16Array(control, TEXT_BYTE) };
}

class Pool {
  readonly control = new SharedArrayBuffer(CONTROL_BYTES);
  readonly words: Int32Array;
  readonly text: Uint16Array;
  private readonly ports: ThreadPort[] = [];
  private readonly ready: Promise<boolean>[] = [];
  /** Workers known to serve jobs. */
  usable = 0;

  constructor(private readonly host: ThreadHost) {
    ({ words: this.words, text: this.text } = controlViews(this.control));
  }

  /** Starts workers up to k; resolves to how many of the first k serve jobs. */
  async start(k: number): Promise<number> {
    while (this.ports.length < k) {
      const port = this.host.spawn({ memory: heapMemory, control: this.control, worker: this.ports.length });
      this.ports.push(port);
      this.ready.push(
        new Promise<boolean>((resolve) => {
          const timer = setTimeout(() => resolve(false), START_TIMEOUT_MS);
          port.started(
            () => {
              clearTimeout(timer);
              resolve(true);
            },
            () => {
              clearTimeout(timer);
              resolve(false);
            },
          );
        }),
      );
    }
    const ok = await Promise.all(this.ready.slice(0, k));
    const usable = ok.indexOf(false);
    this.usable = usable < 0 ? k : usable;
    return this.usable;
  }
}

let pool: Pool | null = null;

/**
 * Starts the workers `threads` threads need, ahead of the first job (a page's worker must return to its
 * event loop for the workers it starts to run), and resolves to how many threads will work: fewer where
 * threads are unavailable or a worker does not start.
 */
export async function startThreads(threads: number): Promise<number> {
  const want = Math.min(threads, MAX_THREADS) - 1;
  if (want <= 0 || host === null || singleThreadReason() !== null) return 1;
  pool ??= new Pool(host);
  return 1 + (pool.usable >= want ? want : await pool.start(want));
}

/**
 * Runs job.run(desc, i) for every item i < items on up to `threads` threads, this one included, and returns
 * when all are done. An error in an item is thrown here (the one of the lowest item when several fail),
 * after every thread has stopped; the items not yet started are skipped.
 */
export async function parallelFor<D>(job: Job<D>, desc: D, items: number, threads: number): Promise<void> {
  const want = Math.min(threads, items, MAX_THREADS) - 1;
  const workers = want > 0 ? (await startThreads(want + 1)) - 1 : 0;
  if (workers === 0) {
    for (let i = 0; i < items; i++) job.run(desc, i);
    return;
  }
  const p = pool!;
  const mail = post({ job: job.name, desc });
  p.words.fill(0, NEXT, FAILED + 1);
  p.words.fill(0, ERRORS, ERRORS + 4 * (workers + 1));
  p.words[ITEMS] = items;
  p.words[MAIL_AT] = mail.at;
  p.words[MAIL_JSON] = mail.json;
  for (let w = 0; w < workers; w++) {
    Atomics.add(p.words, WAKE + w, 1);
    Atomics.notify(p.words, WAKE + w);
  }
  work(p.words, p.text, job, desc, items, 0);
  for (let done = Atomics.load(p.words, DONE); done < workers + 1; done = Atomics.load(p.words, DONE))
    Atomics.wait(p.words, DONE, done);
  if (Atomics.load(p.words, FAILED)) throw firstError(p.words, p.text, workers + 1);
}

/** One participant's share of a job: claim items until none is left, then report done. */
function work<D>(words: Int32Array, text: Uint16Array, job: Job<D>, desc: D, items: number, slot: number): void {
  try {
    for (;;) {
      if (Atomics.load(words, FAILED)) break;
      const i = Atomics.add(words, NEXT, 1);
      if (i >= items) break;
      try {
        job.run(desc, i);
      } catch (err) {
        record(words, text, slot, i, err);
        Atomics.store(words, FAILED, 1);
      }
    }
  } finally {
    Atomics.add(words, DONE, 1);
    Atomics.notify(words, DONE);
  }
}

function record(words: Int32Array, text: Uint16Array, slot: number, item: number, err: unknown): void {
  const at = ERRORS + 4 * slot;
  if (words[at + 2] > 0 && words[at] <= item) return;
  const message = err instanceof Error ? err.message : String(err);
  const kind = ERROR_KINDS.findIndex((k) => err instanceof Error && err.constructor === k);
  const n = Math.min(message.length, ERROR_CHARS);
  for (let c = 0; c < n; c++) text[ERROR_CHARS * slot + c] = message.charCodeAt(c);
  words[at] = item;
  words[at + 1] = Math.max(0, kind);
  words[at + 2] = n + 1;
}

function firstError(words: Int32Array, text: Uint16Array, participants: number): Error {
  let best = -1;
  for (let s = 0; s < participants; s++) {
    const at = ERRORS + 4 * s;
    if (words[at + 2] > 0 && (best < 0 || words[at] < words[ERRORS + 4 * best])) best = s;
  }
  if (best < 0) return new Error('a CPU worker thread failed');
  const at = ERRORS + 4 * best;
  const message = String.fromCharCode(...text.subarray(ERROR_CHARS * best, ERROR_CHARS * best + words[at + 2] - 1));
  return new ERROR_KINDS[words[at + 1]](message);
}

/**
 * Serves jobs on a worker thread (thread.ts): sleeps on its wake-up word, runs its share of each job it is
 * woken for, and never returns. `jobs` are the jobs it knows by name.
 */
export function serve(control: SharedArrayBuffer, worker: number, jobs: Record<string, Job<never>>): never {
  const { words, text } = controlViews(control);
  const wake = WAKE + worker;
  // 0, not the word's value now: the first job may be posted as soon as the worker has said it is ready
  let seen = 0;
  for (;;) {
    const spinStart = performance.now();
    for (let spin = 1; Atomics.load(words, wake) === seen; spin++)
      if ((spin & 255) === 0 && performance.now() - spinStart > SPIN_MS) break;
    while (Atomics.load(words, wake) === seen) Atomics.wait(words, wake, seen);
    seen = Atomics.load(words, wake);
    let m: { job: string; desc: never };
    try {
      m = read(words[MAIL_AT], words[MAIL_JSON]) as typeof m;
      if (!jobs[m.job]) throw new Error(`a CPU worker thread knows no job "${m.job}"`);
    } catch (err) {
      // the caller must not wait for this worker forever: fail the job and report it done
      record(words, text, worker + 1, 0, err);
      Atomics.store(words, FAILED, 1);
      Atomics.add(words, DONE, 1);
      Atomics.notify(words, DONE);
      continue;
    }
    work(words, text, jobs[m.job], m.desc, words[ITEMS], worker + 1);
  }
}

/** Splits n items into at most `parts` contiguous ranges of near-equal size: range i is [starts[i], starts[i + 1]). */
export function ranges(n: number, parts: number): number[] {
  const k = Math.max(1, Math.min(n, parts));
  return Array.from({ length: k + 1 }, (_, i) => Math.round((i * n) / k));
}
