// What a person sees on a real terminal: the built CLI on a pseudo-terminal (see
// test/helpers/pty.ts), Ctrl-C typed as a key, the terminal's width set with stty.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { firstAccount, sandboxOnFreePort, TestUser } from '../helpers/cli.js';
import { runOnPty } from '../helpers/pty.js';
import { signedInUser, SF } from '../helpers/rider.js';
import { scaled } from '../helpers/time-scale.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxOnFreePort();
});
afterAll(() => sandbox.close());

const envOf = (user: TestUser): Record<string, string> => ({
  PATH: process.env.PATH ?? '',
  HOME: user.configDir,
  PLATFORM_CONFIG_DIR: user.configDir,
  PLATFORM_BASE_URL: sandbox.url,
  NO_COLOR: '1',
  ...(user.env as Record<string, string>),
});
const rideRequests = () => sandbox.stats.requests.filter((r) => r.method === 'POST' && /\/requests$/.test(r.path)).length;
const ride = ['rider', 'request', '--product', 'Economy', '--from', SF.downtown, '--to', SF.mission];

describe('on a pseudo-terminal', () => {
  it('Ctrl-C at a prompt exits 130 and requests nothing', { timeout: scaled(30_000) }, async () => {
    const user = await signedInUser(sandbox, 'profile request');
    const before = rideRequests();
    const run = runOnPty(ride, envOf(user));
    await run.waitFor(/\?.*\n?.*$/);
    run.type('\u0003');
    const { code, output } = await run.done;
    expect(code, output).toBe(130);
    expect(output).not.toMatch(/force closed|SIGINT/);
    expect(rideRequests()).toBe(before);
  });

  it.each([
    ['a sized terminal', 100],
    ['a terminal of 0 columns (where a spinner would clear lines without end)', 0],
  ])(
    'Ctrl-C during rider request --wait on %s names the ride and the commands that follow or cancel it',
    async (_name, columns) => {
      const user = await signedInUser(sandbox, 'profile request request_receipt');
      const run = runOnPty([...ride, '--yes', '--wait'], envOf(user), { columns });
      const [, id] = await run.waitFor(/ride ([\w-]+) is processing/);
      run.type('\u0003');
      const { code, output } = await run.done;
      expect(code, output).toBe(130);
      expect(output).toContain(`platform rider request get ${id} --wait`);
      expect(output.length).toBeLessThan(20_000);
      // Still live: the printed cancel command works.
      const cancel = await user.run(['rider', 'request', 'cancel', id!]);
      expect(cancel.code, cancel.stderr).toBe(0);
    },
    scaled(30_000),
  );

  it('fits a table to an 80-column terminal, and says a single create in one sentence', { timeout: scaled(30_000) }, async () => {
    const user = new TestUser(sandbox);
    const account = (await firstAccount(user)).ad_account_id;
    const campaigns = await user.json<Array<{ campaign_id: string; ad_groups: unknown[] }>>(['ads', 'campaigns', 'list', '--account', account]);
    const campaign = campaigns.find((c) => c.ad_groups.length > 0)!.campaign_id;
    const table = await runOnPty(['ads', 'ad-groups', 'list', '--account', account, '--campaign', campaign], envOf(user), { columns: 80 }).done;
    expect(table.code, table.output).toBe(0);
    const lines = table.output.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80);
    const created = await runOnPty(
      ['ads', 'campaigns', 'create', '--account', account, '--name', 'Spring promo', '--budget', '50', '--currency', 'USD'],
      envOf(user),
    ).done;
    expect(created.code, created.output).toBe(0);
    expect(created.output).toMatch(/^Created campaign [0-9a-f-]{36} "Spring promo"\n$/);
  });
});
