import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores: keep the file-level parallelism modest so servers on port 0 are not starved.
    maxWorkers: 2,
  },
});
