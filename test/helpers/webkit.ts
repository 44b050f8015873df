// The WebKit engine as Debian ships it: WebKitGTK's MiniBrowser, driven through
// WebKitWebDriver (package webkit2gtk-driver), a W3C WebDriver server, by Selenium's own
// client (selenium-webdriver). MiniBrowser is a GTK window and needs an X display, so each
// launch starts its own Xvfb. Playwright's own WebKit build is downloaded from Playwright's
// CDN, which this network does not reach.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { pidToPorts } from 'pid-port';
import { Builder, By, Key, type WebDriver } from 'selenium-webdriver';
import type { BrowserEngine, BrowserPage, Key as PageKey } from './browser-page.js';
import { systemTool, type SystemTool } from './system-tools.js';
import { scaled } from './time-scale.js';
import { waitFor } from './wait.js';

export const WEBKIT_WEBDRIVER = '/usr/bin/WebKitWebDriver';

const KEYS: Record<PageKey, string> = { Tab: Key.TAB, Enter: Key.ENTER, Escape: Key.ESCAPE };

/** MiniBrowser sits in the multiarch library folder of libwebkit2gtk-4.1-0. */
function miniBrowser(): string | undefined {
  const lib = '/usr/lib';
  for (const dir of fs.existsSync(lib) ? fs.readdirSync(lib) : []) {
    const file = `${lib}/${dir}/webkit2gtk-4.1/MiniBrowser`;
    if (fs.existsSync(file)) return file;
  }
  return undefined;
}

/** Call at a test file's top level: WebKitWebDriver, Xvfb and ss (to learn the driver's port), all needed. */
export function webkitTool(): SystemTool {
  const tools = [systemTool(WEBKIT_WEBDRIVER, 'webkit2gtk-driver'), systemTool('Xvfb', 'xvfb'), systemTool('ss', 'iproute2')];
  const missing = tools.find((tool) => !tool.present);
  if (missing) return missing;
  // webkit2gtk-driver depends on the library that holds MiniBrowser; missing, the install is broken.
  if (miniBrowser() === undefined) throw new Error('MiniBrowser of libwebkit2gtk-4.1-0 not found: apt-get install --reinstall -y libwebkit2gtk-4.1-0');
  return { present: true, skipNote: '' };
}

export async function launchWebKit(): Promise<BrowserEngine> {
  const binary = miniBrowser();
  if (!binary) throw new Error('MiniBrowser (libwebkit2gtk-4.1-0) not found');
  const children: ChildProcess[] = [];
  const stop = () => {
    for (const child of children.reverse()) child.kill();
  };
  try {
    const display = await startXvfb(children);
    // Port 0: the driver binds a free port itself, so no other process can take it between
    // our choosing it and the driver binding it. It does not print the port; ss shows it.
    const driver = spawn(WEBKIT_WEBDRIVER, ['--port=0'], { env: { ...process.env, DISPLAY: display }, stdio: 'ignore' });
    children.push(driver);
    const driverUrl = `http://127.0.0.1:${await listeningPort(driver)}`;
    const sessions = new Set<WebDriver>();
    return {
      name: 'WebKit',
      async newPage(viewport) {
        const session = await new Builder()
          .usingServer(driverUrl)
          .disableEnvironmentOverrides()
          // The Builder needs a browserName; WebKitWebDriver checks it against MiniBrowser's own.
          .withCapabilities({ browserName: 'MiniBrowser', 'webkitgtk:browserOptions': { binary, args: ['--automation'] } })
          .build();
        sessions.add(session);
        await session.manage().window().setRect(viewport);
        // Finding an element waits for it to appear, as Playwright's and Puppeteer's clicks do.
        await session.manage().setTimeouts({ implicit: scaled(5_000) });
        return seleniumPage(session, () => sessions.delete(session));
      },
      async close() {
        await Promise.allSettled([...sessions].map((session) => session.quit()));
        stop();
      },
    };
  } catch (error) {
    stop();
    throw error;
  }
}

function seleniumPage(session: WebDriver, forget: () => void): BrowserPage {
  const find = (selector: string) => session.findElement(By.css(selector));
  const keys = (text: string) => session.actions().sendKeys(text).perform();
  return {
    engine: 'WebKit',
    goto: (url) => session.get(url),
    evaluate: (expression) => session.executeScript(`return (${expression});`),
    click: (selector) => find(selector).click(),
    fill: async (selector, text) => {
      const field = await find(selector);
      await field.clear();
      await field.sendKeys(text);
    },
    // As a person picks an option: clicking it.
    select: (selector, value) => find(`${selector} option[value=${JSON.stringify(value)}]`).click(),
    focus: async (selector) => void (await session.executeScript('arguments[0].focus()', await find(selector))),
    hover: async (selector) => {
      const target = await find(selector);
      await session.actions().move({ origin: target }).perform();
    },
    press: (key) => keys(KEYS[key]),
    type: (text) => keys(text),
    screenshot: async (file) => fs.writeFileSync(file, await session.takeScreenshot(), 'base64'),
    close: async () => {
      forget();
      await session.quit();
    },
  };
}

/** Xvfb on the first free display number, which it writes to the pipe -displayfd names. */
async function startXvfb(children: ChildProcess[]): Promise<string> {
  const xvfb = spawn('Xvfb', ['-displayfd', '3', '-nolisten', 'tcp', '-screen', '0', '1600x1200x24'], { stdio: ['ignore', 'ignore', 'ignore', 'pipe'] });
  children.push(xvfb);
  const number = await new Promise<string>((resolve, reject) => {
    let text = '';
    xvfb.stdio[3]!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('\n')) resolve(text.trim());
    });
    xvfb.on('exit', (code) => reject(new Error(`Xvfb exited (${code}) before it chose a display`)));
  });
  return `:${number}`;
}

/** The port a freshly started server listens on, once it listens (it binds before it serves). */
async function listeningPort(server: ChildProcess): Promise<number> {
  return waitFor(
    async () => {
      if (server.exitCode !== null) throw new Error(`${server.spawnfile} exited (${server.exitCode}) before it listened`);
      const [port] = await pidToPorts(server.pid!);
      return port;
    },
    { what: `${server.spawnfile} to listen`, intervalMs: 50 },
  );
}
