import { defineConfig } from 'vitest/config';
import { scaled } from './test/helpers/time-scale.js';

// The suite in tiers by what a test costs, one folder each (CONTRIBUTING.md, Tests):
//   npm run test:unit   unit                                no process, no server, no build: the inner loop
//   npm test            unit, in-process, process, browser  README's command
//   npm run test:heavy  heavy                               scale and third-party engines (.ci/run runs it after)
// Deadlines scale with PLATFORM_TEST_TIME_SCALE (test/helpers/time-scale.ts).
const tier = (name: string) => ({
  test: {
    name,
    include: [`test/${name}/**/*.test.ts`],
    // A worker keeps the modules it has loaded from one test file to the next (each file still runs
    // afresh): no module holds state (CONTRIBUTING.md, Style), and a fresh import of the CLI and the
    // sandbox per file cost about 5 s of a core each. The heavy tier keeps vitest's isolation.
    isolate: name === 'heavy',
    testTimeout: scaled(30_000),
    hookTimeout: scaled(30_000),
    // expect.poll's own default is a fixed second.
    expect: { poll: { timeout: scaled(5_000) } },
    // The contract gate: CLI exchanges recorded in front of test sandboxes are checked against the OpenAPI.
    setupFiles: ['test/helpers/contract/gate.ts'],
  },
});

export default defineConfig({
  test: {
    // Two cores: keep the file-level parallelism modest so servers on port 0 are not starved.
    maxWorkers: 2,
    // Once for the whole run, not per tier: the contract gate's summaries (kept outside the run's
    // temporary folder, which goes first at the end) and that temporary folder.
    globalSetup: ['test/helpers/contract/global.ts', 'test/helpers/temp-root.ts'],
    projects: ['unit', 'in-process', 'process', 'browser', 'heavy'].map(tier),
  },
});
