// `platform webhooks sign|verify`: HMAC-SHA256 hex of the raw body (spec 6.3).
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { sandboxOnFreePort, tempDir, TestUser } from '../helpers/cli.js';

const secret = 'whsec-test';
// A body with escapes a strict parser would normalise: verification must use these bytes.
const raw = '{"event_id":"e-1","event_type":"requests.status_changed","meta":{"status":"accepted","note":"a\\/b"}}';
const signature = createHmac('sha256', secret).update(raw).digest('hex');

let sandbox: Sandbox;
let user: TestUser;
let dir: string;
const file = (name: string, content: string) => {
  const target = path.join(dir, name);
  fs.writeFileSync(target, content);
  return target;
};

beforeAll(async () => {
  // The webhooks commands need no API; the helper wants a sandbox for its base URL.
  sandbox = await sandboxOnFreePort();
  user = new TestUser(sandbox, { PLATFORM_WEBHOOK_SECRET: secret });
  dir = tempDir();
});
afterAll(() => sandbox.close());

describe('platform webhooks sign', () => {
  it('prints the hex HMAC-SHA256 of the exact bytes of a file or stdin', async () => {
    const fromFile = await user.run(['webhooks', 'sign', file('body.json', raw)]);
    expect(fromFile).toMatchObject({ code: 0, stdout: `${signature}\n`, stderr: '' });
    expect((await user.run(['webhooks', 'sign', '-'], { stdin: raw })).stdout).toBe(`${signature}\n`);
    expect((await user.run(['webhooks', 'sign'], { stdin: raw })).stdout).toBe(`${signature}\n`);
  });

  it('needs PLATFORM_WEBHOOK_SECRET (exit 2)', async () => {
    const result = await user.run(['webhooks', 'sign', '-'], { stdin: raw, env: { PLATFORM_WEBHOOK_SECRET: undefined } });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/PLATFORM_WEBHOOK_SECRET/);
  });
});

describe('platform webhooks verify', () => {
  it('exits 0 for a valid signature, in any case and with a sha256= prefix', async () => {
    const body = file('valid.json', raw);
    for (const sig of [signature, signature.toUpperCase(), `sha256=${signature}`]) {
      const result = await user.run(['webhooks', 'verify', body, '--signature', sig]);
      expect(result.code, sig).toBe(0);
      expect(result.stdout).toMatch(/^valid signature/);
    }
    expect((await user.run(['webhooks', 'verify', '-', '--signature', signature], { stdin: raw })).code).toBe(0);
  });

  it('exits 1 for a body that was changed, or a wrong secret', async () => {
    const changed = await user.run(['webhooks', 'verify', file('changed.json', raw.replace('accepted', 'completed')), '--signature', signature]);
    expect(changed.code).toBe(1);
    expect(changed.stderr).toMatch(/^invalid signature: the HMAC-SHA256 of the \d+ bytes received is [0-9a-f]{8}\.\.\., the signature is [0-9a-f]{8}\.\.\.; wrong secret/);
    expect(changed.stdout).toBe('');
    const wrongSecret = await user.run(['webhooks', 'verify', file('body2.json', raw), '--signature', signature], { env: { PLATFORM_WEBHOOK_SECRET: 'other' } });
    expect(wrongSecret.code).toBe(1);
  });

  it('says why when a newline was added or the JSON was re-encoded', async () => {
    const newline = await user.run(['webhooks', 'verify', file('newline.json', `${raw}\n`), '--signature', signature]);
    expect(newline.code).toBe(1);
    expect(newline.stderr).toMatch(/without its final newline/);

    // The sender signed a re-encoded body; the file holds the raw one with its escapes.
    const reencoded = JSON.stringify(JSON.parse(raw));
    expect(reencoded).not.toBe(raw);
    const sigOfReencoded = createHmac('sha256', secret).update(reencoded).digest('hex');
    const result = await user.run(['webhooks', 'verify', file('raw.json', raw), '--signature', sigOfReencoded]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/re-encoded from parsed JSON/);
  });

  it('exits 2 for unusable input: a malformed signature, a missing file, no secret', async () => {
    const body = file('body3.json', raw);
    for (const [args, env] of [
      [['webhooks', 'verify', body, '--signature', 'abc'], {}],
      [['webhooks', 'verify', path.join(dir, 'missing.json'), '--signature', signature], {}],
      [['webhooks', 'verify', body, '--signature', signature], { PLATFORM_WEBHOOK_SECRET: undefined }],
      [['webhooks', 'verify', body], {}],
    ] as const) {
      const result = await user.run([...args], { env });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
    }
  });
});
