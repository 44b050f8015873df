// Test folders say what their tests cost (CONTRIBUTING.md, Set up and checks): a unit test
// loads nothing of the CLI or the sandbox and starts no process; an in-process test starts no
// process; only the browser and heavy tiers drive a browser. Read from the imports of each test
// file and of the test helpers it reaches (src/ is not followed: what the CLI may do is not
// what a test does).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const PROCESS = ['node:child_process'];
const BROWSER = ['playwright-core', 'puppeteer-core', 'selenium-webdriver'];
const CLI_OR_SANDBOX = ['src/cli.ts', 'src/sandbox/index.ts'];

/** Every module a file reaches through test/ files: bare names and repository paths. */
function reach(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  if (!file.startsWith('test/')) return seen;
  const text = fs.readFileSync(path.join(root, file), 'utf8');
  for (const [, spec] of text.matchAll(/(?:from\s+|import\s+|import\(\s*)'([^']+)'/g)) {
    if (!spec!.startsWith('.')) {
      seen.add(spec!);
      continue;
    }
    const target = path.relative(root, path.resolve(root, path.dirname(file), spec!)).replace(/\.js$/, '.ts');
    reach(fs.existsSync(path.join(root, target)) ? target : target.replace(/\.ts$/, '.mjs'), seen);
  }
  return seen;
}

const testsIn = (tier: string) =>
  fs
    .readdirSync(path.join(root, 'test', tier), { recursive: true })
    .map((name) => `test/${tier}/${String(name)}`)
    .filter((name) => name.endsWith('.test.ts'));

const offending = (tier: string, forbidden: string[]) =>
  testsIn(tier).flatMap((file) => [...reach(file)].filter((m) => forbidden.includes(m)).map((m) => `${file} reaches ${m}`));

describe('test tiers', () => {
  it('unit tests start no process, load neither the CLI nor the sandbox, and drive no browser', () => {
    expect(offending('unit', [...PROCESS, ...CLI_OR_SANDBOX, ...BROWSER])).toEqual([]);
  });
  it('in-process tests start no process and drive no browser', () => {
    expect(offending('in-process', [...PROCESS, ...BROWSER])).toEqual([]);
  });
  it('process tests drive no browser', () => {
    expect(offending('process', BROWSER)).toEqual([]);
  });
});
