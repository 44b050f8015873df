// The console page at /_sandbox/ in headless Chromium: the flow of console-flows.ts (shared
// with Firefox and WebKit in console-engines.test.ts: the live log shows a hostile request as
// text, a hostile campaign name stays text, a snapshot is saved and restored from the keyboard
// alone), and what Playwright can watch here only: the CSP and nosniff headers of the page,
// no console error, page error or dialog, and nothing loaded from another origin.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { tempDir } from '../helpers/cli.js';
import { keepScreenshot } from '../helpers/screenshots.js';
import { chromiumTool as chromium, launchChromium, playwrightPage } from '../helpers/chromium.js';
import { consoleFlow, consoleSandboxOptions } from '../helpers/console-flows.js';
import { scaled } from '../helpers/time-scale.js';

const chromiumTool = chromium();

describe.skipIf(!chromiumTool.present)(`sandbox console in headless Chromium${chromiumTool.skipNote}`, () => {
  let sandbox: Sandbox;
  let browser: Browser;
  const shots = tempDir('platform-console-shots-');

  beforeAll(async () => {
    sandbox = await startSandbox(consoleSandboxOptions);
    browser = await launchChromium();
  }, scaled(60_000));
  afterAll(async () => {
    await browser?.close();
    await sandbox?.close();
  });

  it('shows the live log, the data and hostile text as text, and saves and restores from the keyboard', { timeout: scaled(60_000) }, async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems: string[] = [];
    const origins = new Set<string>();
    const headers: Array<Record<string, string>> = [];
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('dialog', (d) => problems.push(`dialog ${d.message()}`));
    page.on('request', (r) => origins.add(new URL(r.url()).origin));
    page.on('response', (r) => r.url() === `${sandbox.url}/_sandbox/` && headers.push(r.headers()));

    await consoleFlow(playwrightPage(page), sandbox, (name) =>
      page.screenshot({ path: path.join(shots, `console-${name}.png`), fullPage: true }).then(() => {}),
    );

    expect(headers[0]?.['content-security-policy']).toContain("default-src 'self'");
    expect(headers[0]?.['x-content-type-options']).toBe('nosniff');
    expect(problems).toEqual([]);
    expect([...origins]).toEqual([sandbox.url]);
    for (const file of fs.readdirSync(shots)) keepScreenshot(path.join(shots, file), file);
    console.log(`console screenshots: ${shots}`);
  });
});
