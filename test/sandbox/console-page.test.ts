// The console page at /_sandbox/ in headless Chromium (Firefox and WebKit engines are not
// installable here): the live log shows a hostile request as text, a hostile campaign name
// stays text, nothing loads from another origin, the CSP holds with no violation, and a
// snapshot is saved and restored from the keyboard alone.
import fs from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { tempDir } from '../helpers/cli.js';
import { chromiumTool as chromium, launchChromium } from '../helpers/chromium.js';
import { api, getToken } from './helpers.js';

const chromiumTool = chromium();
const HOSTILE = '<img src=x onerror="window.pwned=1">\u202Eevil "quoted" &amp;';

describe.skipIf(!chromiumTool.present)(`sandbox console in headless Chromium${chromiumTool.skipNote}`, () => {
  let sandbox: Sandbox;
  let browser: Browser;
  const shots = tempDir('platform-console-shots-');

  beforeAll(async () => {
    sandbox = await startSandbox({
      port: 0,
      chaosSeed: 3,
      faultRules: [{ text: 'GET /v1/ads/*/stores=503', method: 'GET', segments: ['v1', 'ads', '*', 'stores'], outcome: 503, rate: 1 }],
    });
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await sandbox?.close();
  });

  it('shows the live log, the data and hostile text as text, and saves and restores from the keyboard', async () => {
    const token = await getToken(sandbox.url);
    const account = (await api(sandbox.url, token, 'GET', '/v1/ads/ad-accounts')).body.ad_accounts[0].ad_account_id;
    await api(sandbox.url, token, 'POST', `/v1/ads/${account}/campaigns`, {
      campaigns: [{ name: HOSTILE, configured_status: 'CAMPAIGN_CONFIGURED_STATUS_ACTIVE' }],
    });

    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems: string[] = [];
    const origins = new Set<string>();
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('dialog', (d) => problems.push(`dialog ${d.message()}`));
    page.on('request', (r) => origins.add(new URL(r.url()).origin));
    const response = await page.goto(`${sandbox.url}/_sandbox/`);
    expect(response?.headers()['content-security-policy']).toContain("default-src 'self'");
    expect(response?.headers()['x-content-type-options']).toBe('nosniff');

    // A request after the page opened arrives over the event stream, its fault named.
    // A C1 control (NEL, byte 0x85) in a header: HTTP clients refuse C0 ones.
    await new Promise<void>((resolve, reject) => {
      const headers = { authorization: `Bearer ${token}`, 'user-agent': 'agent <script>alert(1)</script>\u0085[31m' };
      request(`${sandbox.url}/v1/ads/${account}/stores`, { headers }, (res) => res.resume().on('end', resolve))
        .on('error', reject)
        .end();
    });
    const faultRow = page.locator('#log tbody tr.fault').first();
    await faultRow.waitFor();
    const faultText = await faultRow.textContent();
    expect(faultText).toContain('503 (--fault GET /v1/ads/*/stores=503)');
    expect(faultText).toContain('agent <script>alert(1)</script>\\u0085[31m');

    const campaignCell = page.locator('#campaigns tbody td', { hasText: 'evil' }).first();
    await campaignCell.waitFor();
    expect(await campaignCell.textContent()).toBe('<img src=x onerror="window.pwned=1">\\u202eevil "quoted" &amp;');
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.evaluate('window.pwned')).toBeUndefined();
    await page.screenshot({ path: path.join(shots, 'console-overview.png'), fullPage: true });

    // Keyboard only: Tab to the name field, type, Enter saves; Tab on to Restore, Enter.
    for (let i = 0; i < 10 && (await page.evaluate('document.activeElement?.id')) !== 'snapshot-name'; i++) await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement?.id')).toBe('snapshot-name');
    await page.keyboard.type('clean');
    await page.keyboard.press('Enter');
    await page.locator('#status', { hasText: 'Saved clean' }).waitFor();
    await api(sandbox.url, token, 'POST', `/v1/ads/${account}/campaigns`, {
      campaigns: [{ name: 'made after the snapshot', configured_status: 'CAMPAIGN_CONFIGURED_STATUS_ACTIVE' }],
    });
    for (let i = 0; i < 10 && (await page.evaluate('document.activeElement?.textContent')) !== 'Restore'; i++) await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.locator('#status', { hasText: 'Restored clean' }).waitFor();
    expect(sandbox.snapshots.list().map((s) => s.name)).toEqual(['clean']);
    expect(JSON.stringify(JSON.parse(await (await fetch(`${sandbox.url}/_sandbox/state`)).text()).campaigns)).not.toContain('made after the snapshot');
    await page.screenshot({ path: path.join(shots, 'console-restored.png'), fullPage: true });

    expect(problems).toEqual([]);
    expect([...origins]).toEqual([sandbox.url]);
    // One set for the closing note, outside the repository.
    const notes = '/work/notes/screenshots';
    if (fs.existsSync('/work/notes')) {
      fs.mkdirSync(notes, { recursive: true });
      for (const file of fs.readdirSync(shots)) fs.copyFileSync(path.join(shots, file), path.join(notes, file));
    }
    console.log(`console screenshots: ${shots}`);
  }, 60_000);
});
