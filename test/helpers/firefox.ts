// Debian's Firefox ESR (/usr/bin/firefox-esr), driven over WebDriver BiDi by puppeteer-core.
// playwright-core's BiDi Firefox ('moz-firefox' channel) follows Firefox Nightly: with
// playwright-core 1.65.1 and Firefox 153 ESR every new page fails with "Protocol error
// (emulation.setMediaFeaturesOverride): unknown command"; Playwright's own Firefox build comes
// from its CDN, which this network does not reach.
import type { Page } from 'puppeteer-core';
import type { BrowserEngine, BrowserPage } from './browser-page.js';
import { systemTool } from './system-tools.js';

export const FIREFOX = '/usr/bin/firefox-esr';

/** Call at a test file's top level: its describe blocks skip where Firefox ESR is absent. */
export const firefoxTool = () => systemTool(FIREFOX, 'firefox-esr');

export async function launchFirefox(): Promise<BrowserEngine> {
  const { default: puppeteer } = await import('puppeteer-core');
  const browser = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX, headless: true });
  return {
    name: 'Firefox',
    async newPage(viewport) {
      const page = await browser.newPage();
      await page.setViewport(viewport);
      return puppeteerPage(page);
    },
    close: () => browser.close(),
  };
}

function puppeteerPage(page: Page): BrowserPage {
  return {
    engine: 'Firefox',
    goto: async (url) => void (await page.goto(url)),
    evaluate: <T>(expression: string) => page.evaluate(expression) as Promise<T>,
    click: (selector) => page.locator(selector).click(),
    fill: (selector, text) => page.locator(selector).fill(text),
    select: async (selector, value) => void (await page.select(selector, value)),
    focus: (selector) => page.focus(selector),
    hover: (selector) => page.locator(selector).hover(),
    press: (key) => page.keyboard.press(key),
    type: (text) => page.keyboard.type(text),
    screenshot: async (file) => void (await page.screenshot({ path: file, fullPage: true })),
    close: () => page.close(),
  };
}
