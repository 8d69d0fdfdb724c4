// What the page tells an engine worker before its first message, through the worker's name: the site's root
// URL (where the shipped warm starts are, since the worker's own script lives elsewhere), and for a race arm
// how many CPU threads it may use and that its run is not kept in the browser's saved runs. A plain URL is the
// name of the page's own engine, as before races existed.

export interface EngineWorkerOptions {
  siteRoot: string;
  /** The CPU backend's thread budget (races give each arm half the cores); null: the machine's cores. */
  threads: number | null;
  /** Whether the run checkpoints to IndexedDB and is offered for resuming; race arms are not. */
  keepRuns: boolean;
}

export function engineWorkerName(options: EngineWorkerOptions): string {
  if (options.threads === null && options.keepRuns) return options.siteRoot;
  return JSON.stringify(options);
}

/** The options a worker was started with; a name that is not ours (a worker opened by hand) keeps the defaults at `fallback`. */
export function engineWorkerOptions(name: string, fallback: string): EngineWorkerOptions {
  if (!name.startsWith('{')) return { siteRoot: name || fallback, threads: null, keepRuns: true };
  const parsed = JSON.parse(name) as Partial<EngineWorkerOptions>;
  const threads =
    typeof parsed.threads === 'number' && Number.isInteger(parsed.threads) && parsed.threads >= 1
      ? parsed.threads
      : null;
  return {
    siteRoot: typeof parsed.siteRoot === 'string' ? parsed.siteRoot : fallback,
    threads,
    keepRuns: parsed.keepRuns !== false,
  };
}
