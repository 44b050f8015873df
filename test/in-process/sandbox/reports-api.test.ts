// ReportsApi and ProductsApi over the real HTTP core against the sandbox: the paths, bodies
// and pages the CLI will rely on, and errors surfacing as ApiError.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpCore } from '../../../src/http/core.js';
import { walkPages } from '../../../src/api/paginate.js';
import { ProductsApi } from '../../../src/api/products.js';
import { ReportsApi } from '../../../src/api/reports.js';
import { ApiError } from '../../../src/base/errors.js';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { REPORT_PROCESSING_SECONDS } from '../../../src/sandbox/reporting/index.js';
import type { Dispatcher } from '../../../src/http/transport.js';
import { api, getToken, httpCoreFor } from '../../helpers/sandbox.js';
import { waitFor } from '../../helpers/wait.js';

let now = Date.parse('2026-03-01T12:00:00Z');
let sandbox: Sandbox;
let dispatcher: Dispatcher;
let reports: ReportsApi;
let products: ProductsApi;
let account: string;

const RANGE = { start_time: '2025-01-13T00:00:00Z', end_time: '2025-01-20T00:00:00Z' };

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, now: () => now });
  const token = await getToken(sandbox.url);
  account = (await api(sandbox.url, token, 'GET', '/v1/ads/ad-accounts')).body.ad_accounts[0].ad_account_id;
  let http: HttpCore;
  ({ http, dispatcher } = await httpCoreFor(sandbox.url, token));
  reports = new ReportsApi(http);
  products = new ProductsApi(http);
});
afterAll(async () => {
  await dispatcher.close();
  await sandbox.close();
});

describe('ReportsApi', () => {
  it('creates a job, reads PROCESSING then COMPLETED with a download URL on the download origin', async () => {
    const id = await reports.createReport(account, {
      report_type: 'CAMPAIGN_PERFORMANCE',
      time_range: RANGE,
      columns: ['campaign_id', 'clicks'],
      time_unit: 'SUMMARY',
      file_format: 'CSV',
    });
    expect((await reports.getReport(account, id)).status).toBe('PROCESSING');
    now += REPORT_PROCESSING_SECONDS * 1000;
    const status = await waitFor(
      async () => {
        const reported = await reports.getReport(account, id);
        return reported.status !== 'PROCESSING' && reported;
      },
      { what: 'the report to leave PROCESSING' },
    );
    expect(status.status).toBe('COMPLETED');
    expect(status.result?.success_result?.report_url.startsWith(`${sandbox.downloadUrl}/`)).toBe(true);
    expect(status.result?.success_result?.report_schema).toEqual(['campaign_id', 'clicks']);
  });

  it('sync returns the typed schema and rows', async () => {
    const res = await reports.syncReport(account, {
      report_type: 'AD_PERFORMANCE',
      time_range: RANGE,
      columns: ['ad_group_id', 'impressions'],
      time_unit: 'DAILY',
    });
    expect(res.schema.columns).toEqual([
      { name: 'day_of', type: 'COLUMN_TYPE_TIMESTAMP' },
      { name: 'ad_group_id', type: 'COLUMN_TYPE_STRING' },
      { name: 'impressions', type: 'COLUMN_TYPE_INT64' },
    ]);
    expect(res.data.rows.length).toBeGreaterThan(10);
  });

  it('a 400 surfaces as ApiError naming the field; an unknown report as 404', async () => {
    const bad = reports.createReport(account, {
      report_type: 'AD_PERFORMANCE',
      time_range: RANGE,
      columns: ['clicks'],
      time_unit: 'MONTHLY',
      file_format: 'CSV',
    });
    await expect(bad).rejects.toMatchObject({ status: 400, code: 'BadRequest', detail: 'time_range.start_time: MONTHLY reports start on the 1st of a month' });
    await expect(reports.getReport(account, 'report_nope')).rejects.toBeInstanceOf(ApiError);
    await expect(reports.getReport(account, 'report_nope')).rejects.toMatchObject({ status: 404 });
  });
});

describe('ProductsApi', () => {
  it('pages through the catalog with walkPages', async () => {
    const first = await products.listProducts(account, { pageLimit: 100 });
    expect(first.items).toHaveLength(100);
    expect(first.nextPageToken).toBeDefined();
    const all = [];
    for await (const p of walkPages((q) => products.listProducts(account, q), { all: true, pageLimit: 100 })) all.push(p);
    expect(all).toHaveLength(240);
    expect(all.slice(0, 100)).toEqual(first.items);
  });
});
