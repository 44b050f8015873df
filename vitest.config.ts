import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores: keep the file-level parallelism modest so servers on port 0 are not starved.
    maxWorkers: 2,
    // The contract gate: CLI exchanges recorded in front of test sandboxes are checked against the OpenAPI.
    setupFiles: ['test/helpers/contract/gate.ts'],
    // The contract gate's summaries stay outside the run's temporary folder, which goes first at the end.
    globalSetup: ['test/helpers/contract/global.ts', 'test/helpers/temp-root.ts'],
  },
});
