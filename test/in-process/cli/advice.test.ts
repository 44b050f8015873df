// What to do next, as a user reads it after an error: the advice the command layer appends.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { sandboxOnFreePort, TestUser } from '../../helpers/cli.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxOnFreePort();
});
afterAll(() => sandbox.close());

/** A loopback port nobody listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('advice after an error', () => {
  it('a sandbox that is not running: one line that says how to start it', async () => {
    const user = new TestUser(sandbox, { PLATFORM_BASE_URL: `http://127.0.0.1:${await closedPort()}` });
    const result = await user.run(['ads', 'accounts', 'list']);
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^could not reach http:\/\/127\.0\.0\.1:\d+: .*; is the sandbox running\? Start it with `platform sandbox serve`$/),
    ]);
  });

  it('an unreachable host that is not loopback gets no sandbox advice', async () => {
    const user = new TestUser(sandbox, { PLATFORM_BASE_URL: 'http://api.invalid', PLATFORM_TOKEN: 'x' });
    const result = await user.run(['ads', 'accounts', 'list']);
    expect(result.code).toBe(1);
    expect(result.stderr).not.toContain('sandbox serve');
  });
});
