import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/** COOP and COEP: the page is cross-origin isolated, so it has SharedArrayBuffer (src/isolation.ts). */
const ISOLATION_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

/** The coi-serviceworker package's service worker, beside index.html, for static hosts that send no headers. */
function coiServiceWorker(): Plugin {
  const file = createRequire(import.meta.url).resolve('coi-serviceworker/coi-serviceworker.min.js');
  return {
    name: 'coi-serviceworker',
    apply: 'build',
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'coi-serviceworker.js', source: readFileSync(file, 'utf8') });
    },
  };
}

// Relative base: the built site works from any sub-path of a static host.
export default defineConfig({
  base: './',
  plugins: [react(), coiServiceWorker()],
  build: { target: 'es2022', outDir: 'dist', sourcemap: true },
  worker: { format: 'es' },
  server: { port: 5173, headers: ISOLATION_HEADERS },
  preview: { headers: ISOLATION_HEADERS },
});
