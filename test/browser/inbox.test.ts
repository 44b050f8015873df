// The webhook inbox (`webhooks listen --inspect`) driven in headless Chromium by
// playwright-core, as a person would use it. The core flows (inbox-flows.ts, shared with
// Firefox and WebKit in inbox-engines.test.ts): a sandbox ride's deliveries appear live (no
// reload), an edited body is replayed re-signed and the app's check and `webhooks verify`
// accept it, a hostile body renders as inert text, the keyboard alone is enough. Then, in
// Chromium only: a wrongly signed one is refused, an NDJSON export replayed with `webhooks
// replay` reproduces the deliveries, a cross-origin POST to the replay endpoint is refused,
// and the inbox survives a restart of listen.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { SANDBOX_DEMO_CLIENT_SECRET } from '../../src/schemas/sandbox.js';
import { sign } from '../../src/webhooks/hmac.js';
import { startCli } from '../helpers/auth.js';
import { sandboxOnFreePort, TestUser } from '../helpers/cli.js';
import { chromiumTool as chromium, launchChromium, playwrightPage } from '../helpers/chromium.js';
import { startReceiver, type TestReceiver } from '../helpers/webhooks.js';
import { inboxCoreFlows, inboxSession } from '../helpers/inbox-flows.js';
import { listenInspecting } from '../helpers/inbox.js';
import { scaled } from '../helpers/time-scale.js';

const chromiumTool = chromium();

describe.skipIf(!chromiumTool.present)(`webhooks listen --inspect in headless Chromium${chromiumTool.skipNote}`, () => {
  let browser: Browser;
  let page: Page;
  const s = inboxSession(async () => {
    browser = await launchChromium();
    return {
      name: 'Chromium',
      newPage: async (viewport) => playwrightPage((page = await browser.newPage({ viewport, acceptDownloads: true }))),
      close: () => browser.close(),
    };
  });
  const rows = () => page.locator('#rows tr');

  inboxCoreFlows(s);

  it('a wrongly signed replay is rejected by the app, and `webhooks verify` says the signature does not match', { timeout: scaled(60_000) }, async () => {
    // The receipt, the sandbox's last delivery (the hostile one is newer).
    await page.locator('#rows tr').nth(1).locator('button.open').click();
    const before = s.app.received.length;
    await page.click('#edit');
    await page.fill('#edit-body', (await page.locator('#edit-body').inputValue()).replace('"status":"ready"', '"status":"ready","tampered":true'));
    await page.check('input[name="signing"][value="wrong"]');
    await page.click('#send-edit');
    await expect.poll(() => page.locator('#action-result').textContent()).toBe(`edited (wrong) to ${s.app.url}: HTTP 401`);
    expect(s.app.received).toHaveLength(before + 1);
    const got = s.app.received.at(-1)!;
    expect(got.answered).toBe(401);
    const body = path.join(s.work, 'wrong.json');
    fs.writeFileSync(body, got.body);
    const verified = await s.user.run(['webhooks', 'verify', body, '--signature', got.header('X-Platform-Signature')!]);
    expect(verified.code).toBe(1);
    expect(verified.stderr).toMatch(/invalid signature/);

    // Unsigned: no X-Platform-Signature at all, and the app refuses it too.
    await page.click('#edit');
    await page.check('input[name="signing"][value="unsigned"]');
    await page.click('#send-edit');
    await expect.poll(() => page.locator('#action-result').textContent()).toBe(`edited (unsigned) to ${s.app.url}: HTTP 401`);
    expect(s.app.received.at(-1)!.header('X-Platform-Signature')).toBeUndefined();

    // Replay as received: the original bytes and signature, accepted again.
    await page.click('#replay');
    await expect.poll(() => page.locator('#action-result').textContent()).toBe(`replay (as-received) to ${s.app.url}: HTTP 200`);
    expect(s.app.received.at(-1)!.body.toString('base64')).toBe(s.sandbox.webhooks.log.at(-1)!.body_base64);
  });

  it('export as NDJSON, then `webhooks replay` reproduces the same deliveries in order; HAR holds them too', { timeout: scaled(60_000) }, async () => {
    await page.selectOption('#filter-type', 'requests.status_changed');
    await page.check('#select-all');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-ndjson')]);
    const exported = path.join(s.work, 'export.ndjson');
    await download.saveAs(exported);
    const lines = fs
      .readFileSync(exported, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const statuses = s.sandbox.webhooks.log.filter((d) => d.event_type === 'requests.status_changed');
    expect(lines.map((l) => l.body_base64)).toEqual(statuses.map((d) => d.body_base64));

    const second: TestReceiver = await startReceiver();
    try {
      const replayed = await s.user.run(['webhooks', 'replay', '--to', second.url, exported]);
      expect(replayed.code).toBe(0);
      expect(second.received.map((r) => r.body.toString('base64'))).toEqual(statuses.map((d) => d.body_base64));
      for (const r of second.received) expect(r.header('X-Platform-Signature')).toBe(sign(r.body, SANDBOX_DEMO_CLIENT_SECRET));
    } finally {
      await second.close();
    }

    const [har] = await Promise.all([page.waitForEvent('download'), page.click('#export-har')]);
    const harFile = path.join(s.work, 'export.har');
    await har.saveAs(harFile);
    const log = JSON.parse(fs.readFileSync(harFile, 'utf8')).log;
    expect(log.version).toBe('1.2');
    expect(log.entries.map((e: { request: { postData: { text: string } } }) => e.request.postData.text)).toEqual(
      statuses.map((d) => Buffer.from(d.body_base64, 'base64').toString('utf8')),
    );
    await page.uncheck('#select-all');
    await page.selectOption('#filter-type', '');
  });

  it('a cross-origin POST to the replay endpoint is refused, and nothing is sent', { timeout: scaled(60_000) }, async () => {
    const id = await page.locator('#rows tr').nth(1).getAttribute('data-id');
    const before = s.app.received.length;
    const replayUrl = `${s.listener.inbox}api/deliveries/${id}/replay`;
    // Another site the person visits, on another origin, posting a form and a no-cors fetch.
    const evil = await startReceiverPage(
      `<!doctype html><form method="POST" action="${replayUrl}" enctype="text/plain"><input name='{"a":"' value='"}'></form>` +
        `<script>fetch(${JSON.stringify(replayUrl)}, {method: 'POST', mode: 'no-cors', headers: {'Content-Type': 'text/plain'}, body: '{}'}).finally(() => document.forms[0].submit());</script>`,
    );
    const other = await browser.newPage();
    try {
      const answered = other.waitForResponse(
        (r) => r.url() === replayUrl && r.request().method() === 'POST' && r.frame() === other.mainFrame() && r.request().isNavigationRequest(),
      );
      await other.goto(evil.url);
      const response = await answered;
      expect(response.status()).toBe(403);
      expect(await response.json()).toEqual({ error: expect.stringMatching(/^cross-origin request from http:\/\/127\.0\.0\.1:\d+ refused$/) });
    } finally {
      await other.close();
      await evil.close();
    }
    // Without the page's token, even from the same origin, or with a wrong one: refused.
    const noToken = await fetch(replayUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(noToken.status).toBe(403);
    const wrongToken = await fetch(replayUrl, { method: 'POST', headers: { 'content-type': 'application/json', 'x-inbox-token': 'guess' }, body: '{}' });
    expect(wrongToken.status).toBe(403);
    // Another Host (DNS rebinding of a site's name to 127.0.0.1): refused.
    expect(await statusWithHost(s.listener.inbox, 'evil.example')).toBe(403);
    expect(await statusWithHost(s.listener.inbox, new URL(s.listener.inbox).host)).toBe(200);
    expect(s.app.received).toHaveLength(before);

    const headers = (await fetch(s.listener.inbox)).headers;
    expect(headers.get('content-security-policy')).toMatch(/^default-src 'self'; script-src 'self'; /);
    expect(headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('the inbox survives a restart of listen: the deliveries are read back from disk', { timeout: scaled(60_000) }, async () => {
    const before = await rows().count();
    await s.listener.stop();
    await expect.poll(() => page.locator('#live').textContent()).toMatch(/^(reconnecting|disconnected)/);
    s.listener = await listenInspecting(s.user, ['--forward-to', s.app.url]);
    await page.goto(s.listener.inbox);
    await expect.poll(() => rows().count()).toBe(before);
    const file = path.join(s.user.configDir, 'webhooks', 'inbox-local.ndjson');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });
});

/** The status of a GET sent with this Host header (fetch sets its own). */
function statusWithHost(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { host } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
  });
}

/** A page on another origin (a site the person visits). */
async function startReceiverPage(html: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

describe('webhooks listen --inspect, without a browser', () => {
  it('--open hands the inbox URL to the browser opener; --host other than loopback binds there and warns', async () => {
    const sandbox = await sandboxOnFreePort();
    try {
      const user = new TestUser(sandbox, { PLATFORM_WEBHOOK_SECRET: 's' });
      const opened: string[] = [];
      const controller = new AbortController();
      const run = startCli(user, ['webhooks', 'listen', '--port', '0', '--inspect', '--inspect-port', '0', '--open', '--host', '0.0.0.0'], {
        signal: controller.signal,
        openUrl: async (url) => void opened.push(url),
      });
      const [, inbox] = await run.waitForStderr(/Inbox: (http:\/\/0\.0\.0\.0:\d+\/)/);
      await expect.poll(() => opened).toEqual([inbox]);
      expect(run.stderr()).toContain('warning: the inbox is bound to 0.0.0.0: other machines can reach it');
      // Bound beyond loopback, it answers another Host (no rebinding check), still behind the token for actions.
      const port = new URL(inbox!).port;
      expect(await statusWithHost(`http://127.0.0.1:${port}/`, `machine.lan:${port}`)).toBe(200);
      controller.abort();
      expect((await run.done).code).toBe(0);
    } finally {
      await sandbox.close();
    }
  });
});
