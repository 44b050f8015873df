// The webhook inbox (`webhooks listen --inspect`) driven in headless Chromium by
// playwright-core, as a person would use it: a sandbox ride's deliveries appear live (no
// reload), an edited body is replayed re-signed and the app's check and `webhooks verify`
// accept it, a wrongly signed one is refused, an NDJSON export replayed with `webhooks
// replay` reproduces the deliveries, a hostile body renders as inert text, a cross-origin
// POST to the replay endpoint is refused, and the inbox survives a restart of listen.
// Screenshots go to the test's temp folder and, when PLATFORM_TEST_SCREENSHOTS names a
// folder, are copied there too (to keep a set outside the temp folder).
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { SANDBOX_DEMO_CLIENT_ID, SANDBOX_DEMO_CLIENT_SECRET } from '../../src/schemas/sandbox.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { sign } from '../../src/webhooks/hmac.js';
import { startCli } from '../auth/helpers.js';
import { sandboxOnFreePort, tempDir, TestUser } from '../helpers/cli.js';
import { chromiumTool as chromium, launchChromium } from '../helpers/chromium.js';
import { userToken } from '../rider/helpers.js';
import { rideToCompletion, startReceiver, type TestReceiver } from './helpers.js';
import { checkingReceiver, listenInspecting, type CheckingReceiver, type InspectingListener } from './inbox-helpers.js';

const chromiumTool = chromium();
const SCREENSHOTS_COPY = process.env.PLATFORM_TEST_SCREENSHOTS;

describe.skipIf(!chromiumTool.present)(`webhooks listen --inspect in headless Chromium${chromiumTool.skipNote}`, () => {
  let sandbox: Sandbox;
  let browser: Browser;
  let page: Page;
  let app: CheckingReceiver;
  let user: TestUser;
  let listener: InspectingListener;
  const shots = tempDir('platform-inbox-shots-');
  const work = tempDir('platform-inbox-');

  async function screenshot(name: string): Promise<void> {
    const file = path.join(shots, `${name}.png`);
    await page.screenshot({ path: file, fullPage: true });
    if (SCREENSHOTS_COPY) {
      fs.mkdirSync(SCREENSHOTS_COPY, { recursive: true });
      fs.copyFileSync(file, path.join(SCREENSHOTS_COPY, `inbox-${name}.png`));
    }
  }

  const rows = () => page.locator('#rows tr');

  beforeAll(async () => {
    sandbox = await sandboxOnFreePort({ timeScale: 20_000 });
    app = await checkingReceiver(SANDBOX_DEMO_CLIENT_SECRET);
    // The local profile's client secret (the sandbox demo client's) signs and checks.
    user = new TestUser(sandbox, { PLATFORM_WEBHOOK_SECRET: undefined });
    listener = await listenInspecting(user, ['--forward-to', app.url]);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 }, acceptDownloads: true });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await listener?.stop();
    await app?.close();
    await sandbox?.close();
  });

  it('a sandbox ride produces deliveries that appear live, verified, without reloading the page', async () => {
    await page.goto(listener.inbox);
    await expect.poll(() => page.locator('#live').textContent()).toMatch(/^live: 0 deliveries/);
    expect(await page.locator('#where').textContent()).toBe(`Listening on ${listener.url}; forwarding * to ${app.url}`);
    // A mark on this document: a reload would lose it.
    await page.evaluate('window.mark = 42');

    sandbox.webhooks.setUrl(SANDBOX_DEMO_CLIENT_ID, `${listener.url}/webhooks`);
    const token = await userToken(sandbox.url, 'profile request request_receipt');
    const rideId = await rideToCompletion(sandbox, token);
    await sandbox.webhooks.idle();

    await expect.poll(() => rows().count(), { timeout: 10_000 }).toBe(6);
    expect(await page.evaluate('window.mark')).toBe(42);
    // Newest first: the receipt, then the statuses back to processing.
    expect(await page.locator('#rows td.status').allTextContents()).toEqual(['ready', 'completed', 'in_progress', 'arriving', 'accepted', 'processing']);
    expect(await page.locator('#rows td.verdict').allTextContents()).toEqual(Array(6).fill('valid'));
    // Each was forwarded and the app accepted it; the page follows the forward's answer live.
    await expect.poll(() => page.locator('#rows td.forward').allTextContents()).toEqual(Array(6).fill('forward HTTP 200'));

    await page.locator('#rows tr').first().locator('button.open').click();
    expect(await page.locator('#detail-title').textContent()).toMatch(/^requests\.receipt_ready [0-9a-f-]{36}$/);
    expect(await page.locator('#detail-verdict').textContent()).toMatch(/^valid signature \(HMAC-SHA256 of \d+ bytes, the client secret of profile local\)$/);
    const raw = await page.locator('#body-raw').textContent();
    const sent = sandbox.webhooks.log.at(-1)!;
    expect(raw).toBe(Buffer.from(sent.body_base64, 'base64').toString('utf8'));
    expect(JSON.parse(raw!)).toMatchObject({ meta: { resource_id: rideId, status: 'ready' } });
    expect(await page.locator('#body-pretty').textContent()).toBe(JSON.stringify(JSON.parse(raw!), null, 2));
    expect(await page.locator('#headers tbody tr').allTextContents()).toContain(`X-Platform-Signature${sign(Buffer.from(raw!), SANDBOX_DEMO_CLIENT_SECRET)}`);

    // The filters: by status, then by verdict.
    await page.selectOption('#filter-status', 'accepted');
    expect(await page.locator('#rows td.status').allTextContents()).toEqual(['accepted']);
    await page.selectOption('#filter-status', '');
    await page.selectOption('#filter-verdict', 'invalid');
    expect(await rows().count()).toBe(0);
    await page.selectOption('#filter-verdict', '');
    await screenshot('1-live-deliveries');
  }, 60_000);

  it('edit and replay: the edited body goes re-signed, with the diff shown, and the app and `webhooks verify` accept it', async () => {
    await page.locator('#rows tr').first().locator('button.open').click();
    const before = app.received.length;
    await page.click('#edit');
    const original = await page.locator('#edit-body').inputValue();
    const edited = original.replace('"status":"ready"', '"status":"ready","note":"edited in the inbox"');
    expect(edited).not.toBe(original);
    await page.fill('#edit-body', edited);
    // The diff of the JSON, pretty-printed: one line added after "status".
    expect(await page.locator('#diff .del').allTextContents()).toEqual(['-     "status": "ready"']);
    expect(await page.locator('#diff .add').allTextContents()).toEqual(['+     "status": "ready",', '+     "note": "edited in the inbox"']);
    await screenshot('2-edit-with-diff');
    await page.click('#send-edit');
    await expect.poll(() => page.locator('#action-result').textContent()).toBe(`edited (resigned) to ${app.url}: HTTP 200`);

    expect(app.received).toHaveLength(before + 1);
    const got = app.received.at(-1)!;
    expect(got.body.toString('utf8')).toBe(edited);
    expect(got.answered).toBe(200);
    // The receiver's side, as a developer checks it: `platform webhooks verify` on what arrived.
    const body = path.join(work, 'edited.json');
    fs.writeFileSync(body, got.body);
    const verified = await user.run(['webhooks', 'verify', body, '--signature', got.header('X-Platform-Signature')!]);
    expect(verified.stderr).toBe('');
    expect(verified.code).toBe(0);
    expect(verified.stdout).toMatch(/^valid signature/);
    await expect
      .poll(() => page.locator('#sends li').allTextContents())
      .toContainEqual(expect.stringMatching(/ edited \(resigned\) to .*: HTTP 200 in \d+ ms$/));
  }, 60_000);

  it('a wrongly signed replay is rejected by the app, and `webhooks verify` says the signature does not match', async () => {
    const before = app.received.length;
    await page.click('#edit');
    await page.fill('#edit-body', (await page.locator('#edit-body').inputValue()).replace('"status":"ready"', '"status":"ready","tampered":true'));
    await page.check('input[name="signing"][value="wrong"]');
    await page.click('#send-edit');
    await expect.poll(() => page.locator('#action-result').textContent()).toBe(`edited (wrong) to ${app.url}: HTTP 401`);
    expect(app.received).toHaveLength(before + 1);
    const got = app.received.at(-1)!;
    expect(got.answered).toBe(401);
    const body = path.join(work, 'wrong.json');
    fs.writeFileSync(body, got.body);
    const verified = await user.run(['webhooks', 'verify', body, '--signature', got.header('X-Platform-Signature')!]);
    expect(verified.code).toBe(1);
    expect(verified.stderr).toMatch(/invalid signature/);

    // Unsigned: no X-Platform-Signature at all, and the app refuses it too.
    await page.click('#edit');
    await page.check('input[name="signing"][value="unsigned"]');
    await page.click('#send-edit');
    await expect.poll(() => page.locator('#action-result').textContent()).toBe(`edited (unsigned) to ${app.url}: HTTP 401`);
    expect(app.received.at(-1)!.header('X-Platform-Signature')).toBeUndefined();

    // Replay as received: the original bytes and signature, accepted again.
    await page.click('#replay');
    await expect.poll(() => page.locator('#action-result').textContent()).toBe(`replay (as-received) to ${app.url}: HTTP 200`);
    expect(app.received.at(-1)!.body.toString('base64')).toBe(sandbox.webhooks.log.at(-1)!.body_base64);
  }, 60_000);

  it('export as NDJSON, then `webhooks replay` reproduces the same deliveries in order; HAR holds them too', async () => {
    await page.selectOption('#filter-type', 'requests.status_changed');
    await page.check('#select-all');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-ndjson')]);
    const exported = path.join(work, 'export.ndjson');
    await download.saveAs(exported);
    const lines = fs
      .readFileSync(exported, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const statuses = sandbox.webhooks.log.filter((d) => d.event_type === 'requests.status_changed');
    expect(lines.map((l) => l.body_base64)).toEqual(statuses.map((d) => d.body_base64));

    const second: TestReceiver = await startReceiver();
    try {
      const replayed = await user.run(['webhooks', 'replay', '--to', second.url, exported]);
      expect(replayed.code).toBe(0);
      expect(second.received.map((r) => r.body.toString('base64'))).toEqual(statuses.map((d) => d.body_base64));
      for (const r of second.received) expect(r.header('X-Platform-Signature')).toBe(sign(r.body, SANDBOX_DEMO_CLIENT_SECRET));
    } finally {
      await second.close();
    }

    const [har] = await Promise.all([page.waitForEvent('download'), page.click('#export-har')]);
    const harFile = path.join(work, 'export.har');
    await har.saveAs(harFile);
    const log = JSON.parse(fs.readFileSync(harFile, 'utf8')).log;
    expect(log.version).toBe('1.2');
    expect(log.entries.map((e: { request: { postData: { text: string } } }) => e.request.postData.text)).toEqual(
      statuses.map((d) => Buffer.from(d.body_base64, 'base64').toString('utf8')),
    );
    await page.uncheck('#select-all');
    await page.selectOption('#filter-type', '');
  }, 60_000);

  it('a hostile body and header render as inert text', async () => {
    const hostile = '{"event_type":"<script>window.pwned=1</script>","meta":{"status":"<img src=x onerror=\\"window.pwned=2\\">"}}\r\n';
    const res = await fetch(listener.url, {
      method: 'POST',
      body: hostile,
      headers: { 'x-platform-signature': sign(Buffer.from(hostile), 'not-the-secret'), 'x-evil': '<b onmouseover="window.pwned=3">hover</b>' },
    });
    expect(res.status).toBe(200);
    await expect.poll(() => rows().count()).toBe(7);
    const row = page.locator('#rows tr').first();
    expect(await row.locator('td.type').textContent()).toBe('<script>window.pwned=1</script>');
    await row.locator('button.open').click();
    // The raw body: every character as sent; the CR shown as an escape.
    expect(await page.locator('#body-raw').textContent()).toBe(hostile.replace('\r', '\\x0D'));
    expect(await page.locator('#headers tbody tr').allTextContents()).toContain('x-evil<b onmouseover="window.pwned=3">hover</b>');
    // Invalid, with the diagnosis `verify` gives.
    expect(await page.locator('#detail-verdict').textContent()).toMatch(/^invalid signature: the HMAC-SHA256 of the \d+ bytes received is /);
    expect(await page.locator('#rows td.verdict').first().textContent()).toBe('invalid');
    expect(await page.locator('#detail script, #detail img, #detail b, #rows script, #rows img').count()).toBe(0);
    await page.locator('#headers').hover();
    expect(await page.evaluate('window.pwned')).toBeUndefined();
    await screenshot('3-hostile-body-inert');
  }, 60_000);

  it('a cross-origin POST to the replay endpoint is refused, and nothing is sent', async () => {
    const id = await page.locator('#rows tr').nth(1).getAttribute('data-id');
    const before = app.received.length;
    const replayUrl = `${listener.inbox}api/deliveries/${id}/replay`;
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
    expect(await statusWithHost(listener.inbox, 'evil.example')).toBe(403);
    expect(await statusWithHost(listener.inbox, new URL(listener.inbox).host)).toBe(200);
    expect(app.received).toHaveLength(before);

    const headers = (await fetch(listener.inbox)).headers;
    expect(headers.get('content-security-policy')).toMatch(/^default-src 'self'; script-src 'self'; /);
    expect(headers.get('x-content-type-options')).toBe('nosniff');
  }, 60_000);

  it('is usable from the keyboard: Tab to a delivery, Enter opens it, and edit and replay with keys only', async () => {
    await page.goto(listener.inbox);
    await expect.poll(() => rows().count()).toBe(7);
    await page.locator('#export-har').focus();
    await page.keyboard.press('Tab'); // the first row's checkbox
    await page.keyboard.press('Tab'); // its open button
    expect(await page.evaluate('document.activeElement?.className')).toBe('open');
    await page.keyboard.press('Enter');
    expect(await page.evaluate('document.activeElement?.id')).toBe('detail-title');
    expect(await page.locator('#detail-title').textContent()).toMatch(/^<script>/);
    await page.locator('#replay').focus();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter'); // Edit and replay…
    expect(await page.evaluate('document.activeElement?.id')).toBe('edit-body');
    await page.keyboard.press('Escape');
    expect(await page.locator('#editor').isHidden()).toBe(true);
    expect(await page.evaluate('document.activeElement?.id')).toBe('edit');
  }, 60_000);

  it('the inbox survives a restart of listen: the deliveries are read back from disk', async () => {
    const before = await rows().count();
    await listener.stop();
    await expect.poll(() => page.locator('#live').textContent()).toMatch(/^(reconnecting|disconnected)/);
    listener = await listenInspecting(user, ['--forward-to', app.url]);
    await page.goto(listener.inbox);
    await expect.poll(() => rows().count()).toBe(before);
    const file = path.join(user.configDir, 'webhooks', 'inbox-local.ndjson');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  }, 60_000);
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
