// Sandbox reports are history: rows of past days stay byte for byte the same after pausing
// every campaign and ad group and cutting every budget, also across a restart with --state;
// a day that begins after a change delivers in the new state; a campaign created today has
// no past rows. The sandbox clock is injected and moved by the test.
import { afterEach, describe, expect, it } from 'vitest';
import path from 'node:path';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { REPORT_PROCESSING_SECONDS } from '../../../src/sandbox/reporting/index.js';
import { tempDir } from '../../helpers/cli.js';
import { api, getToken, listAll } from '../../helpers/sandbox.js';
import { waitFor } from '../../helpers/wait.js';

const DAY = 86_400_000;
// README's report week, and a month around it.
const PAST = { start_time: '2025-01-13T00:00:00Z', end_time: '2025-02-10T00:00:00Z' };
const COLUMNS = ['day_of', 'campaign_id', 'campaign_name', 'impressions', 'clicks', 'ad_spend', 'orders_7d_on_click_date', 'sales_7d_on_click_date'];
const AD_COLUMNS = ['day_of', 'campaign_id', 'ad_group_id', 'ad_group_name', 'impressions', 'clicks', 'ad_spend'];

const open: Sandbox[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
});

async function sandboxAt(clock: { now: number }, statePath?: string) {
  const sandbox = await startSandbox({ port: 0, now: () => clock.now, statePath });
  open.push(sandbox);
  const token = await getToken(sandbox.url);
  const account = (await api(sandbox.url, token, 'GET', '/v1/ads/ad-accounts')).body.ad_accounts[0];
  const call = (method: string, p: string, body?: unknown) => api(sandbox.url, token, method, `/v1/ads/${account.ad_account_id}${p}`, body);
  const sync = async (type: string, columns: string[], range: object = PAST): Promise<string[][]> => {
    const res = await call('POST', '/reporting/sync', { report_type: type, time_range: range, columns, time_unit: 'DAILY' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return (res.body.data.rows as Array<{ values: string[] }>).map((r) => r.values);
  };
  /** The CSV file of a report job, as downloaded. */
  const job = async (range: object = PAST): Promise<string> => {
    const created = await call('POST', '/reporting/report', {
      report_type: 'CAMPAIGN_PERFORMANCE',
      time_range: range,
      columns: COLUMNS,
      time_unit: 'DAILY',
      file_format: 'CSV',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    clock.now += REPORT_PROCESSING_SECONDS * 1000;
    const done = await waitFor(
      async () => {
        const status = await call('GET', `/reporting/${created.body.report_id}`);
        if (status.body.status === 'COMPLETED') return status;
        expect(status.body.status).toBe('PROCESSING');
        return undefined;
      },
      { what: `report ${created.body.report_id} to complete` },
    );
    return (await fetch(done.body.result.success_result.report_url)).text();
  };
  const campaigns = () => listAll(sandbox.url, token, `/v1/ads/${account.ad_account_id}/campaigns`, 'campaigns', 2000);
  return { sandbox, call, sync, job, campaigns, currency: account.currency_code as string };
}

/** Pauses every campaign and ad group and sets every campaign's budget to 1.00 a day. */
async function pauseAndCutEverything(s: Awaited<ReturnType<typeof sandboxAt>>): Promise<string[]> {
  const campaigns = await s.campaigns();
  const budget = { unit: 'BUDGET_UNIT_DAILY', total: { amount_e5: '100000', currency_code: s.currency } };
  const res = await s.call('PATCH', '/campaigns', {
    campaigns: campaigns.map((c) => ({ campaign_id: c.campaign_id, configured_status: 'CAMPAIGN_CONFIGURED_STATUS_PAUSED', budget })),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  for (const c of campaigns) {
    const groups = (await s.call('GET', `/campaigns/${c.campaign_id}/ad-groups`)).body.ad_groups as Array<{ ad_group_id: string }>;
    if (groups.length === 0) continue;
    const g = await s.call('PATCH', `/campaigns/${c.campaign_id}/ad-groups`, {
      ad_groups: groups.map((x) => ({ ad_group_id: x.ad_group_id, configured_status: 'AD_GROUP_CONFIGURED_STATUS_PAUSED' })),
    });
    expect(g.status, JSON.stringify(g.body)).toBe(200);
  }
  return campaigns.map((c) => c.campaign_id as string);
}

describe('sandbox reports are history', () => {
  it('rows of a past range are byte-identical after pausing everything and cutting budgets; later days follow the new state', async () => {
    const clock = { now: Date.parse('2025-03-01T12:00:00Z') };
    const s = await sandboxAt(clock);
    const before = { campaigns: await s.sync('CAMPAIGN_PERFORMANCE', COLUMNS), ads: await s.sync('AD_PERFORMANCE', AD_COLUMNS), file: await s.job() };
    expect(before.campaigns.length).toBeGreaterThan(100);
    expect(before.ads.length).toBeGreaterThan(10);
    expect(before.file.split('\n').length).toBeGreaterThan(100);

    const ids = await pauseAndCutEverything(s);
    expect(await s.sync('CAMPAIGN_PERFORMANCE', COLUMNS)).toEqual(before.campaigns);
    expect(await s.sync('AD_PERFORMANCE', AD_COLUMNS)).toEqual(before.ads);
    expect(await s.job()).toBe(before.file);

    // Two days on: the day of the change began before it and delivered as before; the next
    // day began with everything paused and delivered nothing.
    const changeDay = Date.parse('2025-03-01T00:00:00Z');
    const range = { start_time: '2025-02-28T00:00:00Z', end_time: '2025-03-03T00:00:00Z' };
    clock.now = changeDay + 2 * DAY + 3_600_000;
    const days = new Set((await s.sync('CAMPAIGN_PERFORMANCE', COLUMNS, range)).map((r) => r[0]));
    expect(days).toEqual(new Set(['2025-02-28T00:00:00Z', '2025-03-01T00:00:00Z']));

    // Resumed the next morning with the 1.00 budget: from the day after, spend is capped at 1.00.
    const resumed = await s.call('PATCH', '/campaigns', {
      campaigns: ids.map((campaign_id) => ({ campaign_id, configured_status: 'CAMPAIGN_CONFIGURED_STATUS_ACTIVE' })),
    });
    expect(resumed.status).toBe(200);
    clock.now += 2 * DAY;
    const after = await s.sync('CAMPAIGN_PERFORMANCE', COLUMNS, { start_time: '2025-03-02T00:00:00Z', end_time: '2025-03-05T00:00:00Z' });
    expect(new Set(after.map((r) => r[0]))).toEqual(new Set(['2025-03-04T00:00:00Z']));
    for (const r of after) expect(Number(r[COLUMNS.indexOf('ad_spend')])).toBeLessThanOrEqual(1);
    // And still the same January.
    expect(await s.sync('CAMPAIGN_PERFORMANCE', COLUMNS)).toEqual(before.campaigns);
  });

  it('a campaign created today has no past rows; it delivers from the first day that begins after its creation', async () => {
    const clock = { now: Date.parse('2025-03-01T12:00:00Z') };
    const s = await sandboxAt(clock);
    const created = await s.call('POST', '/campaigns', { campaigns: [{ name: 'Brand new', configured_status: 'CAMPAIGN_CONFIGURED_STATUS_ACTIVE' }] });
    expect(created.status).toBe(200);
    const id = created.body.results[0].success.id as string;
    const filter = { filters: [{ column: 'campaign_id', operator: 'EQUAL', values: [id] }] };
    const res = await s.call('POST', '/reporting/sync', {
      report_type: 'CAMPAIGN_PERFORMANCE',
      time_range: { start_time: '2025-01-01T00:00:00Z', end_time: '2025-03-01T00:00:00Z' },
      columns: COLUMNS,
      time_unit: 'DAILY',
      ...filter,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.rows).toEqual([]);
    clock.now += 2 * DAY;
    const later = await s.call('POST', '/reporting/sync', {
      report_type: 'CAMPAIGN_PERFORMANCE',
      time_range: { start_time: '2025-01-01T00:00:00Z', end_time: '2025-03-03T00:00:00Z' },
      columns: COLUMNS,
      time_unit: 'DAILY',
      ...filter,
    });
    expect((later.body.data.rows as Array<{ values: string[] }>).map((r) => r.values[0])).toEqual(['2025-03-02T00:00:00Z']);
  });

  it('the history survives a restart with --state', async () => {
    const clock = { now: Date.parse('2025-03-01T12:00:00Z') };
    const state = path.join(tempDir(), 'state.json');
    const first = await sandboxAt(clock, state);
    const before = await first.sync('CAMPAIGN_PERFORMANCE', COLUMNS);
    await pauseAndCutEverything(first);
    await first.sandbox.close();
    open.splice(open.indexOf(first.sandbox), 1);
    const second = await sandboxAt(clock, state);
    expect((await second.campaigns()).every((c) => c.configured_status === 'CAMPAIGN_CONFIGURED_STATUS_PAUSED')).toBe(true);
    expect(await second.sync('CAMPAIGN_PERFORMANCE', COLUMNS)).toEqual(before);
  });
});
