// One page in a browser engine, as the engine-neutral browser tests drive it: Chromium through
// playwright-core, Firefox through puppeteer-core (WebDriver BiDi), WebKit through
// selenium-webdriver (W3C WebDriver, WebKitWebDriver). Actions are the engine's own input
// events (click, keys, typing); what the page shows is read with a JavaScript expression, the
// same in every engine.

/** The keys the tests press. */
export type Key = 'Tab' | 'Enter' | 'Escape';

export interface BrowserPage {
  /** Which engine, for test titles and screenshot names. */
  readonly engine: string;
  goto(url: string): Promise<void>;
  /** The value of a JavaScript expression evaluated in the page (JSON values only). */
  evaluate<T>(expression: string): Promise<T>;
  /** Clicks the first element matching the selector, waiting for it to appear. */
  click(selector: string): Promise<void>;
  /** Replaces the value of a text field by typing into it. */
  fill(selector: string, text: string): Promise<void>;
  /** Picks the option with this value in a <select>. */
  select(selector: string, value: string): Promise<void>;
  focus(selector: string): Promise<void>;
  hover(selector: string): Promise<void>;
  press(key: Key): Promise<void>;
  /** Types text key by key into the focused element. */
  type(text: string): Promise<void>;
  /** A PNG of the page. */
  screenshot(file: string): Promise<void>;
  close(): Promise<void>;
}

/** A browser engine the tests can open pages in. */
export interface BrowserEngine {
  readonly name: string;
  newPage(viewport: { width: number; height: number }): Promise<BrowserPage>;
  close(): Promise<void>;
}

const all = (selector: string) => `Array.from(document.querySelectorAll(${JSON.stringify(selector)}))`;
const first = (selector: string) => `document.querySelector(${JSON.stringify(selector)})`;

/** The textContent of the first match, null when none matches. */
export const textOf = (page: BrowserPage, selector: string) => page.evaluate<string | null>(`${first(selector)}?.textContent ?? null`);

/** The textContent of every match, in document order. */
export const textsOf = (page: BrowserPage, selector: string) => page.evaluate<string[]>(`${all(selector)}.map((e) => e.textContent)`);

export const countOf = (page: BrowserPage, selector: string) => page.evaluate<number>(`${all(selector)}.length`);

/** The value of a form field. */
export const valueOf = (page: BrowserPage, selector: string) => page.evaluate<string>(`${first(selector)}.value`);

export const attributeOf = (page: BrowserPage, selector: string, name: string) =>
  page.evaluate<string | null>(`${first(selector)}?.getAttribute(${JSON.stringify(name)}) ?? null`);

/** Hidden as Playwright means it: absent, or no box on screen, or visibility: hidden. */
export const isHidden = (page: BrowserPage, selector: string) =>
  page.evaluate<boolean>(`((e) => !e || e.getClientRects().length === 0 || getComputedStyle(e).visibility === 'hidden')(${first(selector)})`);

/** The id and class of the focused element. */
export const focused = (page: BrowserPage) =>
  page.evaluate<{ id: string; className: string }>(`({ id: document.activeElement?.id ?? '', className: document.activeElement?.className ?? '' })`);
