// The webhook inbox's core flows (inbox-flows.ts) in the other browser engines this machine
// can run: Firefox (Debian's firefox-esr, over WebDriver BiDi) and WebKit (WebKitGTK through
// WebKitWebDriver, on its own Xvfb). Chromium runs the same flows in inbox.test.ts.
import { describe } from 'vitest';
import { firefoxTool as firefox, launchFirefox } from '../helpers/firefox.js';
import { launchWebKit, webkitTool as webkit } from '../helpers/webkit.js';
import { inboxCoreFlows, inboxSession } from '../helpers/inbox-flows.js';

const firefoxTool = firefox();
const webkitTool = webkit();

describe.skipIf(!firefoxTool.present)(`webhooks listen --inspect in headless Firefox ESR${firefoxTool.skipNote}`, () => {
  inboxCoreFlows(inboxSession(launchFirefox));
});

describe.skipIf(!webkitTool.present)(`webhooks listen --inspect in WebKitGTK${webkitTool.skipNote}`, () => {
  inboxCoreFlows(inboxSession(launchWebKit));
});
