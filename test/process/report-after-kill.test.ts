// A report download killed (SIGKILL) part-way leaves its hidden temporary file beside --out:
// nothing of the report takes the file's name, and the next download to that name removes
// what the killed one left (a part whose writer is gone), keeping a part a live writer holds.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { cliEnv, runCli } from '../helpers/cli-process.js';
import { scriptedReports } from '../helpers/scripted-reports.js';
import { scaled } from '../helpers/time-scale.js';

const ACCOUNT = 'a087eaf3-00b3-49c9-8706-c4ebfb2627fd';
const ID = 'report_0123456789abcdef01234567';
const body = `campaign_id,clicks\n${Array.from({ length: 300_000 }, (_, i) => `c${i},${i}`).join('\n')}\n`;
const dir = tempDir('platform-report-kill-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const parts = () => (fs.existsSync(dir) ? fs.readdirSync(dir).filter((name) => name.endsWith('.part')) : []);
const download = () => ['ads', 'reports', 'download', ID, '--account', ACCOUNT, '--out', path.join(dir, 'week.csv')];
const env = (url: string) => ({ ...cliEnv(dir, url), PLATFORM_TOKEN: 'scripted-token' });

describe('a report download killed part-way', () => {
  it('leaves no file under its name, and the next download removes its temporary file', { timeout: scaled(60_000) }, async () => {
    const stalling = await scriptedReports({ id: ID, body, fileSize: Buffer.byteLength(body), stall: true });
    // Killed once its temporary file holds some of the body.
    const killed = await runCli(download(), env(stalling.url), () => parts().some((name) => fs.statSync(path.join(dir, name)).size > 0));
    stalling.close();
    expect(killed.signal).toBe('SIGKILL');
    expect(fs.existsSync(path.join(dir, 'week.csv'))).toBe(false);
    const [left] = parts();
    expect(left).toMatch(/^\.week\.csv\.\d+-[0-9a-f]{12}\.part$/);

    // A part of a writer still going is its own: kept.
    // It lives until killed, however long the test takes.
    const live = spawn(process.execPath, ['-e', 'setInterval(() => {}, 60_000)']);
    const held = `.week.csv.${live.pid}-0123456789ab.part`;
    fs.writeFileSync(path.join(dir, held), 'being written');
    try {
      const serving = await scriptedReports({ id: ID, body, fileSize: Buffer.byteLength(body) });
      const saved = await runCli(download(), env(serving.url));
      serving.close();
      expect(saved.code, saved.stderr).toBe(0);
      expect(fs.readFileSync(path.join(dir, 'week.csv'), 'utf8')).toBe(body);
      expect(parts()).toEqual([held]);
    } finally {
      live.kill();
    }
  });
});
