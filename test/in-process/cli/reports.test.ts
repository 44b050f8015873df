// `ads reports ...` and `ads products list` driven in-process against the real sandbox over
// HTTP: the whole create -> wait -> download loop, the download origin's own log, expiry,
// failure, timeout, Ctrl-C, bad input (nothing sent), typed sync rows and the catalog.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { fastClock, sandboxOnFreePort, sandboxWithUser, tempDir, TestUser } from '../../helpers/cli.js';

const COLUMNS = ['day_of', 'campaign_id', 'campaign_name', 'impressions', 'clicks', 'ad_spend', 'orders_7d_on_click_date'];
const RANGE = ['--since', '2025-01-13', '--until', '2025-01-20'];

let sandbox: Sandbox;
let user: TestUser;
let account: string;
let dir: string;
/** The sandbox clock: real time plus what a test adds to it. */
let skew = 0;

beforeAll(async () => {
  ({ sandbox, user, account } = await sandboxWithUser({ timeScale: 1000, now: () => Date.now() + skew }));
  dir = tempDir('platform-reports-');
});
afterAll(async () => {
  await sandbox.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const csvRecords = (text: string) => parse(text) satisfies string[][];
const apiRequests = () => sandbox.stats.requests.length;
/** `ads reports VERB` of CAMPAIGN_PERFORMANCE over RANGE in the first account, with these columns and flags. */
const reportArgs = (verb: 'run' | 'create' | 'sync', columns: string, ...flags: string[]) => [
  ...['ads', 'reports', verb, '--account', account, '--type', 'CAMPAIGN_PERFORMANCE', '--columns', columns],
  ...RANGE,
  ...flags,
];

describe('ads reports run', () => {
  it('creates, waits and downloads: the header is the requested columns, the rows are what sync returns, spend within the budgets', async () => {
    const out = path.join(dir, 'week.csv');
    const result = await user.run(reportArgs('run', COLUMNS.join(','), '--out', out));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/Saved report report_[0-9a-f]+ to .*week\.csv/);
    const [header, ...rows] = csvRecords(fs.readFileSync(out, 'utf8'));
    expect(header).toEqual(COLUMNS);
    expect(rows.length).toBeGreaterThan(7);
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.part'))).toEqual([]);

    const sync = await user.run(reportArgs('sync', COLUMNS.join(','), '-o', 'csv'));
    expect(sync.code, sync.stderr).toBe(0);
    const [syncHeader, ...syncRows] = csvRecords(sync.stdout);
    expect(syncHeader).toEqual(COLUMNS);
    expect(syncRows).toEqual(rows);

    // Spend never above the campaign's daily share of its budget (read back over the CLI's list).
    const campaigns = await user.json<Array<{ campaign_id: string; budget?: { unit: string; total: { amount_e5: string } } }>>([
      'ads',
      'campaigns',
      'list',
      '--account',
      account,
      '--all',
    ]);
    const budgets = new Map(campaigns.map((c) => [c.campaign_id, c.budget]));
    let checked = 0;
    for (const row of rows) {
      const budget = budgets.get(row[1]!);
      expect(Number(row[4])).toBeLessThanOrEqual(Number(row[3]));
      expect(Number(row[6])).toBeLessThanOrEqual(Number(row[4]));
      if (budget?.unit !== 'BUDGET_UNIT_DAILY' && budget?.unit !== 'BUDGET_UNIT_WEEKLY') continue;
      const amount = Number(budget.total.amount_e5) / 1e5;
      expect(Number(row[5])).toBeLessThanOrEqual(budget.unit === 'BUDGET_UNIT_DAILY' ? amount : amount / 7 + 0.005);
      checked++;
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('never sends the bearer token to the download origin, and keeps the URL out of --debug', async () => {
    const before = sandbox.downloadRequests.length;
    const result = await user.run([
      'ads',
      'reports',
      'run',
      '--account',
      account,
      '--type',
      'AD_PERFORMANCE',
      '--columns',
      'ad_group_id,clicks',
      '--unit',
      'summary',
      ...RANGE,
      '--out',
      '-',
      '--debug',
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.split('\n')[0]).toBe('ad_group_id,clicks');
    const downloads = sandbox.downloadRequests.slice(before);
    expect(downloads).toHaveLength(1);
    expect(Object.keys(downloads[0]!.headers).map((h) => h.toLowerCase())).not.toContain('authorization');
    // The API host did get the token; the trace masks it, and the pre-signed URL too.
    expect(result.stderr).toMatch(/authorization: Bearer \[REDACTED\]/);
    expect(result.stderr).toContain('"report_url":"[REDACTED]"');
    expect(result.stderr).not.toContain(downloads[0]!.path.slice(1));
  });

  it('renews an expired download URL once by reading the status again', async () => {
    // A proxy in front of the API moves the sandbox clock past the URL's expiry as the first
    // COMPLETED status goes back to the CLI, so the URL it holds is already dead.
    let bumped = false;
    const proxy = http.createServer((req, res) => {
      const upstream = http.request(new URL(req.url!, sandbox.url), { method: req.method, headers: req.headers }, (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (c: Buffer) => chunks.push(c));
        answer.on('end', () => {
          const body = Buffer.concat(chunks);
          if (!bumped && req.method === 'GET' && body.includes('"COMPLETED"')) {
            bumped = true;
            skew += 6 * 60_000;
          }
          res.writeHead(answer.statusCode!, answer.headers);
          res.end(body);
        });
      });
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const before = sandbox.downloadRequests.length;
      const out = path.join(dir, 'renewed.csv');
      const result = await user.run(
        ['ads', 'reports', 'run', '--account', account, '--type', 'CAMPAIGN_PERFORMANCE', '--columns', 'campaign_id,clicks', ...RANGE, '--out', out],
        { env: { PLATFORM_BASE_URL: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}` } },
      );
      expect(result.code, result.stderr).toBe(0);
      expect(bumped).toBe(true);
      const statuses = sandbox.downloadRequests.slice(before).map((r) => r.status);
      expect(statuses).toEqual([403, 200]);
      expect(csvRecords(fs.readFileSync(out, 'utf8'))[0]).toEqual(['day_of', 'campaign_id', 'clicks']);
    } finally {
      proxy.close();
    }
  });

  it('on a terminal: a spinner with the status and the time waited, then a byte progress bar against file_size', async () => {
    const slow = await sandboxOnFreePort({ timeScale: 20 });
    try {
      const out = path.join(dir, 'tty.csv');
      const result = await new TestUser(slow).run(
        ['ads', 'reports', 'run', '--account', account, '--type', 'CAMPAIGN_PERFORMANCE', '--columns', 'campaign_id,clicks', ...RANGE, '--out', out],
        { tty: true },
      );
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toMatch(/Report report_[0-9a-f]+: PROCESSING \(0 s\)/);
      // The time waited grows with the waits between polls (on the test clock, whose now() keeps up with its sleeps).
      const waited = [...result.stderr.matchAll(/PROCESSING \((\d+) s\)/g)].map((m) => Number(m[1]));
      expect(waited.length).toBeGreaterThan(1);
      expect(waited).toEqual([...waited].sort((a, b) => a - b));
      expect(waited.at(-1)).toBeGreaterThan(0);
      const size = fs.statSync(out).size;
      expect(result.stderr).toContain(`[########################] ${(size / 1000).toFixed(1)} KB of ${(size / 1000).toFixed(1)} KB`);
    } finally {
      await slow.close();
    }
  });

  it('a FAILED report exits 1 with its reason', async () => {
    const result = await user.run(
      reportArgs('run', 'campaign_id,clicks', '--filter', 'campaign_name=sandbox-fail:quota of reports exceeded', '--out', path.join(dir, 'failed.csv')),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/report report_[0-9a-f]+ failed: quota of reports exceeded/);
    expect(fs.existsSync(path.join(dir, 'failed.csv'))).toBe(false);
  });
});

describe('waiting that stops: --timeout and Ctrl-C name the command that waits again', () => {
  let slow: Sandbox;
  let slowUser: TestUser;
  let slowSkew = 0;
  beforeAll(async () => {
    // Real time: a job takes 20 s unless the test moves the clock.
    slow = await sandboxOnFreePort({ now: () => Date.now() + slowSkew });
    slowUser = new TestUser(slow);
  });
  afterAll(() => slow.close());

  it('--timeout exits 1 with the id and the resume command, which then finishes the job', async () => {
    const out = path.join(dir, 'timeout.csv');
    const result = await slowUser.run(reportArgs('run', 'campaign_id,clicks', '--out', out, '--sort', '-clicks', '--limit', '3', '--timeout', '1s'));
    expect(result.code).toBe(1);
    const resume = /wait for it again with `platform (.+)`/.exec(result.stderr)?.[1];
    // The resume command keeps --sort and --limit: the same rows are saved.
    expect(resume, result.stderr).toMatch(
      new RegExp(`^ads reports download report_[0-9a-f]+ --account ${account} --wait --out ${out} --sort=-clicks --limit 3$`),
    );
    slowSkew += 60_000;
    const again = await slowUser.run(resume!.split(' '));
    expect(again.code, again.stderr).toBe(0);
    const [head, ...rows] = csvRecords(fs.readFileSync(out, 'utf8'));
    expect(head).toEqual(['day_of', 'campaign_id', 'clicks']);
    expect(rows).toHaveLength(3);
    const clicks = rows.map((row) => Number(row[2]));
    expect(clicks).toEqual([...clicks].sort((a, b) => b - a));
  });

  it('Ctrl-C while waiting exits 130 naming the report and the command that waits again; the job goes on', async () => {
    const controller = new AbortController();
    // Ctrl-C as the command starts its first wait between polls of the report (its clock's first sleep).
    const clock = fastClock();
    const interruptingClock = { ...clock, sleep: (ms: number, signal?: AbortSignal) => (controller.abort(new Error('interrupted')), clock.sleep(ms, signal)) };
    const result = await slowUser.run(reportArgs('run', 'campaign_id,clicks', '--out', path.join(dir, 'ctrl-c.csv')), {
      signal: controller.signal,
      clock: interruptingClock,
    });
    expect(clock.slept).toHaveLength(1);
    expect(result.code).toBe(130);
    const id = /report (report_[0-9a-f]+) is still PROCESSING/.exec(result.stderr)?.[1];
    expect(id, result.stderr).toBeDefined();
    expect(result.stderr).toContain(`\`platform ads reports download ${id} --account ${account} --wait --out ${path.join(dir, 'ctrl-c.csv')}\``);
    const status = await slowUser.json<{ status: string }>(['ads', 'reports', 'get', id!, '--account', account]);
    expect(status.status).toBe('PROCESSING');
  });
});

describe('bad input exits 2 naming the flag, and sends nothing', () => {
  const base = ['ads', 'reports', 'run', '--account', 'a087eaf3-00b3-49c9-8706-c4ebfb2627fd'];
  it.each([
    ['an unknown type', ['--type', 'NOPE', '--columns', 'clicks', '--last', '7d'], /--type/],
    ['an unknown column', ['--type', 'AD_PERFORMANCE', '--columns', 'clicks,nope', '--last', '7d'], /--columns: unknown column "nope"/],
    [
      'a column of another type',
      ['--type', 'CAMPAIGN_PERFORMANCE', '--columns', 'keyword', '--last', '7d'],
      /--columns: keyword is not a column of CAMPAIGN_PERFORMANCE/,
    ],
    [
      'a weekly range not from a Monday',
      ['--type', 'AD_PERFORMANCE', '--columns', 'clicks', '--unit', 'weekly', '--since', '2025-01-14', '--until', '2025-01-21'],
      /--since: WEEKLY reports start on a Monday/,
    ],
    [
      'a monthly range not to the 1st',
      ['--type', 'AD_PERFORMANCE', '--columns', 'clicks', '--unit', 'monthly', '--since', '2025-01-01', '--until', '2025-01-31'],
      /--until: MONTHLY reports end on the 1st/,
    ],
    [
      '--since after --until',
      ['--type', 'AD_PERFORMANCE', '--columns', 'clicks', '--since', '2025-01-20', '--until', '2025-01-13'],
      /--until \(2025-01-13\) must be after --since/,
    ],
    ['an unreadable date', ['--type', 'AD_PERFORMANCE', '--columns', 'clicks', '--since', '13/01/2025', '--until', '2025-01-20'], /--since: expected a date/],
    [
      'a filter on an unknown column',
      ['--type', 'AD_PERFORMANCE', '--columns', 'clicks', '--last', '7d', '--filter', 'colour=red'],
      /--filter colour=red: cannot filter on "colour"/,
    ],
    [
      'a filter on a metric',
      ['--type', 'AD_PERFORMANCE', '--columns', 'clicks', '--last', '7d', '--filter', 'clicks=5'],
      /--filter clicks=5: cannot filter on "clicks"/,
    ],
    [
      'a filter without a value',
      ['--type', 'AD_PERFORMANCE', '--columns', 'clicks', '--last', '7d', '--filter', 'campaign_id='],
      /--filter: expected column=value/,
    ],
    ['no range', ['--type', 'AD_PERFORMANCE', '--columns', 'clicks'], /--since and --until .* or --last/],
    ['--last with --since', ['--type', 'AD_PERFORMANCE', '--columns', 'clicks', '--last', '7d', '--since', '2025-01-13'], /--last cannot be used with --since/],
    ['a bad --last', ['--type', 'AD_PERFORMANCE', '--columns', 'clicks', '--last', 'week'], /--last: expected a count/],
    ['a bad --timeout', ['--type', 'AD_PERFORMANCE', '--columns', 'clicks', '--last', '7d', '--timeout', 'soon'], /--timeout: "soon" is not a duration/],
  ])('%s', async (_name, args, message) => {
    const before = apiRequests();
    const result = await user.run([...base, ...args]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split('\n')[0]).toMatch(message);
    expect(apiRequests()).toBe(before);
  });

  it('sync refuses a type without a sync form and a unit it does not have', async () => {
    const before = apiRequests();
    const keyword = await user.run([
      'ads',
      'reports',
      'sync',
      '--account',
      account,
      '--type',
      'KEYWORD_PERFORMANCE',
      '--columns',
      'keyword,clicks',
      '--last',
      '7d',
    ]);
    expect(keyword.code).toBe(2);
    expect(keyword.stderr).toMatch(/--type KEYWORD_PERFORMANCE: KEYWORD_PERFORMANCE has no sync form/);
    const weekly = await user.run([
      'ads',
      'reports',
      'sync',
      '--account',
      account,
      '--type',
      'AD_PERFORMANCE',
      '--columns',
      'clicks',
      '--unit',
      'weekly',
      '--last',
      '7d',
    ]);
    expect(weekly.code).toBe(2);
    expect(weekly.stderr).toMatch(/--unit/);
    expect(apiRequests()).toBe(before);
  });
});

describe('the other report commands', () => {
  it('create prints the id; get shows it; download --wait saves it', async () => {
    const created = await user.run(
      [
        'ads',
        'reports',
        'create',
        '--account',
        account,
        '--type',
        'CAMPAIGN_PERFORMANCE',
        '--columns',
        'week_of,campaign_id,clicks',
        '--unit',
        'weekly',
        '--since',
        '2025-01-13',
        '--until',
        '2025-01-27',
      ],
      {
        tty: true,
      },
    );
    expect(created.code, created.stderr).toBe(0);
    const id = created.stdout.trim();
    expect(id).toMatch(/^report_[0-9a-f]{24}$/);
    const out = path.join(dir, 'weekly.csv');
    const downloaded = await user.run(['ads', 'reports', 'download', id, '--account', account, '--wait', '--out', out]);
    expect(downloaded.code, downloaded.stderr).toBe(0);
    const [header, ...rows] = csvRecords(fs.readFileSync(out, 'utf8'));
    expect(header).toEqual(['week_of', 'campaign_id', 'clicks']);
    expect(new Set(rows.map((r) => r[0]))).toEqual(new Set(['2025-01-13T00:00:00Z', '2025-01-20T00:00:00Z']));

    const status = await user.json<{ report_id: string; status: string; result: { success_result: { file_size: string; report_schema: string[] } } }>([
      'ads',
      'reports',
      'get',
      id,
      '--account',
      account,
    ]);
    expect(status.report_id).toBe(id);
    expect(status.status).toBe('COMPLETED');
    expect(Number(status.result.success_result.file_size)).toBe(fs.statSync(out).size);
    const table = await user.run(['ads', 'reports', 'get', id, '--account', account], { tty: true });
    expect(table.stdout).toMatch(/Status:\s+COMPLETED/);
    expect(table.stdout).toMatch(/Columns:\s+week_of, campaign_id, clicks/);
  });

  it('sync types its rows by the schema: numbers in JSON, right-aligned in tables, as written in CSV', async () => {
    const args = [
      'ads',
      'reports',
      'sync',
      '--account',
      account,
      '--type',
      'CAMPAIGN_PERFORMANCE',
      '--columns',
      'campaign_name,impressions,ad_spend',
      '--since',
      '2025-01-13',
      '--until',
      '2025-01-14',
    ];
    const rows = await user.json<Array<Record<string, unknown>>>(args);
    expect(rows.length).toBeGreaterThan(1);
    expect(Object.keys(rows[0]!)).toEqual(['day_of', 'campaign_name', 'impressions', 'ad_spend']);
    expect(typeof rows[0]!.impressions).toBe('number');
    expect(typeof rows[0]!.ad_spend).toBe('number');
    expect(typeof rows[0]!.campaign_name).toBe('string');
    const ndjson = (await user.run([...args, '-o', 'ndjson'])).stdout.trim().split('\n');
    expect(ndjson.map((l) => JSON.parse(l) as unknown)).toEqual(rows);
    const csv = csvRecords((await user.run([...args, '-o', 'csv'])).stdout);
    expect(csv[0]).toEqual(['day_of', 'campaign_name', 'impressions', 'ad_spend']);
    expect(csv[1]![3]).toMatch(/^\d+\.\d\d$/);
    const table = (await user.run([...args, '-o', 'table'])).stdout.split('\n');
    const header = table[0]!;
    // Numbers end under the end of their header.
    const end = header.indexOf('IMPRESSIONS') + 'IMPRESSIONS'.length;
    expect(table[1]![end - 1]).toMatch(/\d/);
    expect(table[1]![end]).toBe(' ');
  });

  it('types lists the types, units and columns without a sandbox', async () => {
    const offline = new TestUser(sandbox, { PLATFORM_BASE_URL: 'http://127.0.0.1:9' });
    const types = await offline.json<Array<{ name: string; units: string[]; sync_units: string[]; columns: Array<{ name: string }> }>>([
      'ads',
      'reports',
      'types',
    ]);
    expect(types.map((t) => t.name)).toEqual(['AD_PERFORMANCE', 'CAMPAIGN_PERFORMANCE', 'KEYWORD_PERFORMANCE']);
    expect(types[2]!.sync_units).toEqual([]);
    const columns = await offline.run(['ads', 'reports', 'types', '--type', 'KEYWORD_PERFORMANCE', '-o', 'csv']);
    expect(columns.stdout).toMatch(/^match_type,dimension,STRING,/m);
  });
});

describe('ads products list', () => {
  it('pages like the other lists: --all is every product once, --limit stops', async () => {
    const all = await user.json<Array<{ gtin: string; product_name: string }>>([
      'ads',
      'products',
      'list',
      '--account',
      account,
      '--all',
      '--page-limit',
      '50',
    ]);
    expect(all.length).toBe(240);
    expect(new Set(all.map((p) => p.gtin)).size).toBe(240);
    const first = await user.run(['ads', 'products', 'list', '--account', account, '--limit', '3', '-o', 'csv']);
    expect(first.code).toBe(0);
    expect(csvRecords(first.stdout)[0]).toEqual(['gtin', 'product_name', 'brand_name', 'brand_owner_name', 'size', 'main_image_url']);
    expect(
      csvRecords(first.stdout)
        .slice(1)
        .map((r) => r[0]),
    ).toEqual(all.slice(0, 3).map((p) => p.gtin));
  });
});
