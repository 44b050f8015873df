// Accessible mode on a real terminal (test/helpers/pty.ts), as a screen reader gets it:
// nothing redrawn and the cursor never moved (no carriage return, no escape sequence at all),
// the progress of a bulk run as whole lines with a percentage, tables as `Header: value`
// records, and a prompt as numbered choices answered with a number.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { sandboxOnFreePort, tempDir, type TestUser } from '../helpers/cli.js';
import { cliEnv, runCli } from '../helpers/cli-process.js';
import { runOnPty } from '../helpers/pty.js';
import { signedInUser, SF, userToken } from '../helpers/rider.js';
import { scaled } from '../helpers/time-scale.js';

const ACCOUNT = 'a087eaf3-00b3-49c9-8706-c4ebfb2627fd';
const ROWS = 6;

let dir: string;
let sandbox: Sandbox;
let ids: string[];
beforeAll(async () => {
  dir = tempDir('platform-accessible-pty-');
  // Answers 150 ms late: a bulk run of one row a batch lasts long enough to report progress.
  sandbox = await sandboxOnFreePort({ campaigns: ROWS, latencyMs: 150 });
  const listed = await runCli(['ads', 'campaigns', 'list', '--account', ACCOUNT, '--all', '-o', 'ndjson'], cliEnv(dir, sandbox.url));
  ids = listed.stdout
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as { campaign_id: string }).campaign_id);
}, scaled(60_000));
afterAll(async () => {
  await sandbox.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The terminal's output once the pty's own line ends (\r\n, made \n by the helper) are set aside. */
function expectNoRedraws(output: string): void {
  expect(output, JSON.stringify(output)).not.toContain('\r');
  expect(output, JSON.stringify(output)).not.toContain('\u001b');
}

const envOf = (user: TestUser): Record<string, string> => ({
  PATH: process.env.PATH ?? '',
  HOME: user.configDir,
  PLATFORM_CONFIG_DIR: user.configDir,
  PLATFORM_BASE_URL: sandbox.url,
  ...(user.env as Record<string, string>),
});
const ride = ['rider', 'request', '--product', 'Economy', '--from', SF.downtown, '--to', SF.mission];

describe('accessible mode on a terminal', () => {
  it('a bulk run: progress as whole lines, results as records, no carriage return or escape sequence', { timeout: scaled(60_000) }, async () => {
    const csv = path.join(dir, 'rename.csv');
    fs.writeFileSync(csv, `campaign_id,name\n${ids.map((id, i) => `${id},Read aloud ${i}`).join('\n')}\n`);
    const args = ['ads', 'campaigns', 'patch', '--account', ACCOUNT, '--from-csv', csv, '--batch-size', '1', '--concurrency', '1'];
    // Colours not turned off: accessible output has none to show.
    const { code, output } = await runOnPty(args, { ...cliEnv(dir, sandbox.url), PLATFORM_ACCESSIBLE: '1' }, { columns: 80 }).done;
    expect(code, output).toBe(0);
    expectNoRedraws(output);
    expect(output).toMatch(/^Progress: \d+% \(\d of 6 rows, 0 failed, ETA (\d+s|--)\)$/m);
    expect(output).toContain(`Line: 2\nID: ${ids[0]}\nResult: ok\nError: (none)\nMessage: (none)\n\nLine: 3\n`);
    expect(output).toMatch(/^6 rows: 6 ok, 0 failed, 0 invalid, 0 skipped in /m);
  });

  it('a list with --accessible, and with the profile setting: records, a blank line between them', { timeout: scaled(60_000) }, async () => {
    const env = cliEnv(dir, sandbox.url);
    const flag = await runOnPty(['ads', 'campaigns', 'list', '--account', ACCOUNT, '--accessible'], env, { columns: 80 }).done;
    expect(flag.code, flag.output).toBe(0);
    expectNoRedraws(flag.output);
    const records = flag.output.trimEnd().split('\n\n');
    expect(records).toHaveLength(ROWS);
    for (const record of records) {
      expect(record).toMatch(/^(Campaign )?ID: [0-9a-f-]{36}\nName: .+/);
      // Each column on its own line, none cut: the whole name.
      for (const line of record.split('\n')) expect(line).toMatch(/^[A-Z][a-z A-Z]*: ./);
    }

    const set = await runCli(['config', 'set', 'accessible', 'true'], env);
    expect(set.code, set.stderr).toBe(0);
    try {
      const setting = await runOnPty(['ads', 'campaigns', 'list', '--account', ACCOUNT], env, { columns: 80 }).done;
      expect(setting.output).toBe(flag.output);
      // The environment says otherwise for one command.
      const off = await runOnPty(['ads', 'campaigns', 'list', '--account', ACCOUNT], { ...env, PLATFORM_ACCESSIBLE: '0', NO_COLOR: '1' }, { columns: 80 }).done;
      expect(off.output).toMatch(/^(CAMPAIGN )?ID +NAME/);
    } finally {
      await runCli(['config', 'unset', 'accessible'], env);
    }
  });

  it('a prompt: numbered choices read from a line', { timeout: scaled(60_000) }, async () => {
    const env = envOf(await signedInUser(sandbox, 'profile request'));
    const requests = () => sandbox.stats.requests.filter((r) => r.method === 'POST' && /\/requests$/.test(r.path)).length;
    const before = requests();
    const run = runOnPty([...ride, '--accessible'], env);
    await run.waitFor(/Type a number \(1-2; Enter for 2\): $/);
    run.type('3\n');
    await run.waitFor(/3 is not one of the choices\. Type a number \(1-2; Enter for 2\): $/);
    run.type('2\n');
    const { code, output } = await run.done;
    expect(code, output).toBe(1);
    expect(output).toContain('Request this ride?\n  1) Yes\n  2) No\n');
    expect(output).toContain('not requested: you declined');
    expectNoRedraws(output);
    expect(requests()).toBe(before);
  });

  it('a secret: typed unseen, read to Enter', { timeout: scaled(60_000) }, async () => {
    const token = await userToken(sandbox.url, 'profile');
    const run = runOnPty(['auth', 'login', '--with-token', '--profile', 'typed', '--accessible'], cliEnv(path.join(dir, 'typed'), sandbox.url));
    await run.waitFor(/Access token \(typing is not shown, Enter to end\): $/);
    // A typo taken back with Backspace.
    run.type(`${token.slice(0, 6)}X\u007f${token.slice(6)}\r`);
    const { code, output } = await run.done;
    // Accepted: the token reached the command whole, and was never shown.
    expect(code, output).toBe(0);
    expect(output).not.toContain(token.slice(0, 6));
    expectNoRedraws(output);
  });

  it('a wait: a line saying it works, no spinner', { timeout: scaled(60_000) }, async () => {
    const user = await signedInUser(sandbox, 'profile request request_receipt');
    const run = runOnPty([...ride, '--yes', '--wait'], { ...envOf(user), PLATFORM_ACCESSIBLE: 'true' });
    await run.waitFor(/^Ride [\w-]+: processing, ETA .* \(working\.\.\.\)\n.*accepted/m);
    run.type('\u0003');
    const { code, output } = await run.done;
    expect(code, output).toBe(130);
    expectNoRedraws(output);
  });

  it('a wait outside accessible mode with NO_COLOR: a spinner, drawn without colour', { timeout: scaled(60_000) }, async () => {
    const user = await signedInUser(sandbox, 'profile request request_receipt');
    // The rider's ride of the test before (stopped with Ctrl-C) is cancelled first: one ride at a time.
    const current = await runCli(['rider', 'request', 'current', '--json'], envOf(user));
    if (current.code === 0) await runCli(['rider', 'request', 'cancel', (JSON.parse(current.stdout) as { request_id: string }).request_id], envOf(user));
    const run = runOnPty([...ride, '--yes', '--wait'], { ...envOf(user), NO_COLOR: '1' });
    await run.waitFor(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Ride /); // the spinner is drawn
    run.type('\u0003');
    const { output } = await run.done;
    // Cursor moves and erases, never a colour (SGR: ESC [ ... m). Before, the spinner was cyan.
    expect(output).not.toMatch(/\u001b\[[\d;]*m/);
  });

  it('is explained by platform help accessibility', async () => {
    const help = await runCli(['help', 'accessibility'], cliEnv(dir, sandbox.url));
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toContain('PLATFORM_ACCESSIBLE=1');
    expect(help.stdout).toContain('platform config set accessible true');
  });
});
