// README's tour as a new user follows it, top to bottom, on a new config, as processes in a
// shell against `platform sandbox serve`: the short tour, the bulk step, the reports after it,
// the rider step, the delivery step; then the earlier commands still work (no later login
// took over the profile they use).
import { spawn, spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_DEMO_CLIENT_SECRET } from '../../src/schemas/sandbox.js';
import { tempDir } from '../helpers/cli.js';
import { scaled } from '../helpers/time-scale.js';

const root = path.resolve(import.meta.dirname, '../..');
const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');

/** The `sh` blocks of a README section, one command per entry (continuations joined). */
function commandsOf(heading: string, pick: (command: string) => boolean): string[] {
  const section = readme.slice(readme.indexOf(heading), readme.indexOf('\n## ', readme.indexOf(heading) + heading.length));
  const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
  return blocks
    .flatMap((block) => joinQuoted(block.replace(/\\\n\s*/g, '').split('\n')))
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line && pick(line));
}

/** Lines of one command: a single-quoted string that spans lines (`sh -c '...'`) stays one command. */
function joinQuoted(lines: string[]): string[] {
  const commands: string[] = [];
  let open = '';
  for (const line of lines) {
    const text = open ? `${open}\n${line}` : line;
    if ((text.match(/'/g) ?? []).length % 2 === 1) open = text;
    else {
      commands.push(text);
      open = '';
    }
  }
  if (open) commands.push(open);
  return commands;
}

let dir: string;
let env: Record<string, string>;
let sandbox: ReturnType<typeof spawn>;

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Runs one line in bash, `platform` being the built CLI; placeholders filled from `values`. */
function sh(line: string, values: Record<string, string> = {}): { status: number | null; stdout: string; stderr: string } {
  const command = Object.entries(values).reduce((text, [name, value]) => text.replace(new RegExp(`\\b${name}\\b`, 'g'), value), line);
  return spawnSync('bash', ['-c', command], { cwd: dir, env, encoding: 'utf8', timeout: scaled(30_000) });
}

beforeAll(async () => {
  dir = tempDir('platform-tour-');
  const bin = path.join(dir, 'bin');
  fs.mkdirSync(bin);
  fs.writeFileSync(path.join(bin, 'platform'), `#!/bin/sh\nexec "${process.execPath}" "${path.join(root, 'bin/platform.js')}" "$@"\n`, { mode: 0o755 });
  const port = String(await freePort());
  env = {
    PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`,
    HOME: dir,
    PLATFORM_CONFIG_DIR: path.join(dir, 'config'),
    PLATFORM_SANDBOX_PORT: port,
    // The browser sign-in of the rider step: a stand-in that clicks Allow.
    PLATFORM_BROWSER: `${process.execPath} ${path.join(root, 'test/helpers/browser-bot.mjs')}`,
    NO_COLOR: '1',
  };
  sandbox = spawn(process.execPath, [path.join(root, 'bin/platform.js'), 'sandbox', 'serve', '--time-scale', '600'], {
    env,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  await new Promise<void>((resolve, reject) => {
    sandbox.stdout!.on('data', (c: Buffer) => /listening on/.test(c.toString()) && resolve());
    sandbox.once('exit', (code) => reject(new Error(`sandbox exited ${code}`)));
  });
}, scaled(30_000));
afterAll(async () => {
  // Its folder goes once it has exited: on Node 22+ it writes its compile cache there as it ends.
  const exited = sandbox.exitCode !== null || sandbox.signalCode !== null ? Promise.resolve() : new Promise((resolve) => sandbox.once('exit', resolve));
  sandbox.kill('SIGINT');
  await exited;
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("README's tour, top to bottom", { timeout: scaled(180_000) }, () => {
  it('every command works in order on a new config: the tour, the bulk step, the reports after it, the rider and delivery steps; the earlier ones still work after those logins', () => {
    const tour = commandsOf('## A short tour', (line) => line.startsWith('platform ') && !line.startsWith('platform sandbox serve'));
    expect(tour.length).toBeGreaterThanOrEqual(10);
    const account = (JSON.parse(sh('platform ads accounts list --json').stdout) as Array<{ ad_account_id: string }>)[0]!.ad_account_id;
    const store = (JSON.parse(sh(`platform ads stores list --account ${account} --json`).stdout) as Array<{ id: string }>)[0]!.id;
    const values: Record<string, string> = { ACCOUNT: account, STORE: store };
    for (const line of tour) {
      if (line.includes('--from-json changes.ndjson'))
        fs.writeFileSync(path.join(dir, 'changes.ndjson'), `${JSON.stringify({ campaign_id: values.ID, name: 'Spring promo, renamed' })}\n`);
      const result = sh(line, values);
      expect(result.status, `${line}\n${result.stderr}`).toBe(0);
      // What later lines refer to: the campaign, ad group and ad the tour creates.
      if (line.includes('campaigns create')) values.ID = values.CAMPAIGN = (JSON.parse(result.stdout) as Array<{ id: string }>)[0]!.id;
      if (line.includes('ad-groups create')) values.AD_GROUP = (JSON.parse(result.stdout) as Array<{ id: string }>)[0]!.id;
    }

    // The bulk step (it pauses every active campaign), then the reports: a report of the past
    // still has its rows after the campaigns were paused.
    const bulk = commandsOf('## Bulk updates from CSV and JSON', (line) => line.startsWith('platform '));
    expect(bulk.some((line) => line.includes('--from-csv -'))).toBe(true);
    for (const line of bulk) {
      const result = sh(line, values);
      expect(result.status, `${line}\n${result.stderr}`).toBe(0);
    }
    expect(fs.readFileSync(path.join(dir, 'results.csv'), 'utf8')).toMatch(/,ok,/);
    const reports = commandsOf('## Reports', (line) => line.startsWith('platform '));
    expect(reports.some((line) => line.includes('--out january-week.csv'))).toBe(true);
    for (const line of reports) {
      const result = sh(line, values);
      expect(result.status, `${line}\n${result.stderr}`).toBe(0);
    }
    const week = fs.readFileSync(path.join(dir, 'january-week.csv'), 'utf8').trim().split('\n');
    expect(week[0]).toMatch(/^day_of,campaign_id,campaign_name,impressions/);
    expect(week.length, 'the report of January has data rows after the bulk step paused the campaigns').toBeGreaterThan(1);

    const rider = commandsOf(
      '## Rider',
      (line) => /^(platform (auth login|rider|delivery)|export|unset|[A-Z_]+=\$\(platform )/.test(line) || line.startsWith('PLATFORM_CLIENT_SECRET='),
    );
    expect(rider).toContain('platform auth login --profile rider --scopes "profile request request_receipt"');
    // One shell for the rider block, stopping at the first failure: `export PLATFORM_PROFILE=rider`
    // holds for the lines after it, and a failed login must not hide behind the last line's status.
    const riderScript = ['set -e', ...rider.filter((line) => !line.includes('delivery'))].join('\n');
    const riderRun = sh(riderScript);
    expect(riderRun.status, riderRun.stderr).toBe(0);
    expect(riderRun.stderr).toMatch(/Signed in to profile rider/);
    const delivery = rider.filter((l) => l.startsWith('PLATFORM_CLIENT_SECRET=') || l.startsWith('platform delivery'));
    expect(delivery).toHaveLength(2);
    for (const line of delivery) {
      const result = sh(line);
      expect(result.status, `${line}\n${result.stderr}`).toBe(0);
    }

    // The first commands of the tour still work, on the profile they used.
    for (const line of tour.slice(0, 3)) expect(sh(line, values).status, line).toBe(0);
    const status = JSON.parse(sh('platform auth status --json').stdout) as Array<{ profile: string; active: boolean }>;
    expect(status.find((p) => p.active)?.profile).toBe('local');
    // And a delivery signed by the sandbox still verifies with the default profile's secret.
    const body = path.join(dir, 'body.json');
    fs.writeFileSync(body, '{"event_id":"e1","event_type":"requests.status_changed"}');
    const signature = createHmac('sha256', SANDBOX_DEMO_CLIENT_SECRET).update(fs.readFileSync(body)).digest('hex');
    expect(sh(`platform webhooks verify body.json --signature ${signature}`).status).toBe(0);
  });
});
