// onnxruntime-web's WebAssembly threads need SharedArrayBuffer, which a browser grants only to a
// cross-origin isolated page (COOP and COEP headers); a static host rarely sends them, so one thread there.

export function pageThreads(): number {
  if (!globalThis.crossOriginIsolated) return 1;
  return Math.max(1, Math.min(4, globalThis.navigator?.hardwareConcurrency ?? 1));
}
