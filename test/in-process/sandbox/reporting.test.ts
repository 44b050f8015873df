// Sandbox reporting over HTTP: shapes per the OpenAPI, consistent numbers, validation naming
// the field, scopes and 404s, the job life cycle on the sandbox clock, the download origin.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { parse } from 'csv-parse/sync';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { CreateReportResponse, ReportStatusResponse, SyncReportResponse } from '../../../src/schemas/report-requests.js';
import { REPORT_PROCESSING_SECONDS } from '../../../src/sandbox/reporting/index.js';
import type { Campaign } from '../../../src/schemas/ads.js';
import { api, getToken, listAll, type ApiResult } from '../../helpers/sandbox.js';
import { waitFor } from '../../helpers/wait.js';

let now = Date.parse('2026-03-01T12:00:00Z');
let sandbox: Sandbox;
let token: string;
let account: string;
let campaigns: Campaign[];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, now: () => now });
  token = await getToken(sandbox.url);
  account = (await api(sandbox.url, token, 'GET', '/v1/ads/ad-accounts')).body.ad_accounts[0].ad_account_id;
  campaigns = await listAll(sandbox.url, token, `/v1/ads/${account}/campaigns`, 'campaigns', 2000);
});
afterAll(() => sandbox.close());

// Four weeks (Monday to Monday) in which the seeded ad groups serve.
const RANGE = { start_time: '2025-01-13T00:00:00Z', end_time: '2025-02-10T00:00:00Z' };
const METRICS = ['impressions', 'clicks', 'ad_spend', 'orders_7d_on_click_date', 'sales_7d_on_click_date'];
const RATIOS = [
  'click_through_rate',
  'cost_per_click',
  'cost_per_mille',
  'roas_7d_on_click_date',
  'conversion_rate_7d_on_click_date',
  'cost_per_order_7d_on_click_date',
];

const post = (path: string, body: unknown, t = token) => api(sandbox.url, t, 'POST', `/v1/ads/${account}${path}`, body);
const get = (path: string, t = token) => api(sandbox.url, t, 'GET', `/v1/ads/${account}${path}`);

type Row = Record<string, string>;

function rowsOf(res: ApiResult): Row[] {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const body = SyncReportResponse.parse(res.body);
  const names = body.schema.columns.map((c) => c.name);
  return body.data.rows.map((r) => Object.fromEntries(r.values.map((v, i) => [names[i]!, v])));
}

async function sync(type: string, unit: string, columns: string[], extra: object = {}): Promise<Row[]> {
  return rowsOf(await post('/reporting/sync', { report_type: type, time_range: RANGE, columns, time_unit: unit, ...extra }));
}

/** Advances the sandbox clock past processing and waits (real time) until the file is written. */
async function finish(reportId: string, acc = account): Promise<ApiResult> {
  now += REPORT_PROCESSING_SECONDS * 1000;
  let last: ApiResult | undefined;
  return waitFor(
    async () => {
      last = await api(sandbox.url, token, 'GET', `/v1/ads/${acc}/reporting/${reportId}`);
      return (last.status !== 200 || last.body.status !== 'PROCESSING') && last;
    },
    { what: `report ${reportId} to leave PROCESSING`, state: () => last?.body },
  );
}

async function runReport(type: string, unit: string, columns: string[], extra: object = {}): Promise<{ header: string[]; rows: Row[]; status: any }> {
  const created = await post('/reporting/report', { report_type: type, time_range: RANGE, columns, time_unit: unit, file_format: 'CSV', ...extra });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const status = (await finish(CreateReportResponse.parse(created.body).report_id)).body;
  expect(status.status).toBe('COMPLETED');
  const res = await fetch(status.result.success_result.report_url);
  const text = await res.text();
  expect(Buffer.byteLength(text)).toBe(Number(status.result.success_result.file_size));
  const [header, ...records] = parse(text) satisfies string[][];
  return { header: header!, rows: records.map((r) => Object.fromEntries(r.map((v, i) => [header![i]!, v]))), status };
}

const num = (v: string | undefined) => Number(v);
const cents = (v: string | undefined) => Math.round(Number(v) * 100);

interface Totals {
  impressions: number;
  clicks: number;
  orders: number;
  spend: number;
  sales: number;
}

function sumBy(rows: Row[], key: (r: Row) => string): Map<string, Totals> {
  const out = new Map<string, Totals>();
  for (const r of rows) {
    const k = key(r);
    const t = out.get(k) ?? { impressions: 0, clicks: 0, orders: 0, spend: 0, sales: 0 };
    t.impressions += num(r.impressions);
    t.clicks += num(r.clicks);
    t.orders += num(r.orders_7d_on_click_date);
    t.spend += cents(r.ad_spend);
    t.sales += cents(r.sales_7d_on_click_date);
    out.set(k, t);
  }
  return out;
}

const totalsOf = (r: Row) => ({
  impressions: num(r.impressions),
  clicks: num(r.clicks),
  orders: num(r.orders_7d_on_click_date),
  spend: cents(r.ad_spend),
  sales: cents(r.sales_7d_on_click_date),
});

describe('sync report', () => {
  it('answers the OpenAPI shape: the unit time column first, typed columns, string values', async () => {
    const res = await post('/reporting/sync', {
      report_type: 'AD_PERFORMANCE',
      time_range: RANGE,
      columns: ['campaign_id', 'ad_group_id', ...METRICS, 'roas_7d_on_click_date'],
      time_unit: 'DAILY',
    });
    const body = SyncReportResponse.parse(res.body);
    expect(body.schema.columns.map((c) => [c.name, c.type])).toEqual([
      ['day_of', 'COLUMN_TYPE_TIMESTAMP'],
      ['campaign_id', 'COLUMN_TYPE_STRING'],
      ['ad_group_id', 'COLUMN_TYPE_STRING'],
      ['impressions', 'COLUMN_TYPE_INT64'],
      ['clicks', 'COLUMN_TYPE_INT64'],
      ['ad_spend', 'COLUMN_TYPE_DOUBLE'],
      ['orders_7d_on_click_date', 'COLUMN_TYPE_INT64'],
      ['sales_7d_on_click_date', 'COLUMN_TYPE_DOUBLE'],
      ['roas_7d_on_click_date', 'COLUMN_TYPE_DOUBLE'],
    ]);
    expect(body.data.rows.length).toBeGreaterThan(100);
    for (const { values } of body.data.rows) {
      expect(values[0]).toMatch(/^2025-0[12]-\d\dT00:00:00Z$/);
      expect(values[3]).toMatch(/^\d+$/);
      expect(values[5]).toMatch(/^\d+\.\d\d$/);
    }
  });

  it('is deterministic: the same query gives the same rows, on another sandbox with the same seed too', async () => {
    const columns = ['campaign_id', ...METRICS];
    const first = await sync('CAMPAIGN_PERFORMANCE', 'DAILY', columns);
    expect(await sync('CAMPAIGN_PERFORMANCE', 'DAILY', columns)).toEqual(first);
    const other = await startSandbox({ port: 0, now: () => now });
    try {
      const t = await getToken(other.url);
      const res = await api(other.url, t, 'POST', `/v1/ads/${account}/reporting/sync`, {
        report_type: 'CAMPAIGN_PERFORMANCE',
        time_range: RANGE,
        columns,
        time_unit: 'DAILY',
      });
      expect(rowsOf(res)).toEqual(first);
    } finally {
      await other.close();
    }
  });

  it('keeps orders <= clicks <= impressions and computes each ratio from the row totals', async () => {
    const rows = await sync('AD_PERFORMANCE', 'DAILY', ['ad_group_id', ...METRICS, ...RATIOS]);
    expect(rows.length).toBeGreaterThan(100);
    for (const r of rows) {
      const t = totalsOf(r);
      expect(t.impressions).toBeGreaterThan(0);
      expect(t.clicks).toBeLessThanOrEqual(t.impressions);
      expect(t.orders).toBeLessThanOrEqual(t.clicks);
      expect(num(r.click_through_rate)).toBeCloseTo(t.clicks / t.impressions, 12);
      expect(num(r.cost_per_click)).toBeCloseTo(t.clicks ? t.spend / 100 / t.clicks : 0, 12);
      expect(num(r.cost_per_mille)).toBeCloseTo((t.spend / 100 / t.impressions) * 1000, 9);
      expect(num(r.roas_7d_on_click_date)).toBeCloseTo(t.spend ? t.sales / t.spend : 0, 12);
      expect(num(r.conversion_rate_7d_on_click_date)).toBeCloseTo(t.clicks ? t.orders / t.clicks : 0, 12);
      expect(num(r.cost_per_order_7d_on_click_date)).toBeCloseTo(t.orders ? t.spend / 100 / t.orders : 0, 12);
    }
  });

  it('never spends more than a campaign budget: per day for DAILY budgets, per Monday-to-Monday week for WEEKLY', async () => {
    const daily = await sync('CAMPAIGN_PERFORMANCE', 'DAILY', ['campaign_id', 'ad_spend']);
    const weekly = (await runReport('CAMPAIGN_PERFORMANCE', 'WEEKLY', ['campaign_id', 'ad_spend'])).rows;
    let checked = 0;
    for (const c of campaigns) {
      if (!c.budget) continue;
      const budget = Number(c.budget.total.amount_e5) / 1000; // cents
      if (c.budget.unit === 'BUDGET_UNIT_DAILY') {
        for (const r of daily.filter((d) => d.campaign_id === c.campaign_id)) {
          expect(cents(r.ad_spend)).toBeLessThanOrEqual(budget);
          checked++;
        }
      }
      if (c.budget.unit === 'BUDGET_UNIT_WEEKLY') {
        for (const r of weekly.filter((w) => w.campaign_id === c.campaign_id)) {
          expect(cents(r.ad_spend)).toBeLessThanOrEqual(budget);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(20);
    // Budgets bind: some campaign day spends its whole daily budget.
    const capped = campaigns
      .filter((c) => c.budget?.unit === 'BUDGET_UNIT_DAILY')
      .some((c) => daily.some((d) => d.campaign_id === c.campaign_id && cents(d.ad_spend) === Number(c.budget!.total.amount_e5) / 1000));
    expect(capped).toBe(true);
  });

  it('HOURLY rows add up to the DAILY rows', async () => {
    const range = { start_time: '2025-01-20T00:00:00Z', end_time: '2025-01-23T00:00:00Z' };
    const hourly = rowsOf(
      await post('/reporting/sync', { report_type: 'CAMPAIGN_PERFORMANCE', time_range: range, columns: ['campaign_id', ...METRICS], time_unit: 'HOURLY' }),
    );
    const daily = rowsOf(
      await post('/reporting/sync', { report_type: 'CAMPAIGN_PERFORMANCE', time_range: range, columns: ['campaign_id', ...METRICS], time_unit: 'DAILY' }),
    );
    expect(hourly[0]!.hour_of).toMatch(/T\d\d:00:00Z$/);
    for (const r of hourly) {
      expect(num(r.clicks)).toBeLessThanOrEqual(num(r.impressions));
      expect(num(r.orders_7d_on_click_date)).toBeLessThanOrEqual(num(r.clicks));
    }
    const byDay = sumBy(hourly, (r) => `${r.campaign_id} ${r.hour_of!.slice(0, 10)}`);
    expect(byDay.size).toBe(daily.length);
    for (const d of daily) expect(byDay.get(`${d.campaign_id} ${d.day_of!.slice(0, 10)}`)).toEqual(totalsOf(d));
  });

  it('AD_PERFORMANCE rows of a campaign add up to its CAMPAIGN_PERFORMANCE row', async () => {
    const groups = await sync('AD_PERFORMANCE', 'DAILY', ['campaign_id', 'ad_group_id', ...METRICS]);
    const perCampaign = await sync('CAMPAIGN_PERFORMANCE', 'DAILY', ['campaign_id', ...METRICS]);
    const sums = sumBy(groups, (r) => `${r.campaign_id} ${r.day_of}`);
    const withGroups = perCampaign.filter((r) => sums.has(`${r.campaign_id} ${r.day_of}`));
    expect(withGroups.length).toBeGreaterThan(50);
    for (const r of withGroups) expect(sums.get(`${r.campaign_id} ${r.day_of}`)).toEqual(totalsOf(r));
  });

  it('filters by dimension with EQUAL, NOT_EQUAL and IN', async () => {
    const all = await sync('CAMPAIGN_PERFORMANCE', 'DAILY', ['campaign_id', 'impressions']);
    const ids = [...new Set(all.map((r) => r.campaign_id!))];
    const one = await sync('CAMPAIGN_PERFORMANCE', 'DAILY', ['campaign_id', 'impressions'], {
      filters: [{ column: 'campaign_id', operator: 'EQUAL', values: [ids[0]] }],
    });
    expect(one).toEqual(all.filter((r) => r.campaign_id === ids[0]));
    const two = await sync('CAMPAIGN_PERFORMANCE', 'DAILY', ['campaign_id', 'impressions'], {
      filters: [{ column: 'campaign_id', operator: 'IN', values: ids.slice(0, 2) }],
    });
    expect(two).toEqual(all.filter((r) => ids.slice(0, 2).includes(r.campaign_id!)));
    const rest = await sync('CAMPAIGN_PERFORMANCE', 'DAILY', ['campaign_id', 'impressions'], {
      filters: [{ column: 'campaign_id', operator: 'NOT_EQUAL', values: [ids[0]] }],
    });
    expect(rest).toEqual(all.filter((r) => r.campaign_id !== ids[0]));
  });

  it('has no data for days that have not ended on the sandbox clock', async () => {
    const today = new Date(now).toISOString().slice(0, 10);
    const range = { start_time: `${today}T00:00:00Z`, end_time: new Date(Date.parse(`${today}T00:00:00Z`) + 2 * 86400000).toISOString().replace('.000', '') };
    const res = await post('/reporting/sync', {
      report_type: 'CAMPAIGN_PERFORMANCE',
      time_range: range,
      columns: ['campaign_id', 'impressions'],
      time_unit: 'DAILY',
    });
    expect(rowsOf(res)).toEqual([]);
  });
});

describe('report jobs', () => {
  it('CSV header equals report_schema (the requested columns) and rows equal the sync rows of the same query', async () => {
    const columns = ['day_of', 'campaign_id', 'ad_group_id', 'ad_group_name', ...METRICS, 'roas_7d_on_click_date'];
    const { header, rows, status } = await runReport('AD_PERFORMANCE', 'DAILY', columns);
    ReportStatusResponse.parse(status);
    expect(header).toEqual(columns);
    expect(status.result.success_result.report_schema).toEqual(columns);
    expect(rows).toEqual(await sync('AD_PERFORMANCE', 'DAILY', columns));
  });

  it('SUMMARY equals the sum of the DAILY rows, WEEKLY the sum of each week, with ratios from the totals', async () => {
    const columns = ['campaign_id', ...METRICS, 'click_through_rate', 'roas_7d_on_click_date'];
    const summary = (await runReport('CAMPAIGN_PERFORMANCE', 'SUMMARY', columns)).rows;
    const weekly = (await runReport('CAMPAIGN_PERFORMANCE', 'WEEKLY', columns)).rows;
    const daily = await sync('CAMPAIGN_PERFORMANCE', 'DAILY', columns);
    const byCampaign = sumBy(daily, (r) => r.campaign_id!);
    expect(summary.length).toBe(byCampaign.size);
    for (const r of summary) {
      const t = byCampaign.get(r.campaign_id!)!;
      expect(totalsOf(r)).toEqual(t);
      expect(num(r.click_through_rate)).toBeCloseTo(t.clicks / t.impressions, 12);
      expect(num(r.roas_7d_on_click_date)).toBeCloseTo(t.spend ? t.sales / t.spend : 0, 12);
    }
    const weekOf = (day: string) => {
      const d = Date.parse(day);
      return new Date(d - ((new Date(d).getUTCDay() + 6) % 7) * 86400000).toISOString().replace('.000', '');
    };
    const byWeek = sumBy(daily, (r) => `${r.campaign_id} ${weekOf(r.day_of!)}`);
    expect(weekly.length).toBe(byWeek.size);
    for (const r of weekly) expect(byWeek.get(`${r.campaign_id} ${r.week_of}`)).toEqual(totalsOf(r));
  });

  it('KEYWORD_PERFORMANCE (async only) splits keyword-targeted ad groups without breaking orders <= clicks <= impressions', async () => {
    const { rows } = await runReport('KEYWORD_PERFORMANCE', 'SUMMARY', ['ad_group_id', 'keyword', 'match_type', ...METRICS]);
    expect(rows.length).toBeGreaterThan(5);
    for (const r of rows) {
      expect(r.match_type).toMatch(/^MATCH_TYPE_(EXACT|BROAD)$/);
      expect(num(r.clicks)).toBeLessThanOrEqual(num(r.impressions));
      expect(num(r.orders_7d_on_click_date)).toBeLessThanOrEqual(num(r.clicks));
    }
    const groups = (await runReport('AD_PERFORMANCE', 'SUMMARY', ['ad_group_id', ...METRICS])).rows;
    const sums = sumBy(rows, (r) => r.ad_group_id!);
    for (const [id, t] of sums) expect(totalsOf(groups.find((g) => g.ad_group_id === id)!)).toEqual(t);
  });

  it('goes PROCESSING -> COMPLETED on the sandbox clock; the file comes from another origin, without Authorization', async () => {
    const created = await post('/reporting/report', {
      report_type: 'CAMPAIGN_PERFORMANCE',
      time_range: RANGE,
      columns: ['campaign_id', 'impressions'],
      time_unit: 'SUMMARY',
      file_format: 'CSV',
    });
    const id = created.body.report_id as string;
    expect(id).toMatch(/^report_[0-9a-f]{24}$/);
    const processing = await get(`/reporting/${id}`);
    expect(processing.body).toEqual({ status: 'PROCESSING' });
    now += REPORT_PROCESSING_SECONDS * 1000 - 1000;
    expect((await get(`/reporting/${id}`)).body.status).toBe('PROCESSING');
    now -= REPORT_PROCESSING_SECONDS * 1000 - 1000;
    const done = ReportStatusResponse.parse((await finish(id)).body);
    expect(done.status).toBe('COMPLETED');
    const success = done.result!.success_result!;
    const url = new URL(success.report_url);
    expect(url.origin).toBe(sandbox.downloadUrl);
    expect(url.origin).not.toBe(sandbox.url);
    expect(url.pathname).toMatch(/^\/reports\/[A-Za-z0-9_-]{32}$/);
    expect(Date.parse(success.url_expires_at) - now).toBe(5 * 60 * 1000);
    const before = sandbox.downloadRequests.length;
    const res = await fetch(success.report_url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-length')).toBe(success.file_size);
    expect((await res.text()).split('\n')[0]).toBe('campaign_id,impressions');
    // Served from an open handle: nothing of the report is left on disk to clean up.
    expect(readdirSync(tmpdir()).filter((f) => f.includes(id))).toEqual([]);
    const logged = sandbox.downloadRequests.slice(before);
    expect(logged).toHaveLength(1);
    expect(logged[0]!.path).toBe(url.pathname);
    expect(logged[0]!.headers.authorization).toBeUndefined();
    // The log records headers as sent: a client that leaked the token would show up.
    await (await fetch(success.report_url, { headers: { authorization: 'Bearer leaked' } })).text();
    expect(sandbox.downloadRequests.at(-1)!.headers.authorization).toBe('Bearer leaked');
    // The API origin never serves report files.
    expect((await fetch(`${sandbox.url}${url.pathname}`)).status).toBe(404);
  });

  it('a download URL answers 403 five minutes after it was issued; GET of the report gives a fresh one', async () => {
    const created = await post('/reporting/report', {
      report_type: 'CAMPAIGN_PERFORMANCE',
      time_range: RANGE,
      columns: ['campaign_id', 'clicks'],
      time_unit: 'SUMMARY',
      file_format: 'CSV',
    });
    const first = (await finish(created.body.report_id)).body.result.success_result;
    now += 5 * 60 * 1000 - 1;
    expect((await fetch(first.report_url)).status).toBe(200);
    now += 1;
    const expired = await fetch(first.report_url);
    expect(expired.status).toBe(403);
    expect(await expired.json()).toMatchObject({ code: 'PermissionDenied', message: expect.stringMatching(/expired/) });
    const again = (await get(`/reporting/${created.body.report_id}`)).body.result.success_result;
    expect(again.report_url).not.toBe(first.report_url);
    expect(again.file_size).toBe(first.file_size);
    const fresh = await fetch(again.report_url);
    expect(fresh.status).toBe(200);
    expect(Number((await fresh.arrayBuffer()).byteLength)).toBe(Number(first.file_size));
    expect((await fetch(first.report_url)).status).toBe(403);
    expect((await fetch(`${sandbox.downloadUrl}/reports/guessed-token`)).status).toBe(403);
  });

  it('a filter value sandbox-fail[:reason] makes the job FAILED with that reason', async () => {
    const created = await post('/reporting/report', {
      report_type: 'CAMPAIGN_PERFORMANCE',
      time_range: RANGE,
      columns: ['campaign_id', 'clicks'],
      time_unit: 'DAILY',
      file_format: 'CSV',
      filters: [{ column: 'campaign_id', operator: 'EQUAL', values: ['sandbox-fail:quota exceeded for this account'] }],
    });
    expect((await get(`/reporting/${created.body.report_id}`)).body.status).toBe('PROCESSING');
    const failed = ReportStatusResponse.parse((await finish(created.body.report_id)).body);
    expect(failed.status).toBe('FAILED');
    expect(failed.result?.failure_result).toEqual({ failure_reason: 'quota exceeded for this account' });
    expect(failed.result?.success_result).toBeUndefined();
    expect(failed.result?.finished_at).toBeDefined();
  });

  it('--time-scale speeds the job up: 60x completes after a sixtieth of the time', async () => {
    let clock = Date.parse('2026-03-01T12:00:00Z');
    const fast = await startSandbox({ port: 0, now: () => clock, timeScale: 60 });
    try {
      const t = await getToken(fast.url);
      const created = await api(fast.url, t, 'POST', `/v1/ads/${account}/reporting/report`, {
        report_type: 'CAMPAIGN_PERFORMANCE',
        time_range: RANGE,
        columns: ['campaign_id'],
        time_unit: 'SUMMARY',
        file_format: 'CSV',
      });
      const path = `/v1/ads/${account}/reporting/${created.body.report_id}`;
      clock += (REPORT_PROCESSING_SECONDS * 1000) / 60 - 1;
      expect((await api(fast.url, t, 'GET', path)).body.status).toBe('PROCESSING');
      clock += 1;
      const status = await waitFor(
        async () => {
          const reported: string = (await api(fast.url, t, 'GET', path)).body.status;
          return reported !== 'PROCESSING' && reported;
        },
        { what: 'the report to leave PROCESSING' },
      );
      expect(status).toBe('COMPLETED');
    } finally {
      await fast.close();
    }
  });

  it('a retried create with the same Idempotency-Key returns the same report id', async () => {
    const body = { report_type: 'CAMPAIGN_PERFORMANCE', time_range: RANGE, columns: ['campaign_id'], time_unit: 'SUMMARY', file_format: 'CSV' };
    const a = await api(sandbox.url, token, 'POST', `/v1/ads/${account}/reporting/report`, body, { 'idempotency-key': 'report-key-1' });
    const b = await api(sandbox.url, token, 'POST', `/v1/ads/${account}/reporting/report`, body, { 'idempotency-key': 'report-key-1' });
    expect(b.body.report_id).toBe(a.body.report_id);
  });

  it('quotes names holding commas, quotes and line breaks in the CSV', async () => {
    const s = await startSandbox({ port: 0, now: () => now });
    try {
      const t = await getToken(s.url);
      const name = 'Spring, "big" sale\nline two';
      // A seeded campaign renamed (rows carry current names): one created now has no past rows.
      const id = campaigns[0]!.campaign_id;
      const renamed = await api(s.url, t, 'PATCH', `/v1/ads/${account}/campaigns`, { campaigns: [{ campaign_id: id, name }] });
      expect(renamed.body.results[0].success.id).toBe(id);
      const created = await api(s.url, t, 'POST', `/v1/ads/${account}/reporting/report`, {
        report_type: 'CAMPAIGN_PERFORMANCE',
        time_range: RANGE,
        columns: ['campaign_id', 'campaign_name', 'clicks'],
        time_unit: 'SUMMARY',
        file_format: 'CSV',
        filters: [{ column: 'campaign_id', operator: 'EQUAL', values: [id] }],
      });
      now += REPORT_PROCESSING_SECONDS * 1000;
      const status = await waitFor(
        async () => {
          const body = (await api(s.url, t, 'GET', `/v1/ads/${account}/reporting/${created.body.report_id}`)).body;
          return body.status !== 'PROCESSING' && body;
        },
        { what: 'the report to leave PROCESSING' },
      );
      const text = await (await fetch(status.result.success_result.report_url)).text();
      const records = parse(text) satisfies string[][];
      expect(records).toHaveLength(2);
      expect(records[1]!.slice(0, 2)).toEqual([id, name]);
    } finally {
      await s.close();
    }
  });

  it('the download origin closes with the sandbox', async () => {
    const s = await startSandbox({ port: 0 });
    const origin = s.downloadUrl;
    expect((await fetch(`${origin}/reports/x`)).status).toBe(403);
    await s.close();
    await expect(fetch(`${origin}/reports/x`)).rejects.toThrow();
  });
});

describe('validation (400 naming the field)', () => {
  const base = { report_type: 'AD_PERFORMANCE', time_range: RANGE, columns: ['campaign_id', 'impressions'], time_unit: 'DAILY', file_format: 'CSV' };
  const cases: Array<[string, object, RegExp, string?]> = [
    ['unknown type', { report_type: 'NOPE' }, /^report_type: unknown report type "NOPE"; one of AD_PERFORMANCE, CAMPAIGN_PERFORMANCE, KEYWORD_PERFORMANCE$/],
    ['unknown unit', { time_unit: 'YEARLY' }, /^time_unit: "YEARLY" is not a async time unit/],
    [
      'column not of the type',
      { report_type: 'CAMPAIGN_PERFORMANCE', columns: ['campaign_id', 'ad_group_id'] },
      /^columns\[1\]: ad_group_id is not a column of CAMPAIGN_PERFORMANCE$/,
    ],
    ['unknown column', { columns: ['impressions', 'nope'] }, /^columns\[1\]: unknown column "nope"/],
    ['time column of another unit', { columns: ['week_of', 'clicks'] }, /^columns\[0\]: week_of is not a column of DAILY reports \(use day_of\)$/],
    ['no columns', { columns: [] }, /^columns: must name at least one column$/],
    ['duplicate column', { columns: ['clicks', 'clicks'] }, /^columns\[1\]: clicks is named twice$/],
    [
      'start after end',
      { time_range: { start_time: '2025-02-01T00:00:00Z', end_time: '2025-01-01T00:00:00Z' } },
      /^time_range\.end_time: must be after time_range\.start_time$/,
    ],
    [
      'not a date-time',
      { time_range: { start_time: '2025-02-30T00:00:00Z', end_time: '2025-03-01T00:00:00Z' } },
      /^time_range\.start_time: must be an RFC 3339 date-time/,
    ],
    [
      'daily not at midnight',
      { time_range: { start_time: '2025-01-13T05:00:00Z', end_time: '2025-01-20T00:00:00Z' } },
      /^time_range\.start_time: DAILY reports start at midnight UTC/,
    ],
    [
      'weekly not from a Monday',
      { time_unit: 'WEEKLY', time_range: { start_time: '2025-01-14T00:00:00Z', end_time: '2025-01-20T00:00:00Z' } },
      /^time_range\.start_time: WEEKLY reports start on a Monday$/,
    ],
    [
      'weekly not to a Monday',
      { time_unit: 'WEEKLY', time_range: { start_time: '2025-01-13T00:00:00Z', end_time: '2025-01-19T00:00:00Z' } },
      /^time_range\.end_time: WEEKLY reports end on a Monday/,
    ],
    [
      'monthly not from the 1st',
      { time_unit: 'MONTHLY', time_range: { start_time: '2025-01-02T00:00:00Z', end_time: '2025-02-01T00:00:00Z' } },
      /^time_range\.start_time: MONTHLY reports start on the 1st of a month$/,
    ],
    [
      'monthly not to the 1st',
      { time_unit: 'MONTHLY', time_range: { start_time: '2025-01-01T00:00:00Z', end_time: '2025-02-15T00:00:00Z' } },
      /^time_range\.end_time: MONTHLY reports end on the 1st of a month/,
    ],
    [
      'range too long',
      { time_range: { start_time: '2024-01-01T00:00:00Z', end_time: '2025-06-01T00:00:00Z' } },
      /^time_range: reports cover at most 400 days$/,
    ],
    ['filter on a metric', { filters: [{ column: 'clicks', operator: 'EQUAL', values: ['1'] }] }, /^filters\[0\]\.column: cannot filter on "clicks"/],
    ['filter on an unknown column', { filters: [{ column: 'nope', operator: 'EQUAL', values: ['1'] }] }, /^filters\[0\]\.column: cannot filter on "nope"/],
    [
      'filter operator',
      { filters: [{ column: 'campaign_id', operator: 'LIKE', values: ['1'] }] },
      /^filters\[0\]\.operator: unknown operator "LIKE"; one of EQUAL, NOT_EQUAL, IN$/,
    ],
    [
      'EQUAL with two values',
      { filters: [{ column: 'campaign_id', operator: 'EQUAL', values: ['1', '2'] }] },
      /^filters\[0\]\.values: EQUAL takes exactly one value/,
    ],
    ['IN without values', { filters: [{ column: 'campaign_id', operator: 'IN', values: [] }] }, /^filters\[0\]\.values: must hold at least one value$/],
    ['file format', { file_format: 'XLSX' }, /^file_format: must be CSV$/],
    ['missing file_format', { file_format: undefined }, /^file_format: /],
    ['unknown field', { extra: 1 }, /^unknown field extra$/],
    ['columns not an array', { columns: 'clicks' }, /^columns: /],
  ];
  it.each(cases)('create: %s', async (_name, patch, message) => {
    const before = sandbox.downloadRequests.length;
    const res = await post('/reporting/report', { ...base, ...patch });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('BadRequest');
    expect(res.body.message).toMatch(message);
    expect(sandbox.downloadRequests.length).toBe(before);
  });

  it('sync: only HOURLY and DAILY, not for KEYWORD_PERFORMANCE, no file_format, at most 14 days hourly', async () => {
    const { file_format: _f, ...syncBase } = base;
    const weekly = await post('/reporting/sync', { ...syncBase, time_unit: 'WEEKLY' });
    expect(weekly.body.message).toBe('time_unit: "WEEKLY" is not a sync time unit of AD_PERFORMANCE; one of HOURLY, DAILY');
    const keyword = await post('/reporting/sync', { ...syncBase, report_type: 'KEYWORD_PERFORMANCE' });
    expect(keyword.body.message).toBe('report_type: KEYWORD_PERFORMANCE has no sync form; create it with POST reporting/report');
    expect((await post('/reporting/sync', base)).body.message).toBe('unknown field file_format');
    const hourly = await post('/reporting/sync', { ...syncBase, time_unit: 'HOURLY' });
    expect(hourly).toMatchObject({ status: 400, body: { message: 'time_range: sync HOURLY reports cover at most 14 days' } });
    const halfHour = await post('/reporting/sync', {
      ...syncBase,
      time_unit: 'HOURLY',
      time_range: { start_time: '2025-01-13T00:30:00Z', end_time: '2025-01-14T00:00:00Z' },
    });
    expect(halfHour.body.message).toBe('time_range.start_time: HOURLY reports start at a whole hour (UTC)');
  });

  it('accepts RFC 3339 offsets, read in UTC', async () => {
    const ok = await post('/reporting/sync', {
      report_type: 'CAMPAIGN_PERFORMANCE',
      columns: ['campaign_id'],
      time_unit: 'DAILY',
      time_range: { start_time: '2025-01-13T02:00:00+02:00', end_time: '2025-01-14T00:00:00Z' },
    });
    expect(ok.status).toBe(200);
    expect(new Set(rowsOf(ok).map((r) => r.day_of))).toEqual(new Set(['2025-01-13T00:00:00Z']));
    const off = await post('/reporting/sync', {
      report_type: 'CAMPAIGN_PERFORMANCE',
      columns: ['campaign_id'],
      time_unit: 'DAILY',
      time_range: { start_time: '2025-01-13T00:00:00+02:00', end_time: '2025-01-14T00:00:00Z' },
    });
    expect(off.body.message).toBe('time_range.start_time: DAILY reports start at midnight UTC (00:00:00Z)');
  });
});

describe('scopes and unknown resources', () => {
  const body = { report_type: 'CAMPAIGN_PERFORMANCE', time_range: RANGE, columns: ['campaign_id'], time_unit: 'DAILY' };

  it('403 PermissionDenied without ads.reporting on all three reporting routes', async () => {
    const t = await getToken(sandbox.url, { scope: 'ads.campaigns.read ads.products.read' });
    const expected = { status: 403, body: { code: 'PermissionDenied', message: 'the token lacks scope ads.reporting' } };
    expect(await post('/reporting/report', { ...body, file_format: 'CSV' }, t)).toMatchObject(expected);
    expect(await post('/reporting/sync', body, t)).toMatchObject(expected);
    expect(await get('/reporting/report_0123', t)).toMatchObject(expected);
  });

  it('the demo client grants ads.reporting and ads.products.read by default', async () => {
    const res = await fetch(`${sandbox.url}/oauth/v2/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: 'sandbox-demo-client', client_secret: 'sandbox-demo-secret' }),
    });
    const scopes = ((await res.json()) as { scope: string }).scope.split(' ');
    expect(scopes).toEqual(expect.arrayContaining(['ads.reporting', 'ads.products.read']));
  });

  it('404 NotFound for an unknown account, an unknown report, and a report of another account', async () => {
    expect(await api(sandbox.url, token, 'POST', '/v1/ads/nope/reporting/sync', body)).toMatchObject({
      status: 404,
      body: { code: 'NotFound', message: 'ad account nope not found' },
    });
    expect((await api(sandbox.url, token, 'POST', '/v1/ads/nope/reporting/report', { ...body, file_format: 'CSV' })).status).toBe(404);
    expect((await api(sandbox.url, token, 'GET', '/v1/ads/nope/reporting/report_x')).status).toBe(404);
    expect(await get('/reporting/report_unknown')).toMatchObject({
      status: 404,
      body: { code: 'NotFound', message: `report report_unknown not found in account ${account}` },
    });
    const created = await post('/reporting/report', { ...body, file_format: 'CSV' });
    const accounts = (await api(sandbox.url, token, 'GET', '/v1/ads/ad-accounts')).body.ad_accounts;
    const other = accounts[1].ad_account_id;
    expect((await api(sandbox.url, token, 'GET', `/v1/ads/${other}/reporting/${created.body.report_id}`)).status).toBe(404);
  });
});

describe('fault injection', () => {
  it('covers the reporting and product routes (429 throttling, 500s)', async () => {
    const s = await startSandbox({ port: 0, random: () => 0.1 });
    try {
      const t = await getToken(s.url);
      const call = (method: string, path: string, b?: unknown) => api(s.url, t, method, `/v1/ads/${account}${path}`, b);
      const created = await call('POST', '/reporting/report', { ...body(), file_format: 'CSV' });
      expect(created.status).toBe(200);
      s.setFaults({ throttleRate: 1 });
      for (const res of [
        await call('POST', '/reporting/report', { ...body(), file_format: 'CSV' }),
        await call('POST', '/reporting/sync', body()),
        await call('GET', `/reporting/${created.body.report_id}`),
        await call('GET', '/products'),
      ]) {
        expect(res.status).toBe(429);
        expect(res.body.code).toBe('RateLimitExceeded');
        expect(res.headers.get('retry-after')).toBe('1');
      }
      s.setFaults({ throttleRate: 0, failRate: 1 });
      expect((await call('POST', '/reporting/sync', body())).body).toEqual({ code: 'Internal', message: 'unexpected server error (injected)' });
      expect((await call('GET', '/products')).status).toBe(500);
      s.setFaults({ failRate: 0 });
      expect((await call('GET', '/products')).status).toBe(200);
    } finally {
      await s.close();
    }
  });

  const body = () => ({ report_type: 'CAMPAIGN_PERFORMANCE', time_range: RANGE, columns: ['campaign_id'], time_unit: 'DAILY' });
});
