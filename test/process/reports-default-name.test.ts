// Where a report goes on a terminal without --out. `reports download` names the file after the
// report's type and range (`campaign-performance_2025-01-13_2025-01-20.csv`) when this machine
// created it, never replacing a file without --force; a report created elsewhere is named after
// its id, and a hostile id (../../../escaped-ok) must not pick a path outside the current
// folder. `reports run` prints the rows as a table under the range instead, and writes no file.
// The built CLI on a real pseudo-terminal, in a folder three levels deep.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { runOnPty } from '../helpers/pty.js';
import { scriptedReports } from '../helpers/scripted-reports.js';

const ACCOUNT = 'a087eaf3-00b3-49c9-8706-c4ebfb2627fd';
const BODY = 'campaign_id,clicks\nc1,5\n';
const QUERY = ['--type', 'CAMPAIGN_PERFORMANCE', '--columns', 'campaign_id,clicks', '--since', '2025-01-13', '--until', '2025-01-20'];

let root: string;
let home: string;
let cwd: string;

beforeEach(() => {
  root = tempDir('platform-report-name-');
  home = tempDir('platform-report-home-');
  cwd = path.join(root, 'a', 'b', 'c');
  fs.mkdirSync(cwd, { recursive: true });
});
afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
  fs.rmSync(home, { recursive: true, force: true });
});

/** The CLI against the scripted server, HOME apart: the state folder (where created reports are noted) is no path a report picked. */
const cli = (url: string, args: string[]) =>
  runOnPty(
    ['ads', 'reports', ...args],
    {
      PATH: process.env.PATH ?? '',
      HOME: home,
      PLATFORM_CONFIG_DIR: path.join(home, 'config'),
      PLATFORM_BASE_URL: url,
      PLATFORM_TOKEN: 'scripted',
      NO_COLOR: '1',
    },
    { cwd, columns: 80 },
  ).done;

it('download names the file after the type and range of a report created here, and never replaces it without --force', async () => {
  const id = 'report_0123456789abcdef01234567';
  const scripted = await scriptedReports({ id, body: BODY, fileSize: Buffer.byteLength(BODY) });
  try {
    const created = await cli(scripted.url, ['create', '--account', ACCOUNT, ...QUERY]);
    expect(created.code, created.output).toBe(0);
    expect(created.output).toContain('CAMPAIGN_PERFORMANCE (DAILY): 2025-01-13 .. 2025-01-20, UTC, end exclusive');

    const name = 'campaign-performance_2025-01-13_2025-01-20.csv';
    const first = await cli(scripted.url, ['download', id, '--account', ACCOUNT]);
    expect(first.code, first.output).toBe(0);
    expect(first.output).toContain(`Saved report ${id} to ${name}`);
    expect(fs.readFileSync(path.join(cwd, name), 'utf8')).toBe(BODY);

    fs.writeFileSync(path.join(cwd, name), 'mine\n');
    const again = await cli(scripted.url, ['download', id, '--account', ACCOUNT]);
    expect(again.code, again.output).toBe(2);
    expect(again.output).toContain(`${name} already exists; pass --force to replace it`);
    expect(fs.readFileSync(path.join(cwd, name), 'utf8')).toBe('mine\n');

    const forced = await cli(scripted.url, ['download', id, '--account', ACCOUNT, '--force']);
    expect(forced.code, forced.output).toBe(0);
    expect(fs.readFileSync(path.join(cwd, name), 'utf8')).toBe(BODY);
    expect(fs.readdirSync(cwd)).toEqual([name]);
  } finally {
    scripted.close();
  }
});

it('a report id of ../../../escaped-ok created elsewhere saves escaped-ok.csv in the current folder, nothing outside it', async () => {
  const scripted = await scriptedReports({ id: '../../../escaped-ok', body: BODY, fileSize: Buffer.byteLength(BODY) });
  try {
    const { code, output } = await cli(scripted.url, ['download', '../../../escaped-ok', '--account', ACCOUNT]);
    expect(code, output).toBe(0);
    expect(output).toContain('Saved report ../../../escaped-ok to escaped-ok.csv');
    expect(fs.readFileSync(path.join(cwd, 'escaped-ok.csv'), 'utf8')).toBe(BODY);
    expect(fs.existsSync(path.join(root, 'escaped-ok.csv'))).toBe(false);
    expect(fs.readdirSync(root).sort()).toEqual(['a']);
  } finally {
    scripted.close();
  }
});

it('run without --out prints the rows as a table under the range and writes no file', async () => {
  const scripted = await scriptedReports({ id: '../../../escaped-ok', body: BODY, fileSize: Buffer.byteLength(BODY) });
  try {
    const { code, output } = await cli(scripted.url, ['run', '--account', ACCOUNT, ...QUERY]);
    expect(code, output).toBe(0);
    const lines = output.split(/\r?\n/);
    const caption = lines.findIndex((l) => l.includes('CAMPAIGN_PERFORMANCE (DAILY): 2025-01-13 .. 2025-01-20, UTC, end exclusive'));
    expect(caption).toBeGreaterThanOrEqual(0);
    expect(lines[caption + 1]).toMatch(/^CAMPAIGN_ID +CLICKS$/);
    expect(lines[caption + 2]).toMatch(/^c1 +5$/);
    expect(fs.readdirSync(cwd)).toEqual([]);
    expect(fs.readdirSync(root)).toEqual(['a']);
  } finally {
    scripted.close();
  }
});
