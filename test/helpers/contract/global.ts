// vitest globalSetup: a directory for the per-file summaries of the contract gate, and at
// the end of the run the total: how many exchanges were validated, which operations they
// covered; the run fails when an operation the CLI implements was never exercised.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The OpenAPI operations the CLI implements: every one must be covered by the suite. */
export const CLI_OPERATIONS = [
  'get-ad-accounts',
  'get-stores',
  'get-campaigns',
  'create-campaigns',
  'update-campaigns',
  'get-ad-groups',
  'create-ad-groups',
  'update-ad-groups',
  'get-ads',
  'create-ads',
  'update-ads',
];

let dir: string;

export function setup(): void {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'platform-contract-'));
  process.env.CONTRACT_SUMMARY_DIR = dir;
}

export function teardown(): void {
  let validated = 0;
  let violations = 0;
  const covered = new Set<string>();
  for (const name of fs.readdirSync(dir)) {
    const summary = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as { validated: number; covered: string[]; violations: number };
    validated += summary.validated;
    violations += summary.violations;
    for (const id of summary.covered) covered.add(id);
  }
  fs.rmSync(dir, { recursive: true, force: true });
  // A partial run (one file, -t, the unit or heavy tier alone) covers what it covers; only a run
  // of the whole in-process tier must cover all.
  const args = process.argv.slice(process.argv.indexOf('run') + 1);
  const projects = args.flatMap((arg, i) => (args[i - 1] === '--project' ? [arg] : arg.startsWith('--project=') ? [arg.slice(10)] : []));
  const filtered = args.some((arg, i) => (!arg.startsWith('-') && args[i - 1] !== '--project') || arg === '-t' || arg.startsWith('--testNamePattern'));
  const whole = process.argv.includes('run') && !filtered && (projects.length === 0 || projects.includes('in-process'));
  console.log(
    `contract gate: ${validated} ads exchanges validated against the OpenAPI, ${violations} violations; operations covered: ${[...covered].sort().join(', ')}`,
  );
  const missing = CLI_OPERATIONS.filter((id) => !covered.has(id));
  if (whole && missing.length) throw new Error(`contract gate: no test exercised ${missing.join(', ')} (every operation the CLI implements must be covered)`);
}
