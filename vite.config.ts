import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// Relative base: the built site works from any sub-path of a static host.
export default defineConfig({
  base: './',
  plugins: [react()],
  build: { target: 'es2022', outDir: 'dist', sourcemap: true },
  worker: { format: 'es' },
  server: { port: 5173 },
});
