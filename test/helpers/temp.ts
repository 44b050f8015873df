// A fresh folder under the run's temporary root (temp-root.ts), for tests of any cost: unit
// tests import it from here so they load nothing of the CLI.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export function tempDir(prefix = 'platform-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}
