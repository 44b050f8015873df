// The two pages' design checks (page-design-flows.ts: axe-core, no word broken in a cell, each
// state at 1280x800 and 390x844 with a screenshot) in the other engines this machine can run:
// Firefox ESR over WebDriver BiDi and WebKitGTK through WebKitWebDriver. Chromium runs them in
// page-design-chromium.test.ts.
import { describe } from 'vitest';
import type { BrowserEngine } from '../helpers/browser-page.js';
import { firefoxTool as firefox, launchFirefox } from '../helpers/firefox.js';
import { consoleDesignFlows, inboxDesignFlows, VIEWPORTS, type DesignEngine, type DesignPage } from '../helpers/page-design-flows.js';
import { launchWebKit, webkitTool as webkit } from '../helpers/webkit.js';

const engines = [
  { tool: firefox(), title: 'headless Firefox ESR', launch: launchFirefox },
  { tool: webkit(), title: 'WebKitGTK', launch: launchWebKit },
];

/** One page, at one viewport: WebKitWebDriver keeps one session (one page) at a time. */
const design = (launch: () => Promise<BrowserEngine>, viewport: DesignPage['viewport']) => async (): Promise<DesignEngine> => {
  const engine = await launch();
  return {
    engine: engine.name,
    open: async () => [{ name: 'light', viewport, page: await engine.newPage(viewport) }],
    close: () => engine.close(),
  };
};

for (const { tool, title, launch } of engines) {
  for (const viewport of VIEWPORTS) {
    const at = `${viewport.width}x${viewport.height}`;
    describe.skipIf(!tool.present)(`the webhook inbox's design in ${title} at ${at}${tool.skipNote}`, () => {
      inboxDesignFlows(design(launch, viewport));
    });
    describe.skipIf(!tool.present)(`the sandbox console's design in ${title} at ${at}${tool.skipNote}`, () => {
      consoleDesignFlows(design(launch, viewport));
    });
  }
}
