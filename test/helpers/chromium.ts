// Headless Chromium as the suite launches it (Debian's /usr/bin/chromium, driven by
// playwright-core), and whether this machine has it (systemTool: skipped with the install
// command where absent, required under .ci/run).
import type { Browser } from 'playwright-core';
import { systemTool } from './system-tools.js';

export const CHROMIUM = '/usr/bin/chromium';

/** Call at a test file's top level: its describe blocks skip where Chromium is absent. */
export const chromiumTool = () => systemTool(CHROMIUM, 'chromium');

export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM,
    // Without the background-networking flags Chromium's own connections are refused on
    // this closed network and slow it down.
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
