// Screenshots of the browser tests stay in each test's temp folder; PLATFORM_TEST_SCREENSHOTS
// (CONTRIBUTING) names a folder that keeps a copy of each, to look at after the run.
import fs from 'node:fs';
import path from 'node:path';

/** Copies a screenshot into PLATFORM_TEST_SCREENSHOTS as `name`, when it is set. */
export function keepScreenshot(file: string, name: string): void {
  const keep = process.env.PLATFORM_TEST_SCREENSHOTS;
  if (!keep) return;
  fs.mkdirSync(keep, { recursive: true });
  fs.copyFileSync(file, path.join(keep, name));
}
