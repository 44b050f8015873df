// `reports run` on a terminal without --out names the file after the report id the server
// returned; a hostile id (../../../escaped-ok) must not pick a path outside the current
// folder. The built CLI on a real pseudo-terminal, in a folder three levels deep.
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { runOnPty } from '../helpers/pty.js';
import { scriptedReports } from '../helpers/scripted-reports.js';

it('a report id of ../../../escaped-ok saves escaped-ok.csv in the current folder, nothing outside it', async () => {
  const body = 'campaign_id,clicks\nc1,5\n';
  const scripted = await scriptedReports({ id: '../../../escaped-ok', body, fileSize: Buffer.byteLength(body) });
  const root = tempDir('platform-report-name-');
  const home = tempDir('platform-report-home-');
  const cwd = path.join(root, 'a', 'b', 'c');
  fs.mkdirSync(cwd, { recursive: true });
  try {
    const run = runOnPty(
      [
        ...['ads', 'reports', 'run', '--account', 'a087eaf3-00b3-49c9-8706-c4ebfb2627fd', '--type', 'CAMPAIGN_PERFORMANCE'],
        ...['--columns', 'campaign_id,clicks', '--since', '2025-01-13', '--until', '2025-01-20'],
      ],
      // HOME apart: the CLI's state folder (Node 22+ keeps its compile cache there) is no path the report picked.
      { PATH: process.env.PATH ?? '', HOME: home, PLATFORM_CONFIG_DIR: path.join(home, 'config'), PLATFORM_BASE_URL: scripted.url, PLATFORM_TOKEN: 'scripted' },
      { cwd, columns: 80 },
    );
    const { code, output } = await run.done;
    expect(code, output).toBe(0);
    expect(output).toContain('Saved report ../../../escaped-ok to escaped-ok.csv');
    expect(fs.readFileSync(path.join(cwd, 'escaped-ok.csv'), 'utf8')).toBe(body);
    expect(fs.existsSync(path.join(root, 'escaped-ok.csv'))).toBe(false);
    expect(fs.readdirSync(root).sort()).toEqual(['a']);
  } finally {
    scripted.close();
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(home, { recursive: true, force: true });
  }
});
