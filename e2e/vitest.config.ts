import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { HOOK_MS, POLL_MS, STATE_MS, TEST_MS } from './wait.ts';

// End-to-end specs: Playwright (playwright-core) drives Debian's Chromium against the BUILT site, served
// by global_setup.ts under a sub-path. `npm run test:e2e` builds first. Every time limit comes from wait.ts.
export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    include: ['e2e/**/*.spec.ts'],
    globalSetup: ['e2e/global_setup.ts'],
    environment: 'node',
    pool: 'forks',
    // One browser at a time: two cores, and SwiftShader uses them all.
    fileParallelism: false,
    testTimeout: TEST_MS,
    hookTimeout: HOOK_MS,
    expect: { poll: { timeout: STATE_MS, interval: POLL_MS } },
  },
});
