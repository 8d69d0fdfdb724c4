import { defineConfig } from 'vitest/config';

// Unit and kernel tests, in Node. Kernel tests get a real WebGPU device from the `webgpu` package (Dawn);
// scripts/with-webgpu-env.mjs points it at a Vulkan driver first.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
