// Issue #45, items 1-2: a report in one command (default columns, --sort, --limit, summary
// rows, rows printed in the -o format), the range always said, and flags that do not apply
// refused. The CLI and the sandbox both run on a clock that starts on Wednesday 2026-11-25,
// so "--last 1w" is the week of Monday 2026-11-16 whatever day the tests run.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../../src/base/io.js';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { fastClock, sandboxWithUser, type TestUser } from '../../helpers/cli.js';

/** CAMPAIGN_PERFORMANCE's default columns: the entity, its currency and the additive metrics. */
const CAMPAIGN_DEFAULT_COLUMNS = [
  'campaign_id',
  'campaign_name',
  'currency_code',
  'impressions',
  'clicks',
  'ad_spend',
  'orders_7d_on_click_date',
  'sales_7d_on_click_date',
];

const WEDNESDAY = Date.UTC(2026, 10, 25, 10, 0, 0);
const LAST_WEEK = '2026-11-16 .. 2026-11-23, UTC, end exclusive';
/** Where a refused --out would have gone. */
const NEVER = path.join(os.tmpdir(), `platform-never-${process.pid}.csv`);

let sandbox: Sandbox;
let user: TestUser;
let account: string;
let clock: Clock;

beforeAll(async () => {
  const startedAt = Date.now();
  // Both clocks move on from the Wednesday (report jobs take simulated time to finish).
  ({ sandbox, user, account } = await sandboxWithUser({ timeScale: 1000, now: () => WEDNESDAY + (Date.now() - startedAt) }));
  const fast = fastClock();
  const offset = WEDNESDAY - fast.now();
  clock = { now: () => fast.now() + offset, sleep: fast.sleep };
});
afterAll(() => sandbox.close());

const run = (args: string[], options: { tty?: boolean; columns?: number } = {}) => user.run(args, { clock, ...options });
const reports = (verb: string, ...flags: string[]) => ['ads', 'reports', verb, '--account', account, '--type', 'CAMPAIGN_PERFORMANCE', ...flags];
const apiRequests = () => sandbox.stats.requests.length;

interface SummaryRow {
  campaign_id: string;
  campaign_name: string;
  currency_code: string;
  ad_spend: number;
  impressions: number;
}

describe("last week's five campaigns with the highest spend, in one command", () => {
  it('no --columns: the top 5 by ad_spend of a full unsorted run of the same report, largest first', async () => {
    const result = await run([...reports('run', '--last', '1w', '--unit', 'summary', '--sort', '-ad_spend', '--limit', '5'), '-o', 'json']);
    expect(result.code, result.stderr).toBe(0);
    const top = JSON.parse(result.stdout) as SummaryRow[];

    // Independently: the whole report as the API wrote it, sorted here.
    const full = await run(reports('run', '--last', '1w', '--unit', 'summary', '--out', '-'));
    expect(full.code, full.stderr).toBe(0);
    const [header, ...rows]: string[][] = parse(full.stdout);
    expect(header).toEqual(CAMPAIGN_DEFAULT_COLUMNS);
    expect(rows.length).toBeGreaterThan(5);
    const spend = header!.indexOf('ad_spend');
    const expected = [...rows].sort((a, b) => Number(b[spend]) - Number(a[spend])).slice(0, 5);

    expect(top.map((r) => r.campaign_id)).toEqual(expected.map((r) => r[0]));
    expect(top.map((r) => r.ad_spend)).toEqual(expected.map((r) => Number(r[spend])));
    expect(Object.keys(top[0]!)).toEqual(header);
    expect(result.stderr).toContain(`CAMPAIGN_PERFORMANCE (SUMMARY): ${LAST_WEEK}`);
  });

  it('on a terminal: the range as the caption above a table, money with its currency, the sort column kept at 80 columns', async () => {
    const result = await run([...reports('run', '--last', '1w', '--unit', 'summary', '--sort', '-ad_spend', '--limit', '5'), '--no-color'], {
      tty: true,
      columns: 80,
    });
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toMatch(/^CAMPAIGN_ID +CAMPAIGN_NAME .*AD_SPEND/);
    expect(lines.slice(1).filter((l) => /^[0-9a-f]{8}-/.test(l))).toHaveLength(5);
    expect(result.stdout).toMatch(/\d+\.\d\d USD/);
    expect(result.stdout).not.toContain('CURRENCY_CODE');
    expect(lines.every((l) => l.length <= 80)).toBe(true);
    // The caption: the range's one appearance on the screen, the last line of chatter before the table.
    expect(result.stderr.split(LAST_WEEK)).toHaveLength(2);
    expect(result.stderr.endsWith(`CAMPAIGN_PERFORMANCE (SUMMARY): ${LAST_WEEK}\n`)).toBe(true);
  });

  it('sync --unit summary sums the daily rows to what the API summary gives, and sorts and cuts the same', async () => {
    const sync = await run([...reports('sync', '--last', '1w', '--unit', 'summary', '--sort', '-ad_spend', '--limit', '5'), '-o', 'csv']);
    expect(sync.code, sync.stderr).toBe(0);
    const runCsv = await run([...reports('run', '--last', '1w', '--unit', 'summary', '--sort', '-ad_spend', '--limit', '5'), '-o', 'csv']);
    expect(runCsv.code, runCsv.stderr).toBe(0);
    expect(parse(sync.stdout)).toEqual(parse(runCsv.stdout));
    expect(sync.stderr).toContain(`CAMPAIGN_PERFORMANCE (SUMMARY): ${LAST_WEEK}`);
  });

  it('reports types shows the default columns of each type', async () => {
    const types = await user.json<Array<{ name: string; default_columns: string[] }>>(['ads', 'reports', 'types']);
    expect(types.find((t) => t.name === 'CAMPAIGN_PERFORMANCE')!.default_columns).toEqual(CAMPAIGN_DEFAULT_COLUMNS);
    const table = await user.run(['ads', 'reports', 'types'], { tty: true, columns: 120 });
    expect(table.stdout).toContain('DEFAULT COLUMNS');
  });
});

describe('the range, always', () => {
  it('--last 1w is the same Monday-Monday week for weekly, summary and daily, said by create, get and sync', async () => {
    const ranges: string[] = [];
    for (const unit of ['weekly', 'summary', 'daily']) {
      const created = await run(reports('create', '--columns', 'campaign_id,clicks', '--last', '1w', '--unit', unit));
      expect(created.code, created.stderr).toBe(0);
      expect(created.stderr).toContain(`CAMPAIGN_PERFORMANCE (${unit.toUpperCase()}): ${LAST_WEEK}`);
      const id = created.stdout.trim();
      const shown = await run(['ads', 'reports', 'get', id, '--account', account, '--no-color'], { tty: true });
      expect(shown.code, shown.stderr).toBe(0);
      expect(shown.stdout).toMatch(/^Type: +CAMPAIGN_PERFORMANCE$/m);
      expect(shown.stdout).toMatch(new RegExp(`^Unit: +${unit.toUpperCase()}$`, 'm'));
      const range = /^Range: +(.*)$/m.exec(shown.stdout)?.[1];
      ranges.push(range ?? '');
      const json = await run(['ads', 'reports', 'get', id, '--account', account, '-o', 'json']);
      expect(JSON.parse(json.stdout)).toMatchObject({
        report_type: 'CAMPAIGN_PERFORMANCE',
        time_range: { start_time: '2026-11-16T00:00:00Z', end_time: '2026-11-23T00:00:00Z' },
      });
      expect(json.stderr).toContain(LAST_WEEK);
    }
    expect(ranges).toEqual([LAST_WEEK, LAST_WEEK, LAST_WEEK]);
    const sync = await run([...reports('sync', '--columns', 'campaign_id,clicks', '--last', '1w'), '-o', 'csv']);
    expect(sync.code, sync.stderr).toBe(0);
    expect(sync.stderr).toContain(`CAMPAIGN_PERFORMANCE (DAILY): ${LAST_WEEK}`);
    const days = new Set((parse(sync.stdout) satisfies string[][]).slice(1).map((r) => r[0]));
    expect([...days].sort()).toEqual(['16', '17', '18', '19', '20', '21', '22'].map((d) => `2026-11-${d}T00:00:00Z`));
  });

  it('--last in days for a weekly report is refused, saying to give weeks', async () => {
    const before = apiRequests();
    const result = await run(reports('create', '--columns', 'campaign_id,clicks', '--last', '7d', '--unit', 'weekly'));
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe('--last: WEEKLY reports start on a Monday (give --last in weeks, e.g. --last 1w); nothing was sent');
    expect(apiRequests()).toBe(before);
  });
});

describe('no flag is silently ignored: one that does not apply exits 2 in one line naming it, and nothing is sent', () => {
  // --columns given, so that what is refused is the flag named.
  const query = ['--columns', 'campaign_id,clicks,ad_spend', '--last', '1w'];
  it.each([
    [['run', ...query, '--out', NEVER, '-o', 'table'], /^-o table does not apply with --out/],
    [['run', ...query, '--out', NEVER, '--query', '[0]'], /^--query does not apply with --out/],
    // --sort and --limit apply to --out (reports-out-arranged.test.ts); the printing flags still do not.
    [['run', ...query, '--out', NEVER, '--sort', '-ad_spend', '--limit', '5', '-o', 'csv'], /^-o csv does not apply with --out/],
    [
      ['run', '--last', '1w', '--sort', '-spend'],
      /^--sort -spend: "spend" is not a column of this report; did you mean -ad_spend\? one of day_of, campaign_id, .*ad_spend/,
    ],
    [['run', '--last', '1w', '--limit', '0'], /^--limit must be a whole number of at least 1$/],
    [['sync', '--last', '1w', '--unit', 'summary', '--columns', 'campaign_id,clicks,cost_per_click'], /^--columns: cost_per_click is a ratio/],
    [['sync', '--last', '1w', '--unit', 'summary', '--columns', 'day_of,campaign_id,clicks'], /^--columns: day_of is not a column of SUMMARY rows/],
  ])('%j', async (flags, message) => {
    const before = apiRequests();
    const result = await run(reports(...(flags as [string, ...string[]])));
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr.trim()).toMatch(message);
    expect(apiRequests()).toBe(before);
    expect(fs.existsSync(NEVER)).toBe(false);
  });

  it('download saves the API file as it is: -o is refused there too', async () => {
    const result = await run(['ads', 'reports', 'download', 'report_0123', '--account', account, '-o', 'csv']);
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toMatch(/^-o csv does not apply to reports download/);
  });
});
