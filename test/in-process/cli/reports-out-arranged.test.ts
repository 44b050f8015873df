// Issue #45: `reports run --out` applies --sort and --limit instead of refusing them. The
// saved CSV is the API's (its header, cells, quoting and line ends) with its rows reordered
// and cut; --limit alone stops the download once it has the rows. Against the real sandbox,
// and a scripted report server for what the sandbox never writes (CRLF, a quoted line break,
// a body that never ends).
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { sandboxWithUser, tempDir, type TestUser } from '../../helpers/cli.js';
import { scriptedReports } from '../../helpers/scripted-reports.js';

const RANGE = ['--since', '2025-01-13', '--until', '2025-01-20'];
const ACCOUNT = 'a087eaf3-00b3-49c9-8706-c4ebfb2627fd';

let sandbox: Sandbox;
let user: TestUser;
let account: string;
/** The whole summary report as the API wrote it, and its lines (each with its line end). */
let full: string;
let header: string;
let records: string[];
let spend: number;

const summary = (...flags: string[]) => [
  ...['ads', 'reports', 'run', '--account', account, '--type', 'CAMPAIGN_PERFORMANCE', '--unit', 'summary', ...RANGE],
  ...flags,
];
/** The lines of a CSV text, each with its `\n` (the sandbox's cells hold no line breaks). */
const lines = (text: string) => text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
const partials = (dir: string) => fs.readdirSync(dir).filter((name) => name.endsWith('.part'));

beforeAll(async () => {
  ({ sandbox, user, account } = await sandboxWithUser({ timeScale: 1000 }));
  const result = await user.run(summary('--out', '-'));
  if (result.code !== 0) throw new Error(result.stderr);
  full = result.stdout;
  [header = '', ...records] = lines(full);
  spend = cellsOf(header).indexOf('ad_spend');
});
afterAll(() => sandbox.close());

/** The cells of one CSV line. */
function cellsOf(line: string): string[] {
  const rows: string[][] = parse(line);
  return rows[0] ?? [];
}
const spendOf = (line: string) => Number(cellsOf(line)[spend]);

describe('reports run --out with --sort and --limit', () => {
  it('--sort -ad_spend --limit 5 --out FILE saves the header and the five highest-spend rows, as the API wrote them', async () => {
    expect(records.length).toBeGreaterThan(5);
    expect(new Set(records.map(spendOf)).size).toBe(records.length);
    const dir = tempDir('platform-reports-arranged-');
    const out = path.join(dir, 'top.csv');
    const result = await user.run(summary('--sort', '-ad_spend', '--limit', '5', '--out', out));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('');
    const expected = [...records].sort((a, b) => spendOf(b) - spendOf(a)).slice(0, 5);
    expect(fs.readFileSync(out, 'utf8')).toBe(header + expected.join(''));
    expect(result.stderr).toMatch(
      new RegExp(`Saved report report_\\w+ to ${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(the first 5 rows, sorted by -ad_spend; `),
    );
    expect(partials(dir)).toEqual([]);

    // The same rows as the report printed with -o csv, sorted and cut there.
    const printed = await user.run([...summary('--sort', '-ad_spend', '--limit', '5'), '-o', 'csv']);
    expect(printed.code, printed.stderr).toBe(0);
    expect(parse(fs.readFileSync(out))).toEqual(parse(printed.stdout));

    // reports download takes them too (run's resume command, after a --timeout, carries them).
    const id = /Saved report (report_\w+)/.exec(result.stderr)![1]!;
    const again = await user.run(['ads', 'reports', 'download', id, '--account', account, '--sort=-ad_spend', '--limit', '5', '--out', '-']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toBe(header + expected.join(''));
  });

  it('--sort with --out - writes the sorted CSV to stdout: by text, ties by the next key (-: descending)', async () => {
    const result = await user.run(summary('--sort', 'currency_code', '--sort', '-campaign_name', '--out', '-'));
    expect(result.code, result.stderr).toBe(0);
    const [head, ...rows] = lines(result.stdout);
    expect(head).toBe(header);
    expect([...rows].sort()).toEqual([...records].sort());
    // currency_code ascending, then campaign_name descending.
    const keys = rows.map((line) => {
      const cells = cellsOf(line);
      return { currency: cells[2]!, name: cells[1]! };
    });
    const text = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
    const sorted = [...keys].sort((a, b) => text(a.currency, b.currency) || text(b.name, a.name));
    expect(keys).toEqual(sorted);
    expect(rows).not.toEqual(records);
  });

  it('--limit 3 alone saves the first three rows in the API order, byte for byte', async () => {
    const dir = tempDir('platform-reports-arranged-');
    const out = path.join(dir, 'first.csv');
    const result = await user.run(summary('--limit', '3', '--out', out));
    expect(result.code, result.stderr).toBe(0);
    expect(fs.readFileSync(out, 'utf8')).toBe(header + records.slice(0, 3).join(''));
    expect(result.stderr).toContain('(the first 3 rows; ');
    expect(partials(dir)).toEqual([]);
  });

  it('--limit larger than the report saves it whole', async () => {
    const result = await user.run(summary('--limit', String(records.length + 10), '--out', '-'));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(full);
  });

  it('--sort over an existing file needs --force, and then replaces it whole', async () => {
    const dir = tempDir('platform-reports-arranged-');
    const out = path.join(dir, 'top.csv');
    fs.writeFileSync(out, 'precious\n');
    const refused = await user.run(summary('--sort', '-ad_spend', '--limit', '2', '--out', out));
    expect(refused.code).toBe(2);
    expect(fs.readFileSync(out, 'utf8')).toBe('precious\n');
    const forced = await user.run(summary('--sort', '-ad_spend', '--limit', '2', '--out', out, '--force'));
    expect(forced.code, forced.stderr).toBe(0);
    expect(fs.readFileSync(out, 'utf8')).toBe(
      header +
        [...records]
          .sort((a, b) => spendOf(b) - spendOf(a))
          .slice(0, 2)
          .join(''),
    );
    expect(partials(dir)).toEqual([]);
  });
});

describe("the API's bytes are kept: line ends, quoting, a line break inside a cell", () => {
  // CRLF line ends, a quoted name with a comma, a quote and a line break, and no line end after the last row.
  const BODY = 'campaign_id,campaign_name,clicks\r\nc1,"Spring, ""big""\r\nsale",5\r\nc2,Plain,17\r\nc3,"Two\nlines",11\r\nc4,Last,2';
  const run = (scripted: { user: TestUser }, ...flags: string[]) =>
    scripted.user.run([
      ...['ads', 'reports', 'run', '--account', ACCOUNT, '--type', 'CAMPAIGN_PERFORMANCE', '--columns', 'campaign_id,campaign_name,clicks'],
      ...['--unit', 'summary', ...RANGE, ...flags],
    ]);

  it('--sort -clicks reorders whole records; the one that had no line end gets the CRLF of the others', async () => {
    const scripted = await scriptedReports({ id: 'report_crlf', body: BODY, fileSize: Buffer.byteLength(BODY) });
    try {
      const result = await run(scripted, '--sort', '-clicks', '--out', '-');
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe('campaign_id,campaign_name,clicks\r\nc2,Plain,17\r\nc3,"Two\nlines",11\r\nc1,"Spring, ""big""\r\nsale",5\r\nc4,Last,2\r\n');
    } finally {
      scripted.close();
    }
  });

  it('--limit 2 stops at the second record end outside quotes', async () => {
    const scripted = await scriptedReports({ id: 'report_crlf', body: BODY, fileSize: Buffer.byteLength(BODY) });
    try {
      const result = await run(scripted, '--limit', '2', '--out', '-');
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe('campaign_id,campaign_name,clicks\r\nc1,"Spring, ""big""\r\nsale",5\r\nc2,Plain,17\r\n');
    } finally {
      scripted.close();
    }
  });

  it('--limit alone does not wait for the rest of the file: a body that never ends still gives its first rows', async () => {
    // The server sends the first half and holds the connection open.
    const rows = Array.from({ length: 400 }, (_, i) => `c${i},Campaign ${i},${i}\n`);
    const body = `campaign_id,campaign_name,clicks\n${rows.join('')}`;
    const scripted = await scriptedReports({ id: 'report_stall', body, fileSize: Buffer.byteLength(body), stall: true });
    try {
      const dir = tempDir('platform-reports-arranged-');
      const out = path.join(dir, 'first.csv');
      const result = await run(scripted, '--limit', '10', '--out', out);
      expect(result.code, result.stderr).toBe(0);
      expect(fs.readFileSync(out, 'utf8')).toBe(`campaign_id,campaign_name,clicks\n${rows.slice(0, 10).join('')}`);
      expect(partials(dir)).toEqual([]);
    } finally {
      scripted.close();
    }
  });

  it('printing (no --out) with --limit alone reads only the rows it prints: a body that never ends still prints them', async () => {
    const rows = Array.from({ length: 400 }, (_, i) => `c${i},Campaign ${i},${i}\n`);
    const body = `campaign_id,campaign_name,clicks\n${rows.join('')}`;
    const scripted = await scriptedReports({ id: 'report_stall', body, fileSize: Buffer.byteLength(body), stall: true });
    try {
      const result = await run(scripted, '--limit', '3', '-o', 'csv');
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe(`campaign_id,campaign_name,clicks\n${rows.slice(0, 3).join('')}`);
    } finally {
      scripted.close();
    }
  });

  it('printing with --sort and --limit gives the same rows as --out, read back', async () => {
    const scripted = await scriptedReports({ id: 'report_crlf', body: BODY, fileSize: Buffer.byteLength(BODY) });
    try {
      const printed = await run(scripted, '--sort', '-clicks', '--limit', '3', '-o', 'csv');
      const saved = await run(scripted, '--sort', '-clicks', '--limit', '3', '--out', '-');
      expect(printed.code, printed.stderr).toBe(0);
      expect(parse(printed.stdout)).toEqual(parse(saved.stdout));
      expect(parse(saved.stdout)).toEqual([
        ['campaign_id', 'campaign_name', 'clicks'],
        ['c2', 'Plain', '17'],
        ['c3', 'Two\nlines', '11'],
        ['c1', 'Spring, "big"\r\nsale', '5'],
      ]);
    } finally {
      scripted.close();
    }
  });

  it('a short body is not saved with --sort either: exit 1, no file, no temporary file', async () => {
    const scripted = await scriptedReports({ id: 'report_short', body: BODY, fileSize: Buffer.byteLength(BODY) + 100 });
    try {
      const dir = tempDir('platform-reports-arranged-');
      const out = path.join(dir, 'short.csv');
      const result = await run(scripted, '--sort', '-clicks', '--out', out);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/received \d+ bytes, the API announced \d+/);
      expect(fs.existsSync(out)).toBe(false);
      expect(partials(dir)).toEqual([]);
    } finally {
      scripted.close();
    }
  });
});
