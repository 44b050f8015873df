// Secrets are never command-line arguments: without an env var or a stored one, they are
// asked for at a hidden prompt on a terminal, and never echoed or printed.
import fs from 'node:fs';
import path from 'node:path';
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { SANDBOX_DEMO_CLIENT_ID, SANDBOX_DEMO_CLIENT_SECRET } from '../../../src/schemas/sandbox.js';
import { sandboxOnFreePort, tempDir, TestUser } from '../../helpers/cli.js';
import { runOnTerminal } from '../../helpers/terminal.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxOnFreePort();
});
afterAll(() => sandbox.close());

describe('hidden secret prompts', () => {
  it('auth login --client-credentials asks for the client secret on a terminal and stores it, unprinted', async () => {
    const user = new TestUser(sandbox);
    const result = await runOnTerminal(
      user,
      ['auth', 'login', '--client-credentials', '--profile', 'typed', '--client-id', SANDBOX_DEMO_CLIENT_ID, '--base-url', sandbox.url],
      [[/Client secret for sandbox-demo-client/, SANDBOX_DEMO_CLIENT_SECRET]],
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/Logged in to profile typed/);
    expect(result.stdout + result.stderr).not.toContain(SANDBOX_DEMO_CLIENT_SECRET);
    expect(user.readConfig().profiles.typed!.token).toBeDefined();
  });

  it('without a terminal it does not hang: it says where the secret can come from (exit 2)', async () => {
    const user = new TestUser(sandbox);
    const result = await user.run([
      'auth',
      'login',
      '--client-credentials',
      '--profile',
      'nope',
      '--client-id',
      SANDBOX_DEMO_CLIENT_ID,
      '--base-url',
      sandbox.url,
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/PLATFORM_CLIENT_SECRET/);
  });

  it('webhooks verify asks for the webhook secret when none is set, and never prints it', async () => {
    // A profile with no client secret, and none in the environment.
    const user = new TestUser(sandbox, { PLATFORM_PROFILE: 'bare' });
    user.writeConfig({ profiles: { bare: { base_url: sandbox.url, client_id: SANDBOX_DEMO_CLIENT_ID } } });
    const body = '{"event_id":"e1","event_type":"requests.status_changed"}';
    const file = path.join(tempDir(), 'body.json');
    fs.writeFileSync(file, body);
    const secret = 'typed-webhook-secret';
    const signature = createHmac('sha256', secret).update(body).digest('hex');
    const result = await runOnTerminal(user, ['webhooks', 'verify', file, '--signature', signature], [[/Webhook secret/, secret]]);
    expect(result.code).toBe(0);
    expect(result.stdout + result.stderr).not.toContain(secret);
  });
});
