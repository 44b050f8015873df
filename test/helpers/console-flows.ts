// The sandbox console page (/_sandbox/) as a person uses it, written once against the
// engine-neutral BrowserPage and run in each engine (console-page.test.ts in Chromium,
// console-engines.test.ts in Firefox and WebKit): the live log shows a hostile request as text
// with its fault named, a hostile campaign name stays text, and a snapshot is saved and
// restored from the keyboard alone.
import { request } from 'node:http';
import { expect } from 'vitest';
import type { Sandbox, SandboxOptions } from '../../src/sandbox/index.js';
import { countOf, focused, textOf, type BrowserPage } from './browser-page.js';
import { api, getToken } from './sandbox.js';
import { scaled } from './time-scale.js';

const HOSTILE = '<img src=x onerror="window.pwned=1">\u202Eevil "quoted" &amp;';

/** The sandbox the flow expects: every stores list a 503 fault. */
export const consoleSandboxOptions: SandboxOptions = {
  port: 0,
  chaosSeed: 3,
  faultRules: [{ text: 'GET /v1/ads/*/stores=503', method: 'GET', segments: ['v1', 'ads', '*', 'stores'], outcome: 503, rate: 1 }],
};

/** The whole flow; `screenshot(name)` is called at its two sights (overview, restored). */
export async function consoleFlow(page: BrowserPage, sandbox: Sandbox, screenshot: (name: string) => Promise<void>): Promise<void> {
  const token = await getToken(sandbox.url);
  const account = (await api(sandbox.url, token, 'GET', '/v1/ads/ad-accounts')).body.ad_accounts[0].ad_account_id;
  await api(sandbox.url, token, 'POST', `/v1/ads/${account}/campaigns`, {
    campaigns: [{ name: HOSTILE, configured_status: 'CAMPAIGN_CONFIGURED_STATUS_ACTIVE' }],
  });
  await page.goto(`${sandbox.url}/_sandbox/`);

  // A request after the page opened arrives over the event stream, its fault named.
  // A C1 control (NEL, byte 0x85) in a header: HTTP clients refuse C0 ones.
  await new Promise<void>((resolve, reject) => {
    const headers = { authorization: `Bearer ${token}`, 'user-agent': 'agent <script>alert(1)</script>\u0085[31m' };
    request(`${sandbox.url}/v1/ads/${account}/stores`, { headers }, (res) => res.resume().on('end', resolve))
      .on('error', reject)
      .end();
  });
  await expect.poll(() => textOf(page, '#log tbody tr.fault'), { timeout: scaled(10_000) }).toContain('503 (--fault GET /v1/ads/*/stores=503)');
  expect(await textOf(page, '#log tbody tr.fault')).toContain('agent <script>alert(1)</script>\\u0085[31m');

  const campaignCell = `Array.from(document.querySelectorAll('#campaigns tbody td')).find((td) => td.textContent.includes('evil'))?.textContent ?? null`;
  await expect.poll(() => page.evaluate(campaignCell)).toBe('<img src=x onerror="window.pwned=1">\\u202eevil "quoted" &amp;');
  expect(await countOf(page, 'img')).toBe(0);
  expect(await page.evaluate('typeof window.pwned')).toBe('undefined');
  await screenshot('overview');

  // Keyboard only: Tab to the name field, type, Enter saves; Tab on to Restore, Enter.
  for (let i = 0; i < 10 && (await focused(page)).id !== 'snapshot-name'; i++) await page.press('Tab');
  expect((await focused(page)).id).toBe('snapshot-name');
  await page.type('clean');
  await page.press('Enter');
  await expect.poll(() => textOf(page, '#status')).toContain('Saved clean');
  await api(sandbox.url, token, 'POST', `/v1/ads/${account}/campaigns`, {
    campaigns: [{ name: 'made after the snapshot', configured_status: 'CAMPAIGN_CONFIGURED_STATUS_ACTIVE' }],
  });
  const focusedText = () => page.evaluate<string | null>('document.activeElement?.textContent ?? null');
  // The snapshot's row (and its Restore button) comes with the page's next refresh, not with the status line.
  await expect.poll(() => page.evaluate<boolean>("[...document.querySelectorAll('#snapshots button')].some((b) => b.textContent === 'Restore')")).toBe(true);
  for (let i = 0; i < 10 && (await focusedText()) !== 'Restore'; i++) await page.press('Tab');
  expect(await focusedText()).toBe('Restore');
  await page.press('Enter');
  // A confirmation naming what is lost, its Cancel focused first: Tab to Restore, Enter.
  expect(await textOf(page, '#confirm-text')).toMatch(
    /^The current state \(\d+ campaigns in \d+ accounts, rides and webhook attempts\) is replaced by the snapshot saved at .* Every change since then is lost/,
  );
  expect((await focused(page)).id).toBe('confirm-cancel');
  await page.press('Tab');
  expect((await focused(page)).id).toBe('confirm-ok');
  await page.press('Enter');
  await expect.poll(() => textOf(page, '#status')).toContain('Restored clean');
  expect(sandbox.snapshots.list().map((s) => s.name)).toEqual(['clean']);
  expect(JSON.stringify(JSON.parse(await (await fetch(`${sandbox.url}/_sandbox/state`)).text()).campaigns)).not.toContain('made after the snapshot');
  await screenshot('restored');
}
