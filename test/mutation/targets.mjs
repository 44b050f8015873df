// Which source files are mutated, and which test files are run against a mutant of each: the
// tests that import the file directly, plus the tests that drive it through the CLI.
import fs from 'node:fs';
import path from 'node:path';

/** The files whose mutants are generated (curated mutants may name others). */
export const MUTATED = /^src\/(bulk\/(?:[^/]+\/)?[^/]+|base\/(process-alive|ndjson-append)|webhooks\/(signature|hmac))\.ts$/;

/** In-process CLI tests of bulk patch/create (TestUser.run imports src: no build needed). */
const BULK_CLI = [
  'test/in-process/cli/bulk.test.ts',
  'test/in-process/cli/writes-exact.test.ts',
  'test/in-process/cli/patch-currency.test.ts',
  'test/in-process/cli/ads-writes.test.ts',
  'test/in-process/cli/round-trip-ad-groups.property.test.ts',
  'test/in-process/cli/patch-targeting-settings.test.ts',
  'test/in-process/cli/resume-in-flight.test.ts',
];
/** Reading and checking input: CSV, JSON, limits, hostile text. */
const BULK_INPUT = [
  'test/in-process/cli/bad-input.test.ts',
  'test/in-process/cli/input-limits.test.ts',
  'test/in-process/cli/hostile-input.test.ts',
  'test/in-process/cli/bad-input-text.test.ts',
];
/** The journal, resume and a run's end: process tests of the built CLI (dist/). */
const BULK_PROCESS = ['test/process/bulk-resume.test.ts', /^test\/process\/bulk-journal.*\.test\.ts$/];
const WEBHOOKS = [
  'test/unit/webhook-vectors.test.ts',
  'test/unit/webhooks.test.ts',
  'test/in-process/webhooks/verify-freshness.test.ts',
  'test/in-process/cli/webhooks.test.ts',
];

/** Extra tests by source file (regular expression over the repository path). */
const BY_SOURCE = [
  [/^src\/bulk\//, BULK_CLI],
  [/^src\/bulk\/(input\/(sources|json-items|utf8-chunks|csv-columns|row-mapping|repeated-keys)|pipeline|spool|resource-schemas)\.ts$/, BULK_INPUT],
  [/^src\/bulk\/(journal\/(journal|journal-lock|resume|resume-check)|runner|row-identity|results)\.ts$/, BULK_PROCESS],
  [/^src\/base\/(process-alive|ndjson-append)\.ts$/, BULK_PROCESS],
  [/^src\/bulk\/changes\/current\.ts$/, ['test/in-process/sandbox/current-lookup.test.ts', 'test/in-process/cli/retry.test.ts']],
  // Plans: their seals, requests and keys, the ledger, and how apply goes on with a run.
  [
    /^src\/bulk\/(plan\/[^/]+|runs\/plan-[^/]+|runner)\.ts$/,
    ['test/in-process/cli/plan-apply.test.ts', 'test/process/plan-trust.test.ts', 'test/process/apply-after-kill.test.ts'],
  ],
  [/^src\/webhooks\//, WEBHOOKS],
];

/** Slow tests never run against a mutant: the kill test takes over a minute at CI size, the inbox drives a browser. */
const EXCLUDED = new Set(['test/process/bulk-kill.test.ts', 'test/browser/inbox.test.ts']);

/** Every test file of the worktree, repository-relative. */
function testFiles(root) {
  return fs
    .readdirSync(path.join(root, 'test'), { recursive: true })
    .map((file) => path.posix.join('test', String(file).split(path.sep).join('/')))
    .filter((file) => file.endsWith('.test.ts'));
}

/** The test files to run against a mutant of `source`, and whether any of them runs the built CLI. */
export function testsFor(root, source) {
  const all = testFiles(root);
  // A direct import: '../../src/bulk/changes/merge.js' or 'src/bulk/changes/merge.js'.
  const module = source.replace(/^src\//, '').replace(/\.ts$/, '');
  const importPattern = new RegExp(`src/${module}\\.js['"]`);
  const chosen = new Set(all.filter((file) => importPattern.test(fs.readFileSync(path.join(root, file), 'utf8'))));
  for (const [pattern, tests] of BY_SOURCE) {
    if (!pattern.test(source)) continue;
    for (const test of tests) for (const file of all) if (typeof test === 'string' ? file === test : test.test(file)) chosen.add(file);
  }
  const files = [...chosen].filter((file) => !EXCLUDED.has(file)).sort();
  return { files, needsBuild: files.some((file) => file.startsWith('test/process/') || file.startsWith('test/webhooks/process')) };
}
