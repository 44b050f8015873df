// Bulk campaign and ad-group updates from CSV and JSON, against the sandbox over HTTP.
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { START_WAIT_MS } from '../../../src/http/governor.js';
import { firstAccount, sandboxOnFreePort, sandboxWithUser, tempDir, TestUser } from '../../helpers/cli.js';
import type { Campaign, Result } from '../../helpers/ads-rows.js';
import { scaled } from '../../helpers/time-scale.js';

let sandbox: Sandbox;
let user: TestUser;
let account: string;
const dir = tempDir();

function file(name: string, content: string | Buffer): string {
  const target = path.join(dir, name);
  fs.writeFileSync(target, content);
  return target;
}

async function campaigns(ids?: string[]): Promise<Map<string, Campaign>> {
  const rows = await user.json<Campaign[]>(['ads', 'campaigns', 'list', '--account', account, '--all', ...(ids ? ['--id', ids.join(',')] : [])]);
  return new Map(rows.map((c) => [c.campaign_id, c]));
}

beforeAll(async () => {
  ({ sandbox, user, account } = await sandboxWithUser());
});
afterAll(() => sandbox.close());

describe('CSV edge cases end with the exact names and values in the sandbox', () => {
  it('quoted commas and newlines, doubled quotes, BOM, CRLF, empty cells, unicode', async () => {
    const ids = [...(await campaigns()).keys()].slice(0, 5);
    const before = await campaigns(ids);
    const csv =
      '\uFEFFcampaign_id,name,status,budget,currency,budget_unit\r\n' +
      `${ids[0]},"Pizza, pasta & more",paused,12.34,USD,daily\r\n` +
      `${ids[1]},"Two\r\nlines",,,,\r\n` +
      `${ids[2]},"She said ""hi""",active,0.5,usd,weekly\r\n` +
      `${ids[3]},Ünïcödé 寿司 🍣,,,,\r\n` +
      `${ids[4]},,paused,,,\r\n`;
    const result = await user.run(['ads', 'campaigns', 'patch', '--account', account, '--from-csv', file('edge.csv', csv), '-o', 'ndjson']);
    expect(result.stderr).toMatch(/5 rows: 5 ok/);
    expect(result.code).toBe(0);
    const lines = result.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Result);
    expect(lines.map((r) => r.line)).toEqual([2, 3, 5, 6, 7]);
    const after = await campaigns(ids);
    expect(after.get(ids[0]!)).toMatchObject({
      name: 'Pizza, pasta & more',
      configured_status: 'CAMPAIGN_CONFIGURED_STATUS_PAUSED',
      budget: { unit: 'BUDGET_UNIT_DAILY', total: { amount_e5: '1234000', currency_code: 'USD' } },
    });
    expect(after.get(ids[1]!)!.name).toBe('Two\r\nlines');
    expect(after.get(ids[1]!)!.configured_status).toBe(before.get(ids[1]!)!.configured_status);
    expect(after.get(ids[1]!)!.budget).toEqual(before.get(ids[1]!)!.budget);
    expect(after.get(ids[2]!)).toMatchObject({
      name: 'She said "hi"',
      budget: { unit: 'BUDGET_UNIT_WEEKLY', total: { amount_e5: '50000', currency_code: 'USD' } },
    });
    expect(after.get(ids[3]!)!.name).toBe('Ünïcödé 寿司 🍣');
    expect(after.get(ids[4]!)).toMatchObject({ name: before.get(ids[4]!)!.name, configured_status: 'CAMPAIGN_CONFIGURED_STATUS_PAUSED' });
  });
});

describe('invalid rows', () => {
  const header = 'campaign_id,name,status,budget,currency,budget_unit\n';

  it('are reported with line numbers and nothing is sent; --skip-invalid sends the rest', async () => {
    const [a, b] = [...(await campaigns()).keys()];
    const csv =
      header +
      `${a},Fine one,active,,,\n` +
      `${b},Bad status,runing,,,\n` +
      `${a},Bad money,,12.345678,USD,daily\n` +
      `,No id,active,,,\n` +
      `${b},Too,many,fields,here,x,y\n` +
      `${b},Fine two,,,,\n`;
    sandbox.resetStats();
    const refused = await user.run(['ads', 'campaigns', 'patch', '--account', account, '--from-csv', file('invalid.csv', csv)]);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain('line 3: status: "runing" is not one of active, paused');
    expect(refused.stderr).toContain('line 4: budget: "12.345678" has 6 decimals');
    expect(refused.stderr).toContain('line 5: campaign_id: campaign_id is required');
    expect(refused.stderr).toContain('line 6: row: 7 fields, the header has 6');
    expect(refused.stderr).toMatch(/4 of 6 rows are invalid; nothing was sent/);
    expect(sandbox.stats.requests).toEqual([]);

    const skipped = await user.run(['ads', 'campaigns', 'patch', '--account', account, '--from-csv', file('invalid.csv', csv), '--skip-invalid', '-o', 'json']);
    expect(skipped.code).toBe(1);
    const rows = JSON.parse(skipped.stdout) as Result[];
    expect(rows.map((r) => [r.line, r.result])).toEqual([
      [2, 'ok'],
      [3, 'invalid'],
      [4, 'invalid'],
      [5, 'invalid'],
      [6, 'invalid'],
      [7, 'ok'],
    ]);
    expect(rows[1]!.error_message).toContain('status');
    expect((await campaigns([b!])).get(b!)!.name).toBe('Fine two');
  });

  it('an unknown column is an error naming it, nothing sent', async () => {
    sandbox.resetStats();
    const result = await user.run(['ads', 'campaigns', 'patch', '--account', account, '--from-csv', '-'], { stdin: 'campaign_id,name,colour\nx,y,red\n' });
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe('--from-csv: unknown column "colour" (see platform help csv for the columns)');
    expect(sandbox.stats.requests).toEqual([]);
  });

  it('a file separated by semicolons (a spreadsheet saved in a comma-decimal locale) or tabs is refused saying so, nothing sent', async () => {
    sandbox.resetStats();
    for (const [separator, advice] of [
      [';', "semicolons, not commas: add --delimiter ';' (and --decimal-comma if its decimals are written 1.234,56)"],
      ['\t', 'tabs, not commas: add --delimiter tab'],
    ]) {
      const stdin = `\ufeffcampaign_id${separator}name\r\nx${separator}y\r\n`;
      const result = await user.run(['ads', 'campaigns', 'patch', '--account', account, '--from-csv', '-'], { stdin });
      expect(result.code).toBe(2);
      expect(result.stderr.trim()).toBe(`--from-csv: unknown column ${JSON.stringify(`campaign_id${separator}name`)} (the header is separated by ${advice})`);
    }
    expect(sandbox.stats.requests).toEqual([]);
  });

  it('platform help csv lists the columns, and --help names it', async () => {
    expect((await user.run(['ads', 'ad-groups', 'patch', '--help'])).stdout.replace(/\s+/g, ' ')).toContain('platform help csv (CSV columns');
    const help = await user.run(['help', 'csv']);
    for (const column of [
      'ad_group_id',
      'campaign_id',
      'budget_unit',
      'bid',
      'bidding',
      'keywords',
      'match_type',
      'store_ids',
      'start_time',
      'end_time',
      'budget.total.amount_e5',
    ]) {
      expect(help.stdout).toContain(column);
    }
  });
});

describe('dry run', () => {
  it('prints old -> new per row and sends no write', async () => {
    const [first] = [...(await campaigns()).values()];
    sandbox.resetStats();
    const csv = `campaign_id,name,status\n${first!.campaign_id},Dry name,paused\nmissing-id,X,\n`;
    const result = await user.run(['ads', 'campaigns', 'patch', '--account', account, '--from-csv', file('dry.csv', csv), '--dry-run', '-o', 'json']);
    // As the run would: a row it cannot apply (not found) is exit 1, and the summary counts each kind.
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('2 rows: 1 would update, 1 not found (dry run: nothing sent)\n1 of 2 rows would not be applied (1 not found)\n');
    const rows = JSON.parse(result.stdout) as Array<{ line: number; result: string; changes: string }>;
    expect(rows[0]).toMatchObject({ line: 2, result: 'would_update' });
    expect(rows[0]!.changes).toContain(`name: ${first!.name} -> Dry name`);
    expect(rows[1]).toMatchObject({ line: 3, result: 'not_found' });
    expect(sandbox.stats.requests.every((r) => r.method === 'GET')).toBe(true);
    expect(sandbox.stats.writesById.size).toBe(0);
  });

  it('stopped by Ctrl-C before its reads, shows no row as would_create and exits 130', async () => {
    const [first] = [...(await campaigns()).values()];
    const controller = new AbortController();
    controller.abort(new Error('interrupted'));
    const csv = `campaign_id,name\n${first!.campaign_id},Dry name\n`;
    const result = await user.run(['ads', 'campaigns', 'patch', '--account', account, '--from-csv', file('dry-stop.csv', csv), '--dry-run', '-o', 'ndjson'], {
      signal: controller.signal,
    });
    expect(result.code, result.stderr).toBe(130);
    expect(result.stdout).not.toContain('would_create');
  });
});

describe('ad groups from CSV', () => {
  it('creates ad groups across campaigns with bids, keywords and stores, then patches them', async () => {
    const [c1, c2] = [...(await campaigns()).keys()];
    const stores = await user.json<Array<{ id: string }>>(['ads', 'stores', 'list', '--account', account, '--limit', '2']);
    const csv = stringify([
      ['campaign_id', 'name', 'ad_product', 'status', 'bid', 'currency', 'keywords', 'match_type', 'store_ids', 'start_time', 'end_time'],
      [c1, 'CSV group 1', 'search', 'active', '0.35', 'USD', 'pizza|calzone', 'broad', stores.map((s) => s.id).join('|'), '2026-12-01T00:00:00Z', ''],
      [c2, 'CSV group 2', '', 'paused', '', '', '', '', stores[0]!.id, '2026-12-02T00:00:00Z', '2027-01-01T00:00:00Z'],
    ]);
    const created = await user.run(['ads', 'ad-groups', 'create', '--account', account, '--from-csv', file('groups.csv', csv), '--json']);
    expect(created.code).toBe(0);
    const [r1, r2] = JSON.parse(created.stdout) as Result[];
    const [g1] = await user.json<Array<Record<string, any>>>(['ads', 'ad-groups', 'list', '--account', account, '--campaign', c1!, '--id', r1!.id]);
    expect(g1).toMatchObject({
      name: 'CSV group 1',
      ad_product: 'SPONSORED_SEARCH',
      bidding: { manual: { bid_amount: { amount_e5: '35000', currency_code: 'USD' } } },
      targeting: { criteria: [{ keyword_targeting: { keywords: ['pizza', 'calzone'], match_type: 'MATCH_TYPE_BROAD' } }] },
      subjects: { stores: { store_ids: stores.map((s) => s.id) } },
    });
    const [g2] = await user.json<Array<Record<string, any>>>(['ads', 'ad-groups', 'list', '--account', account, '--campaign', c2!, '--id', r2!.id]);
    expect(g2).toMatchObject({
      ad_product: 'SPONSORED_LISTING',
      bidding: { auto: {} },
      configured_status: 'AD_GROUP_CONFIGURED_STATUS_PAUSED',
      schedule: { end_time: '2027-01-01T00:00:00Z' },
    });

    const patch = `ad_group_id,campaign_id,bidding,status\n${r1!.id},${c1},auto,paused\n`;
    expect((await user.run(['ads', 'ad-groups', 'patch', '--account', account, '--from-csv', '-'], { stdin: patch })).code).toBe(0);
    const [after] = await user.json<Array<Record<string, any>>>(['ads', 'ad-groups', 'list', '--account', account, '--campaign', c1!, '--id', r1!.id]);
    expect(after).toMatchObject({ bidding: { auto: {} }, configured_status: 'AD_GROUP_CONFIGURED_STATUS_PAUSED', name: 'CSV group 1' });
  });
});

describe('round trip: list -o csv | transform | patch --from-csv -', () => {
  it('applies the transformed names and leaves the rest as it was', async () => {
    const listed = await user.run(['ads', 'campaigns', 'list', '--account', account, '--all', '-o', 'csv']);
    const records = parse<Record<string, string>>(listed.stdout, { columns: true });
    const before = await campaigns();
    // What `awk` would do in a pipeline: edit one column.
    const edited = stringify(
      records.map((r) => ({ ...r, name: `${r.name} (Q3)` })),
      { header: true },
    );
    const result = await user.run(['ads', 'campaigns', 'patch', '--account', account, '--from-csv', '-', '-o', 'csv'], { stdin: edited });
    expect(result.code).toBe(0);
    const results = parse<Record<string, string>>(result.stdout, { columns: true });
    expect(results).toHaveLength(records.length);
    const after = await campaigns();
    for (const [id, campaign] of before) {
      expect(after.get(id)!.name).toBe(`${campaign.name} (Q3)`);
      expect(after.get(id)!.configured_status).toBe(campaign.configured_status);
      expect(after.get(id)!.budget?.total).toEqual(campaign.budget?.total);
    }
  });

  it('any generated row round-trips through --from-csv and list -o csv (property)', async () => {
    const cell = fc
      .string({ unit: fc.constantFrom('a', 'Z', ' ', ',', '"', '\n', 'é', '寿', '🍣', "'", '|', '\\'), minLength: 1, maxLength: 12 })
      .filter((s) => s.trim() !== '');
    const row = fc.record({
      name: cell,
      status: fc.constantFrom('active', 'paused'),
      budget: fc.option(
        fc
          .tuple(fc.integer({ min: 0, max: 99999 }), fc.integer({ min: 0, max: 99999 }))
          .map(([w, f]) => `${w}.${String(f).padStart(5, '0').replace(/0+$/, '').padEnd(2, '0')}`),
      ),
      budget_unit: fc.constantFrom('daily', 'weekly'),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(row, { minLength: 1, maxLength: 5 }), async (rows) => {
        const csv = stringify(
          rows.map((r) => ({
            name: r.name,
            status: r.status,
            budget: r.budget ?? '',
            currency: r.budget ? 'USD' : '',
            budget_unit: r.budget ? r.budget_unit : '',
          })),
          { header: true },
        );
        const created = await user.run(['ads', 'campaigns', 'create', '--account', account, '--from-csv', '-', '--json'], { stdin: csv });
        expect(created.code).toBe(0);
        const ids = (JSON.parse(created.stdout) as Result[]).map((r) => r.id);
        const listed = await user.run(['ads', 'campaigns', 'list', '--account', account, '--id', ids.join(','), '-o', 'csv']);
        const back = new Map(parse<Record<string, string>>(listed.stdout, { columns: true }).map((r) => [r.campaign_id!, r]));
        rows.forEach((r, i) => {
          const got = back.get(ids[i]!)!;
          expect(got.name).toBe(r.name);
          expect(got.status).toBe(r.status);
          expect(got.budget).toBe(r.budget ?? '');
          expect(got.budget_unit).toBe(r.budget ? r.budget_unit : '');
        });
      }),
      { numRuns: 15 },
    );
  });
});

describe('a 10,000-row patch on a flaky network', () => {
  it('gives every row exactly one result, reaches the expected state, applies no row twice', { timeout: scaled(120_000) }, async () => {
    const big = await sandboxOnFreePort({ campaigns: 10_000, seed: 3 });
    try {
      const bigUser = new TestUser(big);
      const bigAccount = (await firstAccount(bigUser)).ad_account_id;
      const listed = await bigUser.run(['ads', 'campaigns', 'list', '--account', bigAccount, '--all', '-o', 'csv']);
      const ids = parse<Record<string, string>>(listed.stdout, { columns: true }).map((r) => r.campaign_id!);
      expect(ids).toHaveLength(10_000);
      const csv = stringify(
        ids.map((id, i) => ({
          campaign_id: id,
          name: `Bulk ${i}`,
          status: i % 2 ? 'paused' : 'active',
          budget: `${i}.5`,
          currency: 'USD',
          budget_unit: 'weekly',
        })),
        { header: true },
      );
      // 5% 500s, 5% drops (half of those after the write), 5% 429s, and 2% of items failing transiently.
      big.setFaults({ failRate: 0.1, throttleRate: 0.05, itemFailRate: 0.02 });
      big.resetStats();
      const result = await bigUser.run([
        'ads',
        'campaigns',
        'patch',
        '--account',
        bigAccount,
        '--from-csv',
        file('big.csv', csv),
        '--batch-size',
        '100',
        '-o',
        'ndjson',
      ]);
      big.setFaults({ failRate: 0, throttleRate: 0, itemFailRate: 0 });
      const statuses = big.stats.requests.map((r) => r.status);
      expect(statuses).toContain(429);
      expect(statuses).toContain(500);
      expect(statuses).toContain(0);
      const results = result.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Result);
      expect(results).toHaveLength(10_000);
      expect(results.map((r) => r.line)).toEqual(ids.map((_, i) => i + 2));
      expect(results.filter((r) => r.result !== 'ok')).toEqual([]);
      expect(result.code).toBe(0);
      for (const id of ids) expect(big.stats.writesById.get(id)).toBe(1);
      const after = await bigUser.json<Campaign[]>(['ads', 'campaigns', 'list', '--account', bigAccount, '--all']);
      after.forEach((c, i) => {
        expect(c.name).toBe(`Bulk ${i}`);
        expect(c.configured_status).toBe(i % 2 ? 'CAMPAIGN_CONFIGURED_STATUS_PAUSED' : 'CAMPAIGN_CONFIGURED_STATUS_ACTIVE');
        expect(c.budget).toMatchObject({ unit: 'BUDGET_UNIT_WEEKLY', total: { amount_e5: `${i}50000`.replace(/^0+(?=\d)/, '') } });
      });
    } finally {
      await big.close();
    }
  });
});

describe('interrupt and resume', () => {
  it('Ctrl-C stops sending, reports unsent rows as skipped (exit 130); --resume sends only those', async () => {
    // Ctrl-C comes as the sandbox answers the third batch: the reads are done, batches are being sent.
    const controller = new AbortController();
    let batchesAnswered = 0;
    const slow = await sandboxOnFreePort({
      seed: 5,
      latencyMs: 40,
      log: (line) => {
        if (/^PATCH \/v1\/ads\/[^/]+\/campaigns 200 /.test(line) && ++batchesAnswered === 3) controller.abort(new Error('interrupted'));
      },
    });
    try {
      const slowUser = new TestUser(slow);
      const slowAccount = (await firstAccount(slowUser)).ad_account_id;
      const ids = [...(await slowUser.json<Campaign[]>(['ads', 'campaigns', 'list', '--account', slowAccount, '--all']))].map((c) => c.campaign_id);
      const csv = stringify(
        ids.map((id) => ({ campaign_id: id, name: `Resumed ${id.slice(0, 8)}` })),
        { header: true },
      );
      const input = file('resume.csv', csv);
      slow.resetStats();
      const running = slowUser.run(
        ['ads', 'campaigns', 'patch', '--account', slowAccount, '--from-csv', input, '--batch-size', '2', '--concurrency', '1', '-o', 'ndjson'],
        { signal: controller.signal },
      );
      const first = await running;
      expect(batchesAnswered).toBeGreaterThanOrEqual(3);
      expect(first.code).toBe(130);
      const results = first.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Result);
      expect(results).toHaveLength(ids.length);
      const ok = results.filter((r) => r.result === 'ok');
      const skipped = results.filter((r) => r.result === 'skipped');
      expect(ok.length).toBeGreaterThan(0);
      expect(skipped.length).toBeGreaterThan(0);
      expect(ok.length + skipped.length).toBe(ids.length);
      expect(skipped.every((r) => r.error_code === 'Interrupted')).toBe(true);
      expect(slow.stats.writesById.size).toBe(ok.length);

      const resume = await slowUser.run([
        'ads',
        'campaigns',
        'patch',
        '--account',
        slowAccount,
        '--from-csv',
        input,
        '--resume',
        file('first.ndjson', first.stdout),
        '-o',
        'ndjson',
      ]);
      expect(resume.code).toBe(0);
      const second = resume.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Result);
      expect(
        second.filter((r) => r.result === 'ok').map((r) => r.line),
        JSON.stringify(second.slice(0, 12)),
      ).toEqual(skipped.map((r) => r.line));
      expect(second.filter((r) => r.error_code === 'AlreadyApplied').map((r) => r.line)).toEqual(ok.map((r) => r.line));
      for (const id of ids) expect(slow.stats.writesById.get(id)).toBe(1);
    } finally {
      await slow.close();
    }
  });
  it('items that fail transiently are retried with back-off; --resume JOURNAL sends again those that never got through (not applied); other failures stay final', async () => {
    const flaky = await sandboxOnFreePort({ seed: 6 });
    try {
      const flakyUser = new TestUser(flaky);
      const flakyAccount = (await firstAccount(flakyUser)).ad_account_id;
      const ids = (await flakyUser.json<Campaign[]>(['ads', 'campaigns', 'list', '--account', flakyAccount, '--all'])).map((c) => c.campaign_id).slice(0, 4);
      const missing = '00000000-0000-4000-8000-000000000000';
      const input = file('transient.csv', `campaign_id,name\n${[...ids, missing].map((id, i) => `${id},Retried ${i}`).join('\n')}\n`);
      const journal = path.join(dir, 'transient.journal');
      const args = ['ads', 'campaigns', 'patch', '--account', flakyAccount, '--from-csv', input, '--journal', journal, '-o', 'ndjson'];
      const parse = (stdout: string) =>
        stdout
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as Result);
      // Every item fails transiently, in every retry round: the run gives up on them (exit 1).
      flaky.setFaults({ itemFailRate: 1 });
      flakyUser.clock.slept.length = 0;
      const first = await flakyUser.run(args);
      expect(first.code).toBe(1);
      // Each retry round waits first, longer each time (back-off with jitter), as a failed request does.
      // The governor's slow start races each held request's answer with a timeout on the same clock: not a wait.
      const [r1, r2, r3, ...more] = flakyUser.clock.slept.filter((ms) => ms !== START_WAIT_MS);
      expect(more).toEqual([]);
      expect([r1! >= 100 && r1! <= 200, r2! >= 200 && r2! <= 400, r3! >= 400 && r3! <= 800], String(flakyUser.clock.slept)).toEqual([true, true, true]);
      expect(parse(first.stdout).map((r) => r.error_code)).toEqual(['Unavailable', 'Unavailable', 'Unavailable', 'Unavailable', 'Unavailable']);
      expect(flaky.stats.writesById.size).toBe(0);
      // The missing campaign's failure is made final (NotFound) in the journal, as a real answer would be (in the last results, before the run's end).
      const recorded = fs
        .readFileSync(journal, 'utf8')
        .replace(
          /"error_code":"Unavailable","error_message":"[^"]*"(?=,"key":"[^"]*","hash":"[^"]*"\}\]\}\n(\{"type":"end"[^\n]*\n)?$)/,
          '"error_code":"NotFound","error_message":"no such campaign"',
        );
      fs.writeFileSync(journal, recorded.endsWith('\n') ? recorded : `${recorded}\n`);
      expect(fs.readFileSync(journal, 'utf8')).toContain('"NotFound"');

      flaky.setFaults({ itemFailRate: 0 });
      flaky.resetStats();
      const resumed = await flakyUser.run([...args, '--resume', journal]);
      const results = parse(resumed.stdout);
      expect(results.map((r) => [r.line, r.result, r.error_code])).toEqual([
        [2, 'ok', ''],
        [3, 'ok', ''],
        [4, 'ok', ''],
        [5, 'ok', ''],
        [6, 'failed', 'NotFound'],
      ]);
      expect(resumed.code).toBe(1);
      // Each was applied exactly once, and the final failure was not sent again (one batch of four).
      for (const id of ids) expect(flaky.stats.writesById.get(id)).toBe(1);
      expect(flaky.stats.requests.filter((r) => r.method === 'PATCH')).toHaveLength(1);
      const names = await flakyUser.json<Campaign[]>(['ads', 'campaigns', 'list', '--account', flakyAccount, '--id', ids.join(',')]);
      expect(names.map((c) => c.name)).toEqual(['Retried 0', 'Retried 1', 'Retried 2', 'Retried 3']);
    } finally {
      await flaky.close();
    }
  });
});

describe('JSON input is streamed', () => {
  it('a large pretty-printed API body and a JSON array of items both go through item by item', async () => {
    const ids = [...(await campaigns()).keys()].slice(0, 3);
    // Over the 1 MB read-whole threshold: padded with long names.
    const items = Array.from({ length: 6000 }, (_, i) => ({ campaign_id: ids[i % 3], name: `Streamed ${i} ${'x'.repeat(200)}` }));
    const body = JSON.stringify({ campaigns: items }, null, 2);
    expect(body.length).toBeGreaterThan(1 << 20);
    const result = await user.run(['ads', 'campaigns', 'patch', '--account', account, '--from-json', file('big-body.json', body), '-o', 'ndjson']);
    expect(result.code).toBe(0);
    const rows = result.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Result);
    expect(rows).toHaveLength(6000);
    expect(rows[5999]).toMatchObject({ line: 6000, result: 'ok' });
    expect((await campaigns([ids[2]!])).get(ids[2]!)!.name).toBe(items[5999]!.name);

    const array = await user.run(['ads', 'campaigns', 'patch', '--account', account, '--from-json', '-', '-o', 'ndjson'], {
      stdin: JSON.stringify(items.slice(0, 4), null, 1),
    });
    expect(array.code).toBe(0);
    expect(
      array.stdout
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as Result).line),
    ).toEqual([1, 2, 3, 4]);
  });

  it('a broken JSON array is refused before anything is sent', async () => {
    sandbox.resetStats();
    const result = await user.run(['ads', 'campaigns', 'patch', '--account', account, '--from-json', '-'], {
      stdin: '[{"campaign_id": "x", "name": "y"}, {"campaign_id": ',
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^--from-json at the end of the input: not valid JSON/);
    expect(sandbox.stats.requests).toEqual([]);
  });
});

describe('progress and summary on stderr', () => {
  it('draws a progress bar (rows, failed, rate, ETA) only when stderr is a terminal, and always a summary', async () => {
    const ids = [...(await campaigns()).keys()].slice(0, 20);
    const csv = stringify(
      ids.map((id, i) => ({ campaign_id: id, name: `Progress ${i}` })),
      { header: true },
    );
    const input = file('progress.csv', csv);
    const onTerminal = await user.run(
      ['ads', 'campaigns', 'patch', '--account', account, '--from-csv', input, '--batch-size', '2', '--concurrency', '1', '-o', 'ndjson'],
      { tty: true },
    );
    expect(onTerminal.code).toBe(0);
    expect(onTerminal.stderr).toMatch(/\r\[#+-*\] \d+\/20 rows {2}0 failed {2}\d+ rows\/s {2}ETA \d+s/);
    expect(onTerminal.stderr).toMatch(/20 rows: 20 ok, 0 failed, 0 invalid, 0 skipped in \d+\.\d s \(\d+ rows\/s\)/);
    expect(onTerminal.stdout.trim().split('\n')).toHaveLength(20);

    const piped = await user.run(['ads', 'campaigns', 'patch', '--account', account, '--from-csv', input, '-o', 'ndjson']);
    expect(piped.stderr).not.toContain('\r');
    // The same patch again changes nothing: each row is reported unchanged, none sent.
    expect(piped.stderr).toMatch(/^20 rows: 0 ok, 20 unchanged/m);

    // A shard of one row (its summary is printed, as every shard's is) says "1 row".
    const one = file('progress-one.csv', `campaign_id,name\n${ids[0]},Progress one\n`);
    const args = ['ads', 'campaigns', 'patch', '--account', account, '--from-csv', one, '--shard', '0/1', '-o', 'ndjson'];
    expect((await user.run([...args, '--dry-run'])).stderr).toMatch(/^1 row: 1 would update \(dry run: nothing sent\)$/m);
    expect((await user.run(args)).stderr).toMatch(/^1 row: 1 ok, 0 failed, 0 invalid, 0 skipped in /m);
  });
});

describe('dotted API paths as columns', () => {
  it('sets the fields they name', async () => {
    const [id] = [...(await campaigns()).keys()];
    const csv = `campaign_id,budget.unit,budget.total.amount_e5,budget.total.currency_code,configured_status\n${id},BUDGET_UNIT_WEEKLY,4200000,USD,CAMPAIGN_CONFIGURED_STATUS_PAUSED\n`;
    const result = await user.run(['ads', 'campaigns', 'patch', '--account', account, '--from-csv', '-'], { stdin: csv });
    expect(result.code).toBe(0);
    expect((await campaigns([id!])).get(id!)).toMatchObject({
      configured_status: 'CAMPAIGN_CONFIGURED_STATUS_PAUSED',
      budget: { unit: 'BUDGET_UNIT_WEEKLY', total: { amount_e5: '4200000', currency_code: 'USD' } },
    });
  });
});
