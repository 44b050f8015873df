// A second arbiter besides our sandbox: every ads command runs against Prism's dynamic mock
// of the public OpenAPI (test/contract/ads-openapi.json, with the contract gate's overlays),
// which answers with any response the OpenAPI allows: unknown keys, any string where the
// schema says string (an amount_e5 of words, a URL that is not one), a COMPLETED report with
// a failure_result... One Prism per seed (its --seed makes every answer reproducible; a
// failure names the seed and the command). No command may crash: exit 0, 1 or 2; no stack
// trace or raw TypeError; a failure is one line; `-o json` of a list is the response's items
// untouched.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { tempDir, TestUser } from '../helpers/cli.js';
import { applyOverlays } from '../helpers/contract/overlays.js';
import { scaled } from '../helpers/time-scale.js';
import { waitFor } from '../helpers/wait.js';

const SEEDS = [1, 2, 3, 4];
const PRISM = path.resolve('node_modules/.bin/prism');
const dir = tempDir('platform-prism-');

interface Mock {
  seed: number;
  url: string;
  child: ChildProcess;
}
const mocks: Mock[] = [];

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function startPrism(seed: number, document: string): Promise<Mock> {
  const port = await freePort();
  const child = spawn(
    PRISM,
    ['mock', '--dynamic', '--seed', String(seed), '--port', String(port), '--host', '127.0.0.1', '--verboseLevel', 'error', document],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const answers = async () => {
    if (child.exitCode !== null) throw new Error(`prism (seed ${seed}) exited ${child.exitCode}: ${errors}`);
    return fetch(`${url}/v1/ads/ad-accounts`, { headers: { authorization: 'Bearer t' } }).then(
      () => true,
      () => false,
    );
  };
  try {
    await waitFor(answers, { what: `prism (seed ${seed}) to answer`, timeoutMs: 20_000, intervalMs: 100, state: () => errors });
  } catch (error) {
    child.kill();
    throw error;
  }
  return { seed, url, child };
}

beforeAll(async () => {
  const document = path.join(dir, 'ads-openapi.json');
  const published = JSON.parse(fs.readFileSync('test/contract/ads-openapi.json', 'utf8')) as Parameters<typeof applyOverlays>[0];
  fs.writeFileSync(document, JSON.stringify(applyOverlays(published)));
  mocks.push(...(await Promise.all(SEEDS.map((seed) => startPrism(seed, document)))));
}, scaled(60_000));

afterAll(() => {
  for (const mock of mocks) mock.child.kill();
});

const A = 'acct-1';
const C = 'camp-1';
const G = 'group-1';

/** Every ads command, as a user would run it, and (for lists) the operation whose items -o json shows. */
const COMMANDS: Array<{ args: string[]; list?: { path: string; key: string }; reads?: string }> = [
  { args: ['ads', 'accounts', 'list'], list: { path: '/v1/ads/ad-accounts', key: 'ad_accounts' } },
  { args: ['ads', 'stores', 'list', '--account', A], list: { path: `/v1/ads/${A}/stores`, key: 'stores' } },
  { args: ['ads', 'products', 'list', '--account', A], list: { path: `/v1/ads/${A}/products`, key: 'products' } },
  { args: ['ads', 'campaigns', 'list', '--account', A], list: { path: `/v1/ads/${A}/campaigns`, key: 'campaigns' } },
  { args: ['ads', 'campaigns', 'view', '--account', A, C], reads: `/v1/ads/${A}/campaigns` },
  { args: ['ads', 'campaigns', 'create', '--account', A, '--name', 'Prism'] },
  { args: ['ads', 'campaigns', 'patch', '--account', A, '--campaign-id', C, '--name', 'Prism 2'] },
  { args: ['ads', 'campaigns', 'patch', '--account', A, '--campaign-id', C, '--budget', '12.50'] },
  { args: ['ads', 'ad-groups', 'list', '--account', A, '--campaign', C], list: { path: `/v1/ads/${A}/campaigns/${C}/ad-groups`, key: 'ad_groups' } },
  { args: ['ads', 'ad-groups', 'view', '--account', A, '--campaign', C, G], reads: `/v1/ads/${A}/campaigns/${C}/ad-groups` },
  {
    args: ['ads', 'ad-groups', 'create', '--account', A, '--campaign', C, '--name', 'Prism', '--start', '2026-12-01T00:00:00Z', '--store-ids', 'store-1'],
  },
  { args: ['ads', 'ad-groups', 'patch', '--account', A, '--campaign', C, '--ad-group-id', G, '--keywords', 'pizza,pasta'] },
  { args: ['ads', 'ad-groups', 'patch', '--account', A, '--campaign', C, '--ad-group-id', G, '--bid', '1.25'] },
  {
    args: ['ads', 'ads', 'list', '--account', A, '--campaign', C, '--ad-group', G],
    list: { path: `/v1/ads/${A}/campaigns/${C}/ad-groups/${G}/ads`, key: 'ads' },
  },
  { args: ['ads', 'ads', 'view', '--account', A, '--campaign', C, '--ad-group', G, 'ad-1'], reads: `/v1/ads/${A}/campaigns/${C}/ad-groups/${G}/ads` },
  { args: ['ads', 'ads', 'create', '--account', A, '--campaign', C, '--ad-group', G, '--name', 'Prism'] },
  { args: ['ads', 'ads', 'patch', '--account', A, '--campaign', C, '--ad-group', G, '--ad-id', 'ad-1', '--name', 'Prism 2'] },
  { args: ['ads', 'reports', 'create', '--account', A, '--type', 'CAMPAIGN_PERFORMANCE', '--columns', 'campaign_id,clicks', '--last', '7d'] },
  { args: ['ads', 'reports', 'get', '--account', A, 'report_1'], reads: `/v1/ads/${A}/reporting/report_1` },
  { args: ['ads', 'reports', 'download', '--account', A, 'report_1', '--out', '-'] },
  { args: ['ads', 'reports', 'sync', '--account', A, '--type', 'CAMPAIGN_PERFORMANCE', '--columns', 'campaign_id,clicks', '--last', '7d'] },
];

const OUTPUTS: Array<{ name: string; flags: string[]; tty: boolean }> = [
  { name: '-o json', flags: ['-o', 'json'], tty: false },
  { name: 'table', flags: [], tty: true },
  { name: '-o csv', flags: ['-o', 'csv'], tty: false },
];

/** What a crash or an unreadable failure looks like on stderr. */
const RAW = /TypeError|ReferenceError|SyntaxError|Cannot read|is not a function|undefined is not|\n\s+at .+:\d+:\d+/;
/** Lines that name no field or say nothing: a bare library message, a status "X, not X". */
const UNCLEAR = /^(Invalid URL|fetch failed|Unexpected token.*)$|\b(?<status>[A-Z_]+), not \k<status>\b/m;
async function status(mock: Mock, path: string): Promise<number> {
  return (await fetch(`${mock.url}${path}`, { headers: { authorization: 'Bearer prism-token' } })).status;
}

describe('every ads command against Prism dynamic mocks', () => {
  it(
    `${COMMANDS.length} commands x ${OUTPUTS.length} outputs x ${SEEDS.length} seeds: no crash, one clear line on failure, -o json untouched`,
    async () => {
      const problems: string[] = [];
      let runs = 0;
      for (const mock of mocks) {
        const user = new TestUser({ url: mock.url } as Sandbox, { PLATFORM_TOKEN: 'prism-token', NO_COLOR: '1' });
        for (const command of COMMANDS) {
          for (const output of OUTPUTS) {
            const args = [...command.args, ...output.flags];
            const result = await user.run(args, { tty: output.tty, columns: 80 });
            runs++;
            const where = `seed ${mock.seed}: platform ${args.join(' ')} (exit ${result.code})`;
            const lines = result.stderr.split('\n').filter((line) => line.trim() !== '' && !/^More \w[\w ]*: add --all/.test(line));
            if (![0, 1, 2].includes(result.code)) problems.push(`${where}: exit code`);
            if (RAW.test(result.stderr)) problems.push(`${where}: raw error on stderr: ${result.stderr}`);
            if (result.code !== 0 && lines.length !== 1) problems.push(`${where}: ${lines.length} lines on stderr: ${result.stderr}`);
            if (UNCLEAR.test(result.stderr)) problems.push(`${where}: unclear message: ${result.stderr}`);
            // A read with -o json fails only when Prism itself could not answer (its generator
            // fails on some seeds of the recursive targeting schema: HTTP 500, its own error).
            const read = command.list?.path ?? command.reads;
            if (read && output.name === '-o json' && result.code !== 0 && (await status(mock, read)) === 200)
              problems.push(`${where}: a read with -o json failed: ${result.stderr}`);
            if (command.list && output.name === '-o json' && result.code === 0) {
              const response = await fetch(`${mock.url}${command.list.path}`, { headers: { authorization: 'Bearer prism-token' } });
              const body = (await response.json()) as Record<string, unknown>;
              const items = JSON.parse(result.stdout) as unknown;
              if (JSON.stringify(items) !== JSON.stringify(body[command.list.key] ?? []))
                problems.push(`${where}: -o json is not the response's ${command.list.key}: ${result.stdout.slice(0, 300)}`);
            }
          }
        }
      }
      expect(runs).toBe(COMMANDS.length * OUTPUTS.length * SEEDS.length);
      expect(problems).toEqual([]);
    },
    scaled(120_000),
  );
});
