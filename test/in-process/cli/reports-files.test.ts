// Report files lose nothing: a planted symlink is never written through, a short body never
// takes the file's name, an existing file is replaced only with --force, and a failed
// download leaves no temporary file. Against the real sandbox, and a scripted report server
// where the answer must be hostile (a short body, a file that appears mid-download).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECORD_DAYS } from '../../../src/commands/ads/reports/record.js';
import { safeFileName } from '../../../src/commands/ads/reports/save.js';
import { platformPaths } from '../../../src/config/paths.js';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { sandboxWithUser, tempDir, type TestUser } from '../../helpers/cli.js';
import { scriptedReports } from '../../helpers/scripted-reports.js';

const ACCOUNT = 'a087eaf3-00b3-49c9-8706-c4ebfb2627fd';

let sandbox: Sandbox;
let user: TestUser;
let account: string;
/** A COMPLETED report of the sandbox. */
let reportId: string;

beforeAll(async () => {
  ({ sandbox, user, account } = await sandboxWithUser({ timeScale: 1000 }));
  const created = await user.run([
    ...['ads', 'reports', 'create', '--account', account, '--type', 'CAMPAIGN_PERFORMANCE', '--columns', 'campaign_id,clicks'],
    ...['--since', '2025-01-13', '--until', '2025-01-20'],
  ]);
  if (created.code !== 0) throw new Error(created.stderr);
  reportId = created.stdout.trim();
  const got = await user.run(['ads', 'reports', 'download', reportId, '--account', account, '--wait', '--out', '-']);
  if (got.code !== 0) throw new Error(got.stderr);
});
afterAll(() => sandbox.close());

/** Temporary download files left in a folder. */
const partials = (dir: string) => fs.readdirSync(dir).filter((name) => name.endsWith('.part'));

describe('the --out file', () => {
  it('is not written through a symlink planted where the temporary file goes; the link target is untouched', async () => {
    const dir = tempDir('platform-reports-files-');
    const victim = path.join(dir, 'bashrc');
    fs.writeFileSync(victim, 'export KEEP=1\n');
    // Both the name the issue gives and the one older versions wrote to.
    fs.symlinkSync(victim, path.join(dir, 'r.csv.part'));
    fs.symlinkSync(victim, path.join(dir, '.r.csv.part'));
    const out = path.join(dir, 'r.csv');
    const result = await user.run(['ads', 'reports', 'download', reportId, '--account', account, '--out', out]);
    expect(result.code, result.stderr).toBe(0);
    expect(fs.readFileSync(victim, 'utf8')).toBe('export KEEP=1\n');
    expect(fs.lstatSync(out).isFile()).toBe(true);
    expect(fs.readFileSync(out, 'utf8').split('\n')[0]).toBe('day_of,campaign_id,clicks');
    expect(fs.readlinkSync(path.join(dir, '.r.csv.part'))).toBe(victim);
    expect(partials(dir).sort()).toEqual(['.r.csv.part', 'r.csv.part']);
  });

  it('that exists is left alone without --force: exit 2 naming the file and --force, nothing downloaded', async () => {
    const dir = tempDir('platform-reports-files-');
    const out = path.join(dir, 'week.csv');
    fs.writeFileSync(out, 'precious\n');
    const downloads = sandbox.downloadRequests.length;
    const result = await user.run(['ads', 'reports', 'download', reportId, '--account', account, '--out', out]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe(`${out} already exists; pass --force to replace it, or --out another file`);
    expect(fs.readFileSync(out, 'utf8')).toBe('precious\n');
    expect(sandbox.downloadRequests.length).toBe(downloads);

    const forced = await user.run(['ads', 'reports', 'download', reportId, '--account', account, '--out', out, '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(fs.readFileSync(out, 'utf8').split('\n')[0]).toBe('day_of,campaign_id,clicks');
    expect(partials(dir)).toEqual([]);
  });

  it('that exists stops `reports run` before the job is created', async () => {
    const dir = tempDir('platform-reports-files-');
    const out = path.join(dir, 'run.csv');
    fs.writeFileSync(out, 'precious\n');
    const before = sandbox.stats.requests.length;
    const result = await user.run([
      ...['ads', 'reports', 'run', '--account', account, '--type', 'CAMPAIGN_PERFORMANCE', '--columns', 'campaign_id,clicks'],
      ...['--since', '2025-01-13', '--until', '2025-01-20', '--out', out],
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${out} already exists; pass --force to replace it`);
    expect(sandbox.stats.requests.length).toBe(before);
    expect(fs.readFileSync(out, 'utf8')).toBe('precious\n');
  });
});

describe('a download that is not whole', () => {
  const BODY = 'campaign_id,clicks\nc1,5\n';

  it('a short body (fewer bytes than file_size) is not saved: exit 1, no file, no temporary file', async () => {
    const scripted = await scriptedReports({ id: 'report_short', body: BODY, fileSize: Buffer.byteLength(BODY) + 100 });
    try {
      const dir = tempDir('platform-reports-files-');
      const out = path.join(dir, 'short.csv');
      const result = await scripted.user.run(['ads', 'reports', 'download', 'report_short', '--account', ACCOUNT, '--out', out]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        new RegExp(`received ${Buffer.byteLength(BODY)} bytes, the API announced ${Buffer.byteLength(BODY) + 100}; nothing was saved`),
      );
      expect(fs.existsSync(out)).toBe(false);
      expect(partials(dir)).toEqual([]);
    } finally {
      scripted.close();
    }
  });

  it('a short body leaves the good file under --force as it was', async () => {
    const scripted = await scriptedReports({ id: 'report_short', body: BODY, fileSize: Buffer.byteLength(BODY) + 100 });
    try {
      const dir = tempDir('platform-reports-files-');
      const out = path.join(dir, 'good.csv');
      fs.writeFileSync(out, 'the good report\n');
      const result = await scripted.user.run(['ads', 'reports', 'download', 'report_short', '--account', ACCOUNT, '--out', out, '--force']);
      expect(result.code).toBe(1);
      expect(fs.readFileSync(out, 'utf8')).toBe('the good report\n');
      expect(partials(dir)).toEqual([]);
    } finally {
      scripted.close();
    }
  });

  it('a file created at --out during the download is not replaced without --force', async () => {
    const dir = tempDir('platform-reports-files-');
    const out = path.join(dir, 'raced.csv');
    const scripted = await scriptedReports({
      id: 'report_raced',
      body: BODY,
      fileSize: Buffer.byteLength(BODY),
      onDownload: () => fs.writeFileSync(out, 'written meanwhile\n'),
    });
    try {
      const result = await scripted.user.run(['ads', 'reports', 'download', 'report_raced', '--account', ACCOUNT, '--out', out]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`${out} already exists; pass --force`);
      expect(fs.readFileSync(out, 'utf8')).toBe('written meanwhile\n');
      expect(partials(dir)).toEqual([]);
    } finally {
      scripted.close();
    }
  });
});

describe('default file names from report ids', () => {
  it.each([
    ['report_0123456789abcdef01234567', 'report_0123456789abcdef01234567'],
    ['../../../escaped-ok', 'escaped-ok'],
    ['..\\..\\windows', 'windows'],
    ['a/b', 'a_b'],
    ['bell\u0007name', 'bell_name'],
    ['..', 'report'],
    ['', 'report'],
    ['-rf', 'rf'],
  ])('%j -> %j', (id, name) => {
    expect(safeFileName(id)).toBe(name);
  });
});

describe('the records of report jobs in the state folder', () => {
  it('are pruned when a new one is written: those older than 90 days go, the others stay', async () => {
    const folder = path.join(platformPaths({ HOME: user.configDir }, user.configDir).state, 'reports');
    const day = 24 * 3600 * 1000;
    const aged = (name: string, days: number) => {
      const file = path.join(folder, name);
      fs.writeFileSync(file, '{}\n');
      const when = new Date(Date.now() - days * day);
      fs.utimesSync(file, when, when);
      return file;
    };
    // The folder exists: the report of beforeAll was noted there.
    const old = aged('report_old.json', RECORD_DAYS + 1);
    const recent = aged('report_recent.json', RECORD_DAYS - 1);
    const created = await user.run([
      ...['ads', 'reports', 'create', '--account', account, '--type', 'CAMPAIGN_PERFORMANCE', '--columns', 'campaign_id,clicks'],
      ...['--since', '2025-01-13', '--until', '2025-01-20'],
    ]);
    expect(created.code, created.stderr).toBe(0);
    expect(fs.existsSync(old)).toBe(false);
    expect(fs.existsSync(recent)).toBe(true);
    expect(fs.existsSync(path.join(folder, `${safeFileName(created.stdout.trim())}.json`))).toBe(true);
    expect(fs.existsSync(path.join(folder, `${safeFileName(reportId)}.json`))).toBe(true);
  });
});
