// The sandbox console page's flow (console-flows.ts) in the other browser engines this machine
// can run: Firefox (Debian's firefox-esr, over WebDriver BiDi) and WebKit (WebKitGTK through
// WebKitWebDriver, on its own Xvfb). Chromium runs the same flow in console-page.test.ts.
import path from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import type { BrowserEngine } from '../helpers/browser-page.js';
import { tempDir } from '../helpers/cli.js';
import { firefoxTool, launchFirefox } from '../helpers/firefox.js';
import { launchWebKit, webkitTool } from '../helpers/webkit.js';
import { consoleFlow, consoleSandboxOptions } from '../helpers/console-flows.js';
import { scaled } from '../helpers/time-scale.js';

const engines = [
  { tool: firefoxTool(), title: 'headless Firefox ESR', launch: launchFirefox },
  { tool: webkitTool(), title: 'WebKitGTK', launch: launchWebKit },
];

for (const { tool, title, launch } of engines) {
  describe.skipIf(!tool.present)(`sandbox console in ${title}${tool.skipNote}`, () => {
    let sandbox: Sandbox;
    let engine: BrowserEngine;
    const shots = tempDir('platform-console-shots-');

    beforeAll(async () => {
      sandbox = await startSandbox(consoleSandboxOptions);
      engine = await launch();
    }, scaled(60_000));
    afterAll(async () => {
      await engine?.close();
      await sandbox?.close();
    });

    it(
      'shows the live log, the data and hostile text as text, and saves and restores from the keyboard',
      async () => {
        const page = await engine.newPage({ width: 1280, height: 900 });
        await consoleFlow(page, sandbox, (name) => page.screenshot(path.join(shots, `console-${engine.name.toLowerCase()}-${name}.png`)));
      },
      scaled(60_000),
    );
  });
}
