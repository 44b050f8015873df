// The webhook inbox's core acceptance flows, written once against the engine-neutral
// BrowserPage and run in each engine (inbox.test.ts in Chromium, inbox-engines.test.ts in
// Firefox and WebKit): a sandbox ride's deliveries appear live over SSE without a reload; an
// edited body is replayed re-signed and the app and `webhooks verify` accept it; a hostile
// body and header render as inert text; the inbox is usable from the keyboard.
// Screenshots go to the test's temp folder and, when PLATFORM_TEST_SCREENSHOTS names a
// folder, are copied there too.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SANDBOX_DEMO_CLIENT_ID, SANDBOX_DEMO_CLIENT_SECRET } from '../../src/schemas/sandbox.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { sign } from '../../src/webhooks/hmac.js';
import { countOf, focused, isHidden, textOf, textsOf, valueOf, type BrowserEngine, type BrowserPage } from './browser-page.js';
import { sandboxOnFreePort, tempDir, TestUser } from './cli.js';
import { keepScreenshot } from './screenshots.js';
import { userToken } from './rider.js';
import { rideToCompletion } from './webhooks.js';
import { checkingReceiver, listenInspecting, type CheckingReceiver, type InspectingListener } from './inbox.js';
import { scaled } from './time-scale.js';

/** What the flows share: one sandbox, app, listener and page for the whole describe block. */
export interface InboxSession {
  sandbox: Sandbox;
  app: CheckingReceiver;
  user: TestUser;
  /** Replaced by a test that restarts listen; the session stops whichever is current. */
  listener: InspectingListener;
  page: BrowserPage;
  /** A temporary folder for files the tests write. */
  work: string;
  screenshot(name: string): Promise<void>;
}

/** Call inside a describe block: starts everything before its tests and stops it after. */
export function inboxSession(launch: () => Promise<BrowserEngine>): InboxSession {
  const shots = tempDir('platform-inbox-shots-');
  let engine: BrowserEngine | undefined;
  const session = {
    work: tempDir('platform-inbox-'),
    async screenshot(name: string) {
      const file = path.join(shots, `${name}.png`);
      await session.page.screenshot(file);
      // Chromium's keep the names they had before the other engines came.
      const engineName = session.page.engine === 'Chromium' ? '' : `${session.page.engine.toLowerCase()}-`;
      keepScreenshot(file, `inbox-${engineName}${name}.png`);
    },
  } as InboxSession;

  beforeAll(async () => {
    session.sandbox = await sandboxOnFreePort({ timeScale: 20_000 });
    session.app = await checkingReceiver(SANDBOX_DEMO_CLIENT_SECRET);
    // The local profile's client secret (the sandbox demo client's) signs and checks.
    session.user = new TestUser(session.sandbox, { PLATFORM_WEBHOOK_SECRET: undefined });
    session.listener = await listenInspecting(session.user, ['--forward-to', session.app.url]);
    engine = await launch();
    session.page = await engine.newPage({ width: 1400, height: 1000 });
  }, scaled(60_000));

  afterAll(async () => {
    await engine?.close();
    await session.listener?.stop();
    await session.app?.close();
    await session.sandbox?.close();
  });
  return session;
}

const rows = '#rows tr';
/** The open button of the newest delivery (the list is newest first). */
const openNewest = '#rows tr:first-child button.open';

/** Each flow's deadline: a browser, the CLI and the sandbox at work together. */
const FLOW = { timeout: scaled(60_000) };

/** Call inside a describe block after inboxSession: the core flows, in order (each builds on the one before). */
export function inboxCoreFlows(s: InboxSession): void {
  it('a sandbox ride produces deliveries that appear live, verified, without reloading the page', FLOW, async () => {
    const { page, sandbox, app, listener } = s;
    await page.goto(listener.inbox);
    await expect.poll(() => textOf(page, '#live')).toMatch(/^live: 0 deliveries/);
    expect(await textOf(page, '#where')).toBe(`Listening on ${listener.url}; forwarding * to ${app.url}`);
    // A mark on this document: a reload would lose it.
    await page.evaluate('window.mark = 42');

    sandbox.webhooks.setUrl(SANDBOX_DEMO_CLIENT_ID, `${listener.url}/webhooks`);
    const token = await userToken(sandbox.url, 'profile request request_receipt');
    const rideId = await rideToCompletion(sandbox, token);
    await sandbox.webhooks.idle();

    await expect.poll(() => countOf(page, rows), { timeout: scaled(10_000) }).toBe(6);
    expect(await page.evaluate('window.mark')).toBe(42);
    // Newest first: the receipt, then the statuses back to processing.
    // Statuses in words, the enum in the title.
    expect(await textsOf(page, '#rows td.status')).toEqual(['Receipt ready', 'Completed', 'In progress', 'Arriving', 'Accepted', 'Processing']);
    expect(await page.evaluate(`Array.from(document.querySelectorAll('#rows td.status')).map((td) => td.title)`)).toEqual([
      'Receipt ready (ready)',
      'Completed (completed)',
      'In progress (in_progress)',
      'Arriving (arriving)',
      'Accepted (accepted)',
      'Processing (processing)',
    ]);
    expect(await textsOf(page, '#rows td.verdict')).toEqual(Array(6).fill('valid'));
    // Each was forwarded and the app accepted it; the page follows the forward's answer live.
    await expect.poll(() => textsOf(page, '#rows td.forward')).toEqual(Array(6).fill('HTTP 200'));

    await page.click(openNewest);
    expect(await textOf(page, '#detail-title')).toMatch(/^requests\.receipt_ready [0-9a-f-]{36}$/);
    expect(await textOf(page, '#detail-verdict')).toMatch(/^valid signature \(HMAC-SHA256 of \d+ bytes, the client secret of profile local\)$/);
    const raw = await textOf(page, '#body-raw');
    const sent = sandbox.webhooks.log.at(-1)!;
    expect(raw).toBe(Buffer.from(sent.body_base64, 'base64').toString('utf8'));
    expect(JSON.parse(raw!)).toMatchObject({ meta: { resource_id: rideId, status: 'ready' } });
    expect(await textOf(page, '#body-pretty')).toBe(JSON.stringify(JSON.parse(raw!), null, 2));
    expect(await textsOf(page, '#headers tbody tr')).toContain(`X-Platform-Signature${sign(Buffer.from(raw!), SANDBOX_DEMO_CLIENT_SECRET)}`);

    // The filters: by status, then by verdict.
    await page.select('#filter-status', 'accepted');
    await expect.poll(() => textsOf(page, '#rows td.status')).toEqual(['Accepted']);
    await page.select('#filter-status', '');
    await page.select('#filter-verdict', 'invalid');
    await expect.poll(() => countOf(page, rows)).toBe(0);
    await page.select('#filter-verdict', '');
    await expect.poll(() => countOf(page, rows)).toBe(6);
    await s.screenshot('1-live-deliveries');
  });

  it('edit and replay: the edited body goes re-signed, with the diff shown, and the app and `webhooks verify` accept it', FLOW, async () => {
    const { page, app, user } = s;
    await page.click(openNewest);
    const before = app.received.length;
    await page.click('#edit');
    const original = await valueOf(page, '#edit-body');
    const edited = original.replace('"status":"ready"', '"status":"ready","note":"edited in the inbox"');
    expect(edited).not.toBe(original);
    await page.fill('#edit-body', edited);
    expect(await valueOf(page, '#edit-body')).toBe(edited);
    // The diff of the JSON, pretty-printed: one line added after "status".
    await expect.poll(() => textsOf(page, '#diff .del')).toEqual(['-     "status": "ready"']);
    expect(await textsOf(page, '#diff .add')).toEqual(['+     "status": "ready",', '+     "note": "edited in the inbox"']);
    await s.screenshot('2-edit-with-diff');
    await page.click('#send-edit');
    await expect.poll(() => textOf(page, '#action-result')).toBe(`edited (resigned) to ${app.url}: HTTP 200`);

    expect(app.received).toHaveLength(before + 1);
    const got = app.received.at(-1)!;
    expect(got.body.toString('utf8')).toBe(edited);
    expect(got.answered).toBe(200);
    // The receiver's side, as a developer checks it: `platform webhooks verify` on what arrived.
    const body = path.join(s.work, 'edited.json');
    fs.writeFileSync(body, got.body);
    const verified = await user.run(['webhooks', 'verify', body, '--signature', got.header('X-Platform-Signature')!]);
    expect(verified.stderr).toBe('');
    expect(verified.code).toBe(0);
    expect(verified.stdout).toMatch(/^valid signature/);
    await expect.poll(() => textsOf(page, '#sends li')).toContainEqual(expect.stringMatching(/ edited \(resigned\) to .*: HTTP 200 in \d+ ms$/));
  });

  it('a hostile body and header render as inert text', FLOW, async () => {
    const { page, listener } = s;
    const hostile = '{"event_type":"<script>window.pwned=1</script>","meta":{"status":"<img src=x onerror=\\"window.pwned=2\\">"}}\r\n';
    const res = await fetch(listener.url, {
      method: 'POST',
      body: hostile,
      headers: { 'x-platform-signature': sign(Buffer.from(hostile), 'not-the-secret'), 'x-evil': '<b onmouseover="window.pwned=3">hover</b>' },
    });
    expect(res.status).toBe(200);
    await expect.poll(() => countOf(page, rows)).toBe(7);
    expect(await textOf(page, '#rows tr:first-child td.type')).toBe('<script>window.pwned=1</script>');
    await page.click(openNewest);
    // The raw body: every character as sent; the CR shown as an escape.
    expect(await textOf(page, '#body-raw')).toBe(hostile.replace('\r', '\\x0D'));
    expect(await textsOf(page, '#headers tbody tr')).toContain('x-evil<b onmouseover="window.pwned=3">hover</b>');
    // Invalid, with the diagnosis `verify` gives.
    expect(await textOf(page, '#detail-verdict')).toMatch(/^invalid signature: the HMAC-SHA256 of the \d+ bytes received is /);
    expect(await textOf(page, '#rows td.verdict')).toBe('invalid');
    expect(await countOf(page, '#detail script, #detail img, #detail b, #rows script, #rows img')).toBe(0);
    await page.hover('#headers');
    expect(await page.evaluate('typeof window.pwned')).toBe('undefined');
    await s.screenshot('3-hostile-body-inert');
  });

  it('is usable from the keyboard: Tab to a delivery, Enter opens it, and edit and replay with keys only', FLOW, async () => {
    const { page, listener } = s;
    await page.goto(listener.inbox);
    await expect.poll(() => countOf(page, rows)).toBe(7);
    await page.focus('#export-har');
    await page.press('Tab'); // the first row's checkbox
    await page.press('Tab'); // its open button
    expect((await focused(page)).className).toBe('open');
    await page.press('Enter');
    expect((await focused(page)).id).toBe('detail-title');
    expect(await textOf(page, '#detail-title')).toMatch(/^<script>/);
    await page.focus('#replay');
    await page.press('Tab');
    await page.press('Enter'); // Edit and replay…
    expect((await focused(page)).id).toBe('edit-body');
    await page.press('Escape');
    expect(await isHidden(page, '#editor')).toBe(true);
    expect((await focused(page)).id).toBe('edit');
  });
}
