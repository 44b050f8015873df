// End to end with a real browser: headless Chromium (Debian's /usr/bin/chromium) driven by
// playwright-core opens the URL `platform auth login` hands it, the test clicks on the
// sandbox's consent page, and the redirect reaches the CLI's loopback listener.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Sandbox } from '../../src/sandbox/index.js';
import { systemClock } from '../../src/base/io.js';
import { sandboxOnFreePort, TestUser } from '../helpers/cli.js';
import { chromiumTool as chromium, launchChromium } from '../helpers/chromium.js';
import { startCli } from '../helpers/auth.js';
import { scaled } from '../helpers/time-scale.js';

const chromiumTool = chromium();
describe.skipIf(!chromiumTool.present)(`platform auth login in headless Chromium${chromiumTool.skipNote}`, () => {
  let sandbox: Sandbox;
  let browser: Browser;

  beforeAll(async () => {
    sandbox = await sandboxOnFreePort();
    browser = await launchChromium();
  }, scaled(60_000));
  afterAll(async () => {
    await browser?.close();
    await sandbox?.close();
  });

  // The sign-in waits on the real clock: a test user's 100x faster clock would give the
  // browser 3 s (of the default 5 minutes), which a busy machine overruns, and the redirect
  // then finds the listener closed (ERR_CONNECTION_REFUSED).

  /** The opener: the page the CLI opened, once it has loaded. */
  function chromiumOpener(): { openUrl: (url: string) => Promise<void>; page: Promise<Page> } {
    let resolve!: (page: Page) => void;
    const page = new Promise<Page>((r) => (resolve = r));
    return {
      page,
      openUrl: async (url) => {
        const p = await browser.newPage();
        await p.goto(url);
        resolve(p);
      },
    };
  }

  it('Allow on the consent page ends signed in, with the tokens stored', { timeout: scaled(60_000) }, async () => {
    const user = new TestUser(sandbox);
    const opener = chromiumOpener();
    const run = startCli(user, ['auth', 'login', '--scopes', 'profile,request,ads.ad-accounts.read'], { openUrl: opener.openUrl, clock: systemClock });
    const page = await opener.page;
    expect(await page.title()).toBe('Allow Platform CLI (sandbox demo)?');
    expect(await page.locator('#application').textContent()).toBe('Platform CLI (sandbox demo)');
    expect(await page.locator('#scopes li').allTextContents()).toEqual([
      'See your name, email address, picture and promotion code profile',
      'Request rides and cancel them on your behalf request',
      'See your ad accounts ads.ad-accounts.read',
    ]);
    await page.click('#allow');
    await page.waitForURL(/^http:\/\/127\.0\.0\.1:\d+\/callback\?/);
    await expect.poll(() => page.locator('h1').textContent()).toBe('Signed in');
    expect(await page.locator('body').textContent()).toMatch(/signed in as Dana Demo \(dana\.demo@example\.com\)[\s\S]*You can close this tab/);
    const code = new URL(page.url()).searchParams.get('code')!;
    const result = await run.done;
    await page.close();

    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(
      /✓ Signed in to profile local .* as Dana Demo \(dana\.demo@example\.com\)\.\nScopes: profile request ads\.ad-accounts\.read\./,
    );
    const token = (user.readConfig() as any).profiles.local.token;
    expect(token).toMatchObject({ grant: 'authorization_code', scope: 'profile request ads.ad-accounts.read' });
    for (const secret of [token.access_token, token.refresh_token, code]) expect(result.stdout + result.stderr).not.toContain(secret);
    expect(fs.statSync(user.configPath).mode & 0o777).toBe(0o600);
    expect((await user.run(['ads', 'accounts', 'list'])).code).toBe(0);
  });

  it('Deny ends with exit 1 and a clear message', { timeout: scaled(60_000) }, async () => {
    const user = new TestUser(sandbox);
    const opener = chromiumOpener();
    const run = startCli(user, ['auth', 'login', '--scopes', 'profile,all_trips'], { openUrl: opener.openUrl, clock: systemClock });
    const page = await opener.page;
    await page.click('#deny');
    await page.waitForURL(/\/callback\?.*error=access_denied/);
    await expect.poll(() => page.locator('h1').textContent()).toBe('Access denied');
    const result = await run.done;
    await page.close();
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /access was denied in the browser \(access_denied\); nothing was stored\. Run `platform auth login --profile local` to try again\./,
    );
    expect((user.readConfig() as any).profiles.local?.token).toBeUndefined();
  });
});
