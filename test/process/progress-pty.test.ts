// A bulk run on a real terminal (test/helpers/pty.ts): its progress bar, redrawn in place on
// stderr, is erased, whole, before the results table reaches the terminal, so the table starts
// on a clean line (before: `[######----] 1/4 rows  0 failed  0 rows/s  ETA 0sLINE  ID ...`).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { sandboxOnFreePort, tempDir } from '../helpers/cli.js';
import { cliEnv, runCli } from '../helpers/cli-process.js';
import { runOnPty } from '../helpers/pty.js';
import { lineBefore } from '../helpers/terminal-line.js';
import { scaled } from '../helpers/time-scale.js';

const ACCOUNT = 'a087eaf3-00b3-49c9-8706-c4ebfb2627fd';
const ROWS = 6;

let dir: string;
let sandbox: Sandbox;
let csv: string;
beforeAll(async () => {
  dir = tempDir('platform-progress-pty-');
  // Every answer 150 ms late: a run of one row a batch lasts long enough for the bar to be drawn.
  sandbox = await sandboxOnFreePort({ campaigns: ROWS, latencyMs: 150 });
  const listed = await runCli(['ads', 'campaigns', 'list', '--account', ACCOUNT, '--all', '-o', 'ndjson'], cliEnv(dir, sandbox.url));
  const ids = listed.stdout
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as { campaign_id: string }).campaign_id);
  csv = path.join(dir, 'rename.csv');
  fs.writeFileSync(csv, `campaign_id,name\n${ids.map((id, i) => `${id},On a terminal ${i}`).join('\n')}\n`);
}, scaled(60_000));
afterAll(async () => {
  await sandbox.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('a bulk run on an 80-column terminal', () => {
  it('erases its progress bar before the results table: the table starts on a clean line', { timeout: scaled(60_000) }, async () => {
    const args = ['ads', 'campaigns', 'patch', '--account', ACCOUNT, '--from-csv', csv, '--batch-size', '1', '--concurrency', '1'];
    const { code, output } = await runOnPty(args, { ...cliEnv(dir, sandbox.url), NO_COLOR: '1' }, { columns: 80 }).done;
    expect(code, output).toBe(0);
    // The bar was drawn ...
    expect(output).toMatch(/\r\[#*-*\] \d\/6 rows {2}0 failed/);
    // ... and is gone, the cursor at column 0, when the table's header is printed.
    expect(lineBefore(output, 'LINE  ID'), JSON.stringify(output)).toEqual({ shown: '', column: 0 });
    // The summary after the table, on its own line.
    expect(output).toMatch(/\n6 rows: 6 ok, 0 failed, 0 invalid, 0 skipped in \d+\.\d s/);
    for (const line of output.slice(output.indexOf('LINE  ID')).split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
  });
});
