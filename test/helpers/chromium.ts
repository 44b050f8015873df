// Headless Chromium as the suite launches it (Debian's /usr/bin/chromium, driven by
// playwright-core), and whether this machine has it (systemTool: skipped with the install
// command where absent, required under .ci/run).
import type { Browser, Page } from 'playwright-core';
import type { BrowserEngine, BrowserPage } from './browser-page.js';
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

/** Chromium as one of the engines the engine-neutral browser tests run in. */
export async function chromiumEngine(): Promise<BrowserEngine> {
  const browser = await launchChromium();
  return {
    name: 'Chromium',
    newPage: async (viewport) => playwrightPage(await browser.newPage({ viewport })),
    close: () => browser.close(),
  };
}

/** A Playwright page behind the engine-neutral interface (tests that also use Playwright's own API keep both). */
export function playwrightPage(page: Page): BrowserPage {
  return {
    engine: 'Chromium',
    goto: async (url) => void (await page.goto(url)),
    evaluate: (expression) => page.evaluate(expression),
    click: (selector) => page.locator(selector).first().click(),
    fill: (selector, text) => page.locator(selector).first().fill(text),
    select: async (selector, value) => void (await page.selectOption(selector, value)),
    focus: (selector) => page.locator(selector).first().focus(),
    hover: (selector) => page.locator(selector).first().hover(),
    press: (key) => page.keyboard.press(key),
    type: (text) => page.keyboard.type(text),
    screenshot: async (file) => void (await page.screenshot({ path: file, fullPage: true })),
    close: () => page.close(),
  };
}
