// The WebKit engine as Debian ships it: WebKitGTK's MiniBrowser, driven through
// WebKitWebDriver (package webkit2gtk-driver), a W3C WebDriver server. MiniBrowser is a GTK
// window and needs an X display, so each launch starts its own Xvfb. Playwright's own WebKit
// build is downloaded from Playwright's CDN, which this network does not reach.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import type { BrowserEngine, BrowserPage } from './browser-page.js';
import { systemTool, type SystemTool } from './system-tools.js';
import { KEYS, WebDriverSession } from './webdriver.js';

export const WEBKIT_WEBDRIVER = '/usr/bin/WebKitWebDriver';

/** MiniBrowser sits in the multiarch library folder of libwebkit2gtk-4.1-0. */
function miniBrowser(): string | undefined {
  const lib = '/usr/lib';
  for (const dir of fs.existsSync(lib) ? fs.readdirSync(lib) : []) {
    const file = `${lib}/${dir}/webkit2gtk-4.1/MiniBrowser`;
    if (fs.existsSync(file)) return file;
  }
  return undefined;
}

/** Call at a test file's top level: WebKitWebDriver and Xvfb, both needed. */
export function webkitTool(): SystemTool {
  const driver = systemTool(WEBKIT_WEBDRIVER, 'webkit2gtk-driver');
  const display = systemTool('Xvfb', 'xvfb');
  if (!driver.present || !display.present) return { present: false, skipNote: driver.skipNote || display.skipNote };
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
    const port = await freePort();
    const driver = spawn(WEBKIT_WEBDRIVER, [`--port=${port}`], { env: { ...process.env, DISPLAY: display }, stdio: 'ignore' });
    children.push(driver);
    const driverUrl = `http://127.0.0.1:${port}`;
    await untilAnswers(`${driverUrl}/status`);
    const sessions = new Set<WebDriverSession>();
    return {
      name: 'WebKit',
      async newPage(viewport) {
        const session = await WebDriverSession.start(driverUrl, { 'webkitgtk:browserOptions': { binary, args: ['--automation'] } });
        sessions.add(session);
        await session.command('POST', '/window/rect', viewport);
        // Finding an element waits for it to appear, as Playwright's and Puppeteer's clicks do.
        await session.command('POST', '/timeouts', { implicit: 5_000 });
        return webDriverPage(session, () => sessions.delete(session));
      },
      async close() {
        await Promise.allSettled([...sessions].map((s) => s.end()));
        stop();
      },
    };
  } catch (error) {
    stop();
    throw error;
  }
}

function webDriverPage(session: WebDriverSession, forget: () => void): BrowserPage {
  return {
    engine: 'WebKit',
    goto: (url) => session.command('POST', '/url', { url }),
    evaluate: (expression) => session.execute(`return (${expression});`),
    click: async (selector) => session.click(await session.find(selector)),
    fill: async (selector, text) => session.replaceText(await session.find(selector), text),
    // As a person picks an option: clicking it.
    select: async (selector, value) => session.click(await session.find(`${selector} option[value=${JSON.stringify(value)}]`)),
    focus: async (selector) => void (await session.execute('arguments[0].focus()', [await session.find(selector)])),
    hover: async (selector) => session.pointTo(await session.find(selector)),
    press: (key) => session.keys(KEYS[key]),
    type: (text) => session.keys(...text),
    screenshot: async (file) => fs.writeFileSync(file, await session.screenshot()),
    close: async () => {
      forget();
      await session.end();
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

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function untilAnswers(url: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${url} did not answer within 5 s`);
}
