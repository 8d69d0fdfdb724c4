// Cross-origin isolation of the page, which SharedArrayBuffer and so the CPU backend's threads (and
// onnxruntime-web's) need. A host that sends COOP and COEP isolates the page by itself (`vite` and
// `vite preview` do, vite.config.ts). A static host that cannot gets them from a service worker,
// coi-serviceworker (the build puts it beside index.html), which adds the headers to every response in the
// site's folder: once it runs, the page reloads once, isolated. Where neither works, the page runs on one
// thread and the backend panel says why.
const WORKER = 'coi-serviceworker.js';
/** How long the service worker may take to start before the page runs without it. */
const READY_MS = 10_000;

/**
 * Resolves when the page may start: it is isolated, or cannot become so here. Otherwise registers the
 * service worker and reloads the page, and never resolves.
 */
export async function crossOriginIsolation(): Promise<void> {
  // true: isolated already; undefined: a browser that knows no isolation
  if (globalThis.crossOriginIsolated !== false) return;
  const sw = globalThis.navigator?.serviceWorker;
  if (!globalThis.isSecureContext || sw === undefined) return;
  // A page the worker controls that is still not isolated: this browser isolates no page this way.
  if (sw.controller) return;
  try {
    await sw.register(new URL(WORKER, document.baseURI));
    const ready = await Promise.race([
      sw.ready.then(() => true),
      new Promise<boolean>((done) => setTimeout(() => done(false), READY_MS)),
    ]);
    if (!ready) return;
  } catch {
    return;
  }
  location.reload();
  await new Promise<never>(() => {});
}
