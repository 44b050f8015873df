// Every command that prints a table, on a real pseudo-terminal 60, 80 and 120 columns wide:
// nothing of what people read is lost. Each screen, as the terminal shows it (a spinner's frames
// erased: test/helpers/terminal-screen.ts), is read back (test/helpers/table-screen.ts) and
// compared with the same command's `-o wide` table, which is never fitted: no header is cut, a
// cell's lines put back together are its whole value (a name keeps its last word, a charge its
// amount), a value of up to 12 characters and an id stay on one line, no line is wider than
// the terminal.
// The commands run at once, a few at a time, while the sandbox is up.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { SANDBOX_DELIVERY_CLIENT_ID, SANDBOX_DELIVERY_CLIENT_SECRET } from '../../src/sandbox/clients.js';
import { firstAccount, sandboxOnFreePort, tempDir, TestUser } from '../helpers/cli.js';
import { runOnPty } from '../helpers/pty.js';
import { PARIS, signedInUser, SF } from '../helpers/rider.js';
import { api } from '../helpers/sandbox.js';
import { readTable } from '../helpers/table-screen.js';
import { shownOnTerminal } from '../helpers/terminal-screen.js';
import { scaled } from '../helpers/time-scale.js';

const WIDTHS = [60, 80, 120] as const;
/** Commands on the pseudo-terminal at once: enough to overlap the waits, few enough for 2 busy cores. */
const AT_ONCE = 6;
const SHORT = 12;
const ID_HEADER = /(^|\s)ID$|^GTIN$|^RUN$/;
/** The hint after a first page, on stderr. */
const MORE = /^More \w+: add --all/;

interface Case {
  name: string;
  user: TestUser;
  args: string[];
  /** Headers whose values change from one run to the next (a new quote id each time): only their shape is checked. */
  varies?: string[];
  /** Lines on stderr around the table. */
  chatter?: RegExp;
  /** Headers of lists ("Base Fare $2.20, Time $2.06"): an item is broken only when wider than its cell's lines. */
  lists?: string[];
}

interface Screen {
  code: number;
  output: string;
}

let sandbox: Sandbox;
let receiver: http.Server;
let cases: Case[] = [];
const screens = new Map<string, Promise<Screen>>();
const wide = new Map<string, Promise<string>>();

const envOf = (user: TestUser): Record<string, string> => ({
  PATH: process.env.PATH ?? '',
  HOME: user.configDir,
  PLATFORM_CONFIG_DIR: user.configDir,
  PLATFORM_BASE_URL: sandbox.url,
  NO_COLOR: '1',
  ...(user.env as Record<string, string>),
});

/** Runs `jobs` with at most AT_ONCE going at a time; each job's promise settles on its own. */
function pool<T>(jobs: Array<() => Promise<T>>): Array<Promise<T>> {
  let running = 0;
  const waiting: Array<() => void> = [];
  return jobs.map(async (job) => {
    if (running >= AT_ONCE) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await job();
    } finally {
      running--;
      waiting.shift()?.();
    }
  });
}

beforeAll(async () => {
  sandbox = await sandboxOnFreePort();
  receiver = http.createServer((_req, res) => res.end('ok'));
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const ads = new TestUser(sandbox);
  const account = (await firstAccount(ads)).ad_account_id;
  const campaigns = await ads.json<Array<{ campaign_id: string; ad_groups: Array<{ ad_group_id: string }> }>>([
    'ads',
    'campaigns',
    'list',
    '--account',
    account,
  ]);
  const campaign = campaigns.find((c) => c.ad_groups.length > 0)!;
  // A run for `runs list` and `runs show`, with names long enough to wrap.
  const csv = path.join(tempDir(), 'campaigns.csv');
  fs.writeFileSync(csv, 'name,budget,currency,budget_unit,status\nSummer lunch special for families downtown,12.5,USD,daily,active\nB,2,USD,weekly,paused\n');
  const created = await ads.run(['ads', 'campaigns', 'create', '--account', account, '--from-csv', csv, '--json']);
  expect(created.code, created.stderr).toBe(0);
  const runs = await ads.json<Array<{ run: string }>>(['ads', 'runs', 'list']);
  // One rider free to ask for estimates; one (the seeded demo user, the one who may ride) with
  // past trips for `rider history` and their receipts, then on a trip (`request get`). One ride
  // at a time, as a rider has; the sandbox's own control completes each (its clock would take
  // minutes). `request get ID --wait` on a completed ride prints its receipt at once.
  const [rider, onTrip] = await Promise.all([signedInUser(sandbox, 'profile request', 'unverified'), signedInUser(sandbox, 'profile request request_receipt')]);
  const takeRide = async (args: string[], end: 'completed' | 'cancel') => {
    const { request_id: id } = await onTrip.json<{ request_id: string }>(['rider', 'request', ...args, '--yes', '--accept-surge']);
    if (end === 'cancel') expect((await onTrip.run(['rider', 'request', 'cancel', id])).code).toBe(0);
    else expect((await api(sandbox.url, undefined, 'PUT', `/v1.2/sandbox/requests/${id}`, { status: 'completed' })).status).toBe(204);
    return id;
  };
  const plainTrip = await takeRide(['--product', 'Economy', '--from', SF.downtown, '--to', SF.mission], 'completed');
  // Under SoMa's surge: the widest receipt, with a surge charge.
  const surgeTrip = await takeRide(['--product', 'Black', '--from', SF.soma, '--to', SF.airport], 'completed');
  const parisTrip = await takeRide(['--product', 'Economy', '--from', PARIS.louvre, '--to', PARIS.eiffel], 'completed');
  await takeRide(['--product', 'Economy', '--from', SF.mission, '--to', SF.downtown], 'cancel');
  const ride = await onTrip.json<{ request_id: string }>(['rider', 'request', '--product', 'Economy', '--from', SF.downtown, '--to', SF.mission, '--yes']);
  // `request get --wait` says how the ride ended, then prints the receipt.
  const receipt = { chatter: /^Ride [\w-]+: completed/, lists: ['CHARGES', 'SURGE'] };
  const eats = new TestUser(sandbox, { PLATFORM_CLIENT_SECRET: SANDBOX_DELIVERY_CLIENT_SECRET });
  const login = await eats.run([
    'auth',
    'login',
    '--client-credentials',
    '--profile',
    'eats',
    '--client-id',
    SANDBOX_DELIVERY_CLIENT_ID,
    '--scopes',
    'eats.deliveries',
  ]);
  expect(login.code, login.stderr).toBe(0);
  const trip = ['--from', SF.downtown, '--to', SF.mission];
  const quote = ['--customer', '7b6f1b36-3a0e-4d5b-9a3e-2f1c9d3e8a11', '--pickup', '1 Market St, San Francisco', '--dropoff', '500 Castro St, San Francisco'];
  cases = [
    { name: 'ads accounts list', user: ads, args: ['ads', 'accounts', 'list'] },
    { name: 'ads stores list', user: ads, args: ['ads', 'stores', 'list', '--account', account] },
    { name: 'ads campaigns list', user: ads, args: ['ads', 'campaigns', 'list', '--account', account] },
    { name: 'ads ad-groups list', user: ads, args: ['ads', 'ad-groups', 'list', '--account', account, '--campaign', campaign.campaign_id] },
    {
      name: 'ads ads list',
      user: ads,
      args: ['ads', 'ads', 'list', '--account', account, '--campaign', campaign.campaign_id, '--ad-group', campaign.ad_groups[0]!.ad_group_id],
    },
    { name: 'ads products list', user: ads, args: ['ads', 'products', 'list', '--account', account] },
    { name: 'ads reports types', user: ads, args: ['ads', 'reports', 'types'] },
    { name: 'ads reports types --type', user: ads, args: ['ads', 'reports', 'types', '--type', 'KEYWORD_PERFORMANCE'] },
    {
      name: 'ads reports sync',
      user: ads,
      args: [
        'ads',
        'reports',
        'sync',
        '--account',
        account,
        '--type',
        'CAMPAIGN_PERFORMANCE',
        '--columns',
        'day_of,campaign_id,campaign_name,impressions,clicks,ad_spend',
        // A fixed range: with --last, a run either side of midnight UTC (the table, then the JSON it is checked against) saw other days.
        '--since',
        '2025-01-13',
        '--until',
        '2025-01-15',
      ],
      chatter: /^CAMPAIGN_PERFORMANCE \(DAILY\): /,
    },
    { name: 'ads runs list', user: ads, args: ['ads', 'runs', 'list'] },
    { name: 'ads runs show', user: ads, args: ['ads', 'runs', 'show', runs.at(-1)!.run] },
    {
      name: 'ads campaigns create --dry-run',
      user: ads,
      args: ['ads', 'campaigns', 'create', '--account', account, '--from-csv', csv, '--dry-run'],
      chatter: /^(\d+ rows: |Journal: )/,
    },
    { name: 'auth status', user: rider, args: ['auth', 'status'], chatter: /^(Config: |Not checked )/ },
    { name: 'config list', user: ads, args: ['config', 'list'] },
    { name: 'rider products', user: rider, args: ['rider', 'products', '--at', SF.downtown] },
    { name: 'rider estimate price', user: rider, args: ['rider', 'estimate', 'price', ...trip] },
    { name: 'rider estimate time', user: rider, args: ['rider', 'estimate', 'time', '--from', SF.downtown], varies: ['ETA'] },
    { name: 'rider estimate ride', user: rider, args: ['rider', 'estimate', 'ride', '--product', 'Economy', ...trip], varies: ['FARE ID', 'PICKUP'] },
    { name: 'rider me', user: rider, args: ['rider', 'me'] },
    {
      name: 'rider request get',
      user: onTrip,
      args: ['rider', 'request', 'get', ride.request_id],
      varies: ['STATUS', 'ETA', 'SURGE', 'DRIVER', 'VEHICLE'],
    },
    // The newest trip is the current one, its status moving on with the clock.
    { name: 'rider history', user: onTrip, args: ['rider', 'history'], varies: ['STATUS'] },
    { name: 'rider receipt', user: onTrip, args: ['rider', 'request', 'get', plainTrip, '--wait'], ...receipt },
    { name: 'rider receipt with surge', user: onTrip, args: ['rider', 'request', 'get', surgeTrip, '--wait'], ...receipt },
    { name: 'rider receipt in EUR', user: onTrip, args: ['rider', 'request', 'get', parisTrip, '--wait'], ...receipt },
    {
      name: 'delivery quote',
      user: eats,
      args: ['delivery', 'quote', '--profile', 'eats', ...quote],
      varies: ['QUOTE ID', 'FEE', 'DROPOFF ETA', 'EXPIRES'],
    },
  ];
  // The reference: the same table at full width, in-process (a cheap run).
  for (const c of cases) {
    const reference = c.user.run([...c.args, '-o', 'wide'], { tty: true, env: { NO_COLOR: '1' } }).then((r) => {
      if (r.code !== 0) throw new Error(`${c.name} -o wide exited ${r.code}: ${r.stderr}`);
      return r.stdout;
    });
    // A failure is the failure of its test, which awaits it; not an unhandled rejection before.
    reference.catch(() => undefined);
    wide.set(c.name, reference);
  }
  const jobs = cases.flatMap((c) => WIDTHS.map((columns) => ({ key: `${c.name}@${columns}`, job: () => runOnPty(c.args, envOf(c.user), { columns }).done })));
  pool(jobs.map((j) => j.job)).forEach((screen, i) => screens.set(jobs[i]!.key, screen));
}, scaled(60_000));

afterAll(async () => {
  await Promise.allSettled([...screens.values()]);
  receiver?.close();
  await sandbox?.close();
});

const squeezed = (text: string) => text.replace(/\s+/g, '');

describe.each(WIDTHS)('tables on a %i-column terminal', (columns) => {
  it.each([
    'ads accounts list',
    'ads stores list',
    'ads campaigns list',
    'ads ad-groups list',
    'ads ads list',
    'ads products list',
    'ads reports types',
    'ads reports types --type',
    'ads reports sync',
    'ads runs list',
    'ads runs show',
    'ads campaigns create --dry-run',
    'auth status',
    'config list',
    'rider products',
    'rider estimate price',
    'rider estimate time',
    'rider estimate ride',
    'rider me',
    'rider request get',
    'rider history',
    'rider receipt',
    'rider receipt with surge',
    'rider receipt in EUR',
    'delivery quote',
  ])('%s cuts no header, no short value, no id and no name', { timeout: scaled(60_000) }, async (name) => {
    const c = cases.find((x) => x.name === name)!;
    const { code, output: played } = await screens.get(`${name}@${columns}`)!;
    // What the terminal shows, its cursor's moves and erasures carried out, as a person sees it.
    const output = shownOnTerminal(played, columns);
    expect(code, output).toBe(0);
    // A ride already over has nothing to wait for: no spinner (it hides the cursor) flashes first.
    if (c.args.includes('--wait')) expect(played).not.toContain('\x1b[?25l');
    expect(output, 'an ellipsis: something was cut').not.toContain('…');
    const table = output
      .split('\n')
      .filter((line) => !c.chatter?.test(line) && !MORE.test(line))
      .join('\n');
    const shown = readTable(table);
    const full = readTable(await wide.get(name)!);
    expect(shown.width, table).toBeLessThanOrEqual(columns);
    // Every header whole, in the full table's order; the first (what a row is) always shown.
    expect(
      shown.headers.every((h) => full.headers.includes(h)),
      table,
    ).toBe(true);
    expect(shown.headers.map((h) => full.headers.indexOf(h))).toEqual([...shown.headers.map((h) => full.headers.indexOf(h))].sort((a, b) => a - b));
    expect(shown.headers[0]).toBe(full.headers[0]);
    expect(shown.rows.length, table).toBe(full.rows.length);
    shown.rows.forEach((row, r) => {
      for (const header of shown.headers) {
        const lines = row[header]!;
        const value = full.rows[r]![header]!.join(' ');
        const where = `${header} of row ${r + 1}:\n${table}`;
        if (ID_HEADER.test(header)) expect(lines.length, where).toBeLessThanOrEqual(1);
        if (c.varies?.includes(header)) {
          if (lines.join(' ').length <= SHORT) expect(lines.length, where).toBeLessThanOrEqual(1);
          continue;
        }
        // All of it, in order (a word too long for its cell may be broken across lines).
        expect(squeezed(lines.join('')), where).toBe(squeezed(value));
        if (value.length <= SHORT) expect(lines, where).toEqual(value ? [value] : []);
        // A name keeps the word that tells it from the next ("Campaign 001 sushi"), on its own line if need be.
        if (header === 'NAME' && value !== '') expect(lines.join(' ').split(' '), where).toContain(value.split(' ').at(-1));
        // A charge keeps its name and amount together ("Booking fee $2.55") where its cell is wide enough.
        if (c.lists?.includes(header)) {
          const widest = Math.max(0, ...lines.map((line) => line.length));
          const items = value.split(', ').map((item, i, all) => (i < all.length - 1 ? `${item},` : item));
          for (const item of items.filter((x) => x !== '' && x.length <= widest))
            expect(
              lines.some((line) => line.includes(item)),
              `"${item}" whole, ${where}`,
            ).toBe(true);
        }
      }
    });
  });

  it('webhooks trigger prints its line whole', { timeout: scaled(30_000) }, async () => {
    const user = new TestUser(sandbox, { PLATFORM_WEBHOOK_SECRET: 'tables-secret' });
    const to = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const args = ['webhooks', 'trigger', 'requests.status_changed', '--to', to, '--resource-id', 'ride-1', '--status', 'in_progress'];
    const { code, output } = await runOnPty(args, envOf(user), { columns }).done;
    expect(code, output).toBe(0);
    expect(output).toMatch(/^[0-9a-f-]{36} {2}requests\.status_changed {2}delivered {2}HTTP 200 {2}1 attempt$/m);
  });
});
