// The inbox and the console checked as a user looks at them, in headless Chromium
// (page-design-flows.ts; Firefox and WebKit run the same flows in inbox-console-design.test.ts).
// In the heavy tier with them: 10 states, 3 pages each, cost about 40 s of a core, which took
// README's command past 4 minutes. Each state at
// 1280x800 and 390x844, and at 1280x800 in dark mode; axe-core, broken words and cut cells
// measured in the page; screenshots in .tmp/screenshots/chromium/ (printed at the end).
import { describe } from 'vitest';
import type { Browser } from 'playwright-core';
import { chromiumTool as chromium, launchChromium, playwrightPage } from '../helpers/chromium.js';
import { consoleDesignFlows, inboxDesignFlows, VIEWPORTS, type DesignEngine } from '../helpers/page-design-flows.js';

const chromiumTool = chromium();

async function chromiumDesign(): Promise<DesignEngine> {
  const browser: Browser = await launchChromium();
  return {
    engine: 'Chromium',
    open: async () => [
      ...(await Promise.all(
        VIEWPORTS.map(async (viewport) => ({ name: 'light', viewport, page: playwrightPage(await browser.newPage({ viewport, colorScheme: 'light' })) })),
      )),
      { name: 'dark', viewport: VIEWPORTS[0], page: playwrightPage(await browser.newPage({ viewport: VIEWPORTS[0], colorScheme: 'dark' })) },
    ],
    close: () => browser.close(),
  };
}

describe.skipIf(!chromiumTool.present)(`the webhook inbox's design in headless Chromium${chromiumTool.skipNote}`, () => {
  inboxDesignFlows(chromiumDesign);
});

describe.skipIf(!chromiumTool.present)(`the sandbox console's design in headless Chromium${chromiumTool.skipNote}`, () => {
  consoleDesignFlows(chromiumDesign);
});
