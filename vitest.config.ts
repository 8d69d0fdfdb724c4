import { defineConfig } from 'vitest/config';

// Unit and kernel tests, in Node. Kernel tests get a real WebGPU device from the `webgpu` package (Dawn);
// scripts/with-webgpu-env.mjs points it at a Vulkan driver first.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
    // A guard against a hang, not a speed target (those live in benchmarks): far above what the slowest test
    // takes on a machine twice as slow as the one the suite is written on, with every core busy.
    testTimeout: 600_000,
    hookTimeout: 600_000,
    pool: 'forks',
  },
});
