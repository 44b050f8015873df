// vitest globalSetup: every temporary file of the run (test users' config folders, the CLI's
// spools, killed runs' leftovers, browser profiles) goes under one folder, removed at the
// end, so a run leaves nothing behind in the machine's temporary directory.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

let root: string | undefined;
let previous: string | undefined;

export function setup(): void {
  previous = process.env.TMPDIR;
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'platform-tests-'));
  // Read by os.tmpdir() in the workers and by every process the tests start.
  process.env.TMPDIR = root;
}

export function teardown(): void {
  if (previous === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = previous;
  if (root) fs.rmSync(root, { recursive: true, force: true });
}
