// The two pages checked as a user looks at them, in any engine (design.test.ts in Chromium,
// the *-engines tests in Firefox and WebKit): each state of the inbox (empty, six deliveries,
// an invalid one selected, edit and replay) and of the console (empty; 10,000 campaigns and a
// fault log; a bad snapshot name; the Reset confirmation), at 1280x800 and 390x844, with
// axe-core's serious and critical violations, words broken across lines in table cells and
// cells cut short without a title all measured in the page, and a screenshot of each.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SANDBOX_DEMO_CLIENT_ID, SANDBOX_DEMO_CLIENT_SECRET } from '../../src/schemas/sandbox.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { sign } from '../../src/webhooks/hmac.js';
import { attributeOf, countOf, focused, isHidden, textOf, textsOf, type BrowserPage } from './browser-page.js';
import { sandboxOnFreePort, TestUser } from './cli.js';
import { checkingReceiver, listenInspecting, type CheckingReceiver, type InspectingListener } from './inbox.js';
import { axeProblems, breakACell, brokenWords, cutWithoutTitle, screenshotFolder, shoot } from './page-checks.js';
import { userToken } from './rider.js';
import { api, getToken } from './sandbox.js';
import { scaled } from './time-scale.js';
import { rideToCompletion } from './webhooks.js';

export const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;

/** A page the flows look through: its name in screenshot file names and its viewport. */
export interface DesignPage {
  name: string;
  viewport: { width: number; height: number };
  page: BrowserPage;
}

export interface DesignEngine {
  engine: string;
  /** The pages to check each state in (each viewport; Chromium adds a dark one). */
  open(): Promise<DesignPage[]>;
  close(): Promise<void>;
}

const FLOW = { timeout: scaled(90_000) };

/** Measures one state on one page and takes its screenshot; returns the file. */
async function checkState(p: DesignPage, dir: string, state: string, tables: string[]): Promise<string> {
  const at = `${state} at ${p.viewport.width}x${p.viewport.height}, ${p.name}`;
  expect(await brokenWords(p.page, tables.map((t) => `${t} td, ${t} th`).join(', ')), `${at}: words broken across lines`).toEqual([]);
  // Headers are words that fit their columns; a value may be cut, with the whole of it in its title.
  expect(await cutWithoutTitle(p.page, tables.map((t) => `${t} td`).join(', ')), `${at}: values cut short without a title`).toEqual([]);
  expect(await axeProblems(p.page), `${at}: axe-core`).toEqual([]);
  return shoot(p.page, dir, `${state}-${p.name}`, p.viewport);
}

const INBOX_CELLS = ['#list', '#headers'];

/** Call inside a describe block. */
export function inboxDesignFlows(launch: () => Promise<DesignEngine>): void {
  let sandbox: Sandbox;
  let app: CheckingReceiver;
  let listener: InspectingListener;
  let engine: DesignEngine;
  let pages: DesignPage[];
  let dir: string;
  const shots: string[] = [];

  beforeAll(async () => {
    sandbox = await sandboxOnFreePort({ timeScale: 20_000 });
    app = await checkingReceiver(SANDBOX_DEMO_CLIENT_SECRET);
    const user = new TestUser(sandbox, { PLATFORM_WEBHOOK_SECRET: undefined });
    listener = await listenInspecting(user, ['--forward-to', app.url]);
    engine = await launch();
    dir = screenshotFolder(engine.engine);
    pages = await engine.open();
  }, scaled(60_000));
  afterAll(async () => {
    console.log(`inbox screenshots (${engine?.engine}): ${dir}\n  ${shots.join('\n  ')}`);
    await engine?.close();
    await listener?.stop();
    await app?.close();
    await sandbox?.close();
  });

  it('empty: says what to run, and passes axe', FLOW, async () => {
    for (const p of pages) {
      await p.page.goto(listener.inbox);
      await expect.poll(() => textOf(p.page, '#live')).toMatch(/^live: 0 deliveries/);
      expect(await isHidden(p.page, '#empty')).toBe(false);
      expect(await textOf(p.page, '#empty-command')).toBe(`platform webhooks trigger requests.status_changed --to ${listener.url}`);
      expect(await textOf(p.page, '#detail-placeholder')).toMatch(/^Select a delivery/);
      shots.push(await checkState(p, dir, 'inbox-empty', INBOX_CELLS));
    }
  });

  it('six deliveries: no word broken in a cell, friendly statuses with the enum in the title', FLOW, async () => {
    sandbox.webhooks.setUrl(SANDBOX_DEMO_CLIENT_ID, `${listener.url}/webhooks`);
    await rideToCompletion(sandbox, await userToken(sandbox.url, 'profile request request_receipt'));
    await sandbox.webhooks.idle();
    for (const p of pages) {
      await expect.poll(() => countOf(p.page, '#rows tr'), { timeout: scaled(10_000) }).toBe(6);
      await expect.poll(() => textsOf(p.page, '#rows td.forward')).toEqual(Array(6).fill('HTTP 200'));
      expect(await isHidden(p.page, '#empty')).toBe(true);
      expect(await attributeOf(p.page, '#rows tr:nth-child(3) td.status', 'title')).toBe('In progress (in_progress)');
      shots.push(await checkState(p, dir, 'inbox-6-deliveries', INBOX_CELLS));
    }
  });

  it('an invalid delivery selected: its verdict, headers and body, still no word broken', FLOW, async () => {
    const body = JSON.stringify({
      event_id: '3f0e1c2a-9b7d-4e61-a3f2-5c8d9e0f1a2b',
      event_type: 'requests.status_changed',
      meta: { resource_id: 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f', status: 'driver_canceled' },
    });
    const res = await fetch(`${listener.url}/webhooks`, {
      method: 'POST',
      body,
      headers: { 'x-platform-signature': sign(Buffer.from(body), 'an-old-secret') },
    });
    expect(res.status).toBe(200);
    for (const p of pages) {
      await expect.poll(() => countOf(p.page, '#rows tr')).toBe(7);
      await p.page.click('#rows tr:first-child button.open');
      expect(await textOf(p.page, '#detail-verdict')).toMatch(/^invalid signature/);
      expect(await textOf(p.page, '#rows tr:first-child td.verdict')).toBe('invalid');
      expect(await textOf(p.page, '#rows tr:first-child td.status')).toBe('Driver canceled');
      shots.push(await checkState(p, dir, 'inbox-invalid-selected', INBOX_CELLS));
    }
  });

  it('edit and replay: the editor with its diff, then the send', FLOW, async () => {
    for (const p of pages) {
      await p.page.click('#rows tr:nth-child(2) button.open');
      await p.page.click('#edit');
      await p.page.fill(
        '#edit-body',
        (await p.page.evaluate<string>(`document.getElementById('edit-body').value`)).replace('"status":"ready"', '"status":"ready","note":"edited"'),
      );
      await expect.poll(() => textsOf(p.page, '#diff .add')).toEqual(['+     "status": "ready",', '+     "note": "edited"']);
      shots.push(await checkState(p, dir, 'inbox-edit-replay', INBOX_CELLS));
    }
    const first = pages[0]!.page;
    await first.click('#send-edit');
    await expect.poll(() => textOf(first, '#action-result')).toBe(`edited (resigned) to ${app.url}: HTTP 200`);
  });

  it('the keyboard: ? lists the keys, j/k move, r replays, / filters', FLOW, async () => {
    const page = pages[0]!.page;
    await page.goto(listener.inbox);
    await expect.poll(() => countOf(page, '#rows tr')).toBe(7);
    await page.type('?');
    expect(await page.evaluate('document.getElementById("help").open')).toBe(true);
    expect(await textsOf(page, '#help dt')).toEqual(['j / k', 'Enter', 'r', 'e', '/', 'Esc', '?']);
    shots.push(await shoot(page, dir, `inbox-keys-${pages[0]!.name}`, pages[0]!.viewport));
    await page.press('Escape');
    expect(await page.evaluate('document.getElementById("help").open')).toBe(false);
    await page.type('j');
    await page.type('j');
    await page.type('k');
    const firstId = await attributeOf(page, '#rows tr:first-child', 'data-id');
    expect(await attributeOf(page, '#rows tr.current', 'data-id')).toBe(firstId);
    expect((await focused(page)).className).toBe('open');
    await page.press('Enter');
    expect((await focused(page)).id).toBe('detail-title');
    await page.type('j'); // the second row: a valid delivery with a forward target
    await page.type('r');
    await expect.poll(() => textOf(page, '#action-result')).toMatch(/^replay \(as-received\) to .*: HTTP 200$/);
    await page.type('/');
    expect((await focused(page)).id).toBe('filter-text');
    await page.type('receipt');
    await expect.poll(() => textsOf(page, '#rows td.type')).toEqual(['requests.receipt_ready']);
  });

  it('the broken-word check catches a cell made to break a word', FLOW, async () => {
    const page = pages[0]!.page;
    await page.goto(listener.inbox);
    await expect.poll(() => countOf(page, '#rows tr')).toBe(7);
    expect(await brokenWords(page, '#list td')).toEqual([]);
    await page.evaluate(breakACell('#rows tr:nth-child(2) td.status'));
    expect(await brokenWords(page, '#list td')).not.toEqual([]);
  });
}

const CONSOLE_CELLS = ['main'];

/** Call inside a describe block. */
export function consoleDesignFlows(launch: () => Promise<DesignEngine>): void {
  let sandbox: Sandbox;
  let engine: DesignEngine;
  let pages: DesignPage[];
  let dir: string;
  const shots: string[] = [];

  beforeAll(async () => {
    sandbox = await startSandbox({
      port: 0,
      chaosSeed: 3,
      campaigns: 10_000,
      faultRules: [{ text: 'GET /v1/ads/*/stores=503', method: 'GET', segments: ['v1', 'ads', '*', 'stores'], outcome: 503, rate: 1 }],
    });
    engine = await launch();
    dir = screenshotFolder(engine.engine);
    pages = await engine.open();
  }, scaled(60_000));
  afterAll(async () => {
    console.log(`console screenshots (${engine?.engine}): ${dir}\n  ${shots.join('\n  ')}`);
    await engine?.close();
    await sandbox?.close();
  });

  it('empty log, snapshots, rides and deliveries: each says what to run', FLOW, async () => {
    for (const p of pages) {
      await p.page.goto(`${sandbox.url}/_sandbox/`);
      await expect.poll(() => textOf(p.page, '#campaign-count')).toBe('newest 100 of 10,000');
      for (const id of ['#log-empty', '#snapshots-empty', '#rides-empty', '#webhooks-empty']) expect(await isHidden(p.page, id), id).toBe(false);
      expect(await textOf(p.page, '#log-empty')).toContain('platform ads campaigns list');
      shots.push(await checkState(p, dir, 'console-empty', CONSOLE_CELLS));
    }
  });

  it('10,000 campaigns and a fault log: numbers and times on one line, statuses in words', FLOW, async () => {
    const token = await getToken(sandbox.url);
    const account = (await api(sandbox.url, token, 'GET', '/v1/ads/ad-accounts')).body.ad_accounts[0].ad_account_id;
    for (let i = 0; i < 4; i++) {
      await api(sandbox.url, token, 'GET', `/v1/ads/${account}/campaigns?page_limit=50`);
      await api(sandbox.url, token, 'GET', `/v1/ads/${account}/stores`);
    }
    for (const p of pages) {
      await expect.poll(() => countOf(p.page, '#log tbody tr.fault')).toBe(4);
      expect(await isHidden(p.page, '#log-empty')).toBe(true);
      expect(await textOf(p.page, '#campaigns tbody tr:first-child td.status')).toMatch(/^(Active|Paused)$/);
      shots.push(await checkState(p, dir, 'console-10000-campaigns', CONSOLE_CELLS));
      await p.page.click('#faults-only');
      await expect.poll(() => countOf(p.page, '#log tbody tr:not([hidden])')).toBe(4);
      shots.push(await checkState(p, dir, 'console-fault-log', CONSOLE_CELLS));
      await p.page.click('#faults-only');
    }
  });

  it('a bad snapshot name gets our own message, and nothing is saved', FLOW, async () => {
    for (const p of pages) {
      await p.page.fill('#snapshot-name', 'before import!');
      await p.page.click('#save');
      expect(await textOf(p.page, '#name-error')).toBe(`Only letters, digits, '.', '_' and '-' (a name is also a file name); not space, "!".`);
      expect(await attributeOf(p.page, '#snapshot-name', 'aria-invalid')).toBe('true');
      expect(sandbox.snapshots.list()).toEqual([]);
      shots.push(await checkState(p, dir, 'console-name-error', CONSOLE_CELLS));
      await p.page.fill('#snapshot-name', 'before-import');
      expect(await textOf(p.page, '#name-error')).toBe('');
    }
  });

  it('Reset asks first, naming what is lost; Escape keeps the state', FLOW, async () => {
    for (const p of pages) {
      await p.page.click('#reset');
      expect(await p.page.evaluate('document.getElementById("confirm").open')).toBe(true);
      expect(await textOf(p.page, '#confirm-text')).toMatch(
        /^The current state \(10,0\d\d campaigns in \d+ accounts, rides and webhook attempts\) goes back to the seeded demo data/,
      );
      expect((await focused(p.page)).id).toBe('confirm-cancel');
      expect(await axeProblems(p.page)).toEqual([]);
      shots.push(await shoot(p.page, dir, `console-reset-confirm-${p.name}`, p.viewport));
      await p.page.press('Escape');
      expect(await p.page.evaluate('document.getElementById("confirm").open')).toBe(false);
    }
    expect(await textOf(pages[0]!.page, '#campaign-count')).toBe('newest 100 of 10,000');
  });

  it('the keyboard: ? lists the keys, j/k walk the log, / filters it', FLOW, async () => {
    const page = pages[0]!.page;
    await page.evaluate('document.activeElement.blur()');
    await page.type('?');
    expect(await page.evaluate('document.getElementById("help").open')).toBe(true);
    await page.press('Escape');
    await page.type('j');
    await page.type('j');
    await page.type('k');
    const newest = await textOf(page, '#log tbody tr:first-child td:first-child');
    expect(await textOf(page, '#log tbody tr.current td:first-child')).toBe(newest);
    await page.type('/');
    expect((await focused(page)).id).toBe('log-filter');
    await page.type('stores');
    await expect.poll(() => countOf(page, '#log tbody tr:not([hidden])')).toBe(4);
  });
}
