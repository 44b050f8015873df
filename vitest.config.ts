import { defineConfig } from 'vitest/config';
import { scaled } from './test/helpers/time-scale.js';

// The suite in tiers by what a test costs, one folder each (CONTRIBUTING.md, Tests):
//   npm run test:unit   unit                  no process, no server, no build: the inner loop
//   npm test            unit, in-process, process, browser   README's command
//   npm run test:heavy  heavy                 scale and third-party engines (.ci/run runs it after)
// Deadlines scale with PLATFORM_TEST_TIME_SCALE (test/helpers/time-scale.ts).
export default defineConfig({
  test: {
    testTimeout: scaled(30_000),
    hookTimeout: scaled(30_000),
    // Two cores: keep the file-level parallelism modest so servers on port 0 are not starved.
    maxWorkers: 2,
    // The contract gate: CLI exchanges recorded in front of test sandboxes are checked against the OpenAPI.
    setupFiles: ['test/helpers/contract/gate.ts'],
    // The contract gate's summaries stay outside the run's temporary folder, which goes first at the end.
    globalSetup: ['test/helpers/contract/global.ts', 'test/helpers/temp-root.ts'],
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      { extends: true, test: { name: 'in-process', include: ['test/in-process/**/*.test.ts'] } },
      { extends: true, test: { name: 'process', include: ['test/process/**/*.test.ts'] } },
      { extends: true, test: { name: 'browser', include: ['test/browser/**/*.test.ts'] } },
      { extends: true, test: { name: 'heavy', include: ['test/heavy/**/*.test.ts'] } },
    ],
  },
});
