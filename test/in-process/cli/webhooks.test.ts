// `platform webhooks sign|verify`: HMAC-SHA256 hex of the raw body (spec 6.3).
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { SANDBOX_DEMO_CLIENT_SECRET } from '../../../src/schemas/sandbox.js';
import { sandboxOnFreePort, tempDir, TestUser } from '../../helpers/cli.js';

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
    // -o json, asked for: a record (the bare hex stays the default, for $(...)).
    const record = JSON.parse((await user.run(['webhooks', 'sign', '-', '-o', 'json'], { stdin: raw })).stdout) as Record<string, unknown>;
    expect(record).toEqual({ signature, secret: 'PLATFORM_WEBHOOK_SECRET', body_bytes: Buffer.byteLength(raw) });
  });

  it("without PLATFORM_WEBHOOK_SECRET signs with the profile's client secret; with no secret anywhere, exit 2", async () => {
    const local = await user.run(['webhooks', 'sign', '-'], { stdin: raw, env: { PLATFORM_WEBHOOK_SECRET: undefined } });
    expect(local.stdout).toBe(`${createHmac('sha256', SANDBOX_DEMO_CLIENT_SECRET).update(raw).digest('hex')}\n`);
    // A profile with no client secret, and none in the environment.
    const bare = new TestUser(sandbox, { PLATFORM_WEBHOOK_SECRET: undefined });
    bare.writeConfig({ profiles: { bare: { base_url: sandbox.url, client_id: 'sandbox-demo-client' } } });
    const none = await bare.run(['webhooks', 'sign', '-', '--profile', 'bare'], { stdin: raw });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/PLATFORM_WEBHOOK_SECRET/);
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
    expect(changed.stderr).toMatch(
      /^invalid signature: the HMAC-SHA256 of the \d+ bytes received is [0-9a-f]{8}\.\.\., the signature is [0-9a-f]{8}\.\.\.; wrong secret/,
    );
    expect(changed.stdout).toBe('');
    const wrongSecret = await user.run(['webhooks', 'verify', file('body2.json', raw), '--signature', signature], {
      env: { PLATFORM_WEBHOOK_SECRET: 'other' },
    });
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
      [['webhooks', 'verify', body, '--signature', signature], { PLATFORM_WEBHOOK_SECRET: undefined, PLATFORM_PROFILE: 'nowhere' }],
      [['webhooks', 'verify', body], {}],
    ] as const) {
      const result = await user.run([...args], { env });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
    }
  });
});

describe('platform webhooks verify of a file too large to read whole', () => {
  it('exits 2 with one line naming the file, its size and the limit, having read none of it', async () => {
    // Sparse: 2 GiB long, no blocks on disk (it used to end in ERR_FS_FILE_TOO_LARGE alone).
    const big = path.join(dir, 'two-gib.json');
    fs.writeFileSync(big, '');
    fs.truncateSync(big, 2 ** 31);
    try {
      const result = await user.run(['webhooks', 'verify', big, '--signature', signature]);
      expect(result).toMatchObject({
        code: 2,
        stdout: '',
        stderr: `FILE: ${big} is 2147483648 bytes, over the 1 GiB limit of an input read whole; give a smaller one\n`,
      });
    } finally {
      fs.rmSync(big);
    }
  });
});

describe('platform webhooks verify: header blocks, JSON, diagnoses, secrets', () => {
  const vectors = path.join(import.meta.dirname, '../../fixtures/webhook-vectors/bodies');
  const compact = path.join(vectors, 'event-compact.json');
  // OpenSSL's signature of event-compact.json under the sandbox's demo client secret (vectors.tsv).
  const demoSig = '9ccfbe4824fd6bec48d503d770298fd3fc301c13c9115f068128b7731a1202c9';

  it('finds X-Platform-Signature and X-Environment in a raw header block', async () => {
    const headers = file(
      'headers.txt',
      `POST /webhooks HTTP/1.1\r\nHost: example.com\r\nContent-Type: application/json\r\nx-environment: sandbox\r\nX-Platform-Signature: ${demoSig}\r\n\r\n`,
    );
    const result = await user.run(['webhooks', 'verify', compact, '--headers', headers], { env: { PLATFORM_WEBHOOK_SECRET: SANDBOX_DEMO_CLIENT_SECRET } });
    expect(result).toMatchObject({ code: 0, stdout: 'valid signature (HMAC-SHA256 of 377 bytes, X-Environment: sandbox)\n' });
    const missing = await user.run(['webhooks', 'verify', compact, '--headers', file('no-sig.txt', 'Host: a\nX-Environment: sandbox\n')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^--headers .*no-sig\.txt: no X-Platform-Signature header \(it has Host, X-Environment\)\n$/);
    const both = await user.run(['webhooks', 'verify', compact, '--headers', headers, '--signature', demoSig]);
    expect(both.code).toBe(2);
  });

  it('-o json prints the computation for scripts, on a mismatch too (exit 1)', async () => {
    const ok = await user.json<Record<string, unknown>>(['webhooks', 'verify', compact, '--signature', demoSig.toUpperCase()], {
      env: { PLATFORM_WEBHOOK_SECRET: undefined },
    });
    expect(ok).toEqual({
      valid: true,
      algorithm: 'HMAC-SHA256',
      body_bytes: 377,
      computed_signature: demoSig,
      signature: demoSig,
      signature_source: '--signature',
      environment: null,
      secret_source: 'the client secret of profile local',
      notes: [expect.stringMatching(/uppercase hex/)],
      diagnosis: null,
      // The vector's event_time is from 2015: older than --tolerance.
      event_time_warning: expect.stringMatching(/^event_time 2015-03-26T04:26:30Z is \d+ days old/),
    });
    const bad = await user.run(['webhooks', 'verify', path.join(vectors, 'event-newline.json'), '--signature', demoSig, '-o', 'json'], {
      env: { PLATFORM_WEBHOOK_SECRET: SANDBOX_DEMO_CLIENT_SECRET },
    });
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout)).toMatchObject({ valid: false, body_bytes: 378, diagnosis: { case: 'trailing-newline-added' } });
  });

  it('each diagnosis reaches the user on one line', async () => {
    const env = { PLATFORM_WEBHOOK_SECRET: SANDBOX_DEMO_CLIENT_SECRET };
    const cases: Array<[string, string[], RegExp]> = [
      ['event-newline.json', ['--signature', demoSig], /without its final newline/],
      ['event-pretty.json', ['--signature', demoSig], /pretty-printed/],
      ['event-reordered.json', ['--signature', demoSig], /keys were reordered/],
      ['event-unescaped.json', ['--signature', 'dd7c593d44131c8a66fcade037b56fe296fe6326fb39fbceef1c982c27fe7664'], /backslash escapes .* put back/],
      ['event-compact.json', ['--signature', demoSig.toUpperCase(), '--strict'], /uppercase hex/],
      ['event-compact.json', ['--signature', ` ${demoSig} `, '--strict'], /whitespace around it/],
    ];
    for (const [name, flags, reason] of cases) {
      const result = await user.run(['webhooks', 'verify', path.join(vectors, name), ...flags], { env });
      expect(result.code, name).toBe(1);
      expect(result.stderr, name).toMatch(reason);
      expect(result.stderr.trimEnd().split('\n'), name).toHaveLength(1);
    }
  });

  it("names the other secret that matches (the profile's vs PLATFORM_WEBHOOK_SECRET) and never prints either", async () => {
    const wrong = 'env-secret-that-is-wrong';
    const runs = [
      await user.run(['webhooks', 'verify', compact, '--signature', demoSig], { env: { PLATFORM_WEBHOOK_SECRET: wrong } }),
      await user.run(['webhooks', 'verify', compact, '--signature', demoSig, '-o', 'json', '--debug'], { env: { PLATFORM_WEBHOOK_SECRET: wrong } }),
      await user.run(['webhooks', 'verify', path.join(vectors, 'event-newline.json'), '--signature', demoSig, '--debug'], {
        env: { PLATFORM_WEBHOOK_SECRET: wrong },
      }),
    ];
    expect(runs[0]!.code).toBe(1);
    expect(runs[0]!.stderr).toMatch(/it matches with the client secret of profile local, not PLATFORM_WEBHOOK_SECRET/);
    expect(JSON.parse(runs[1]!.stdout).diagnosis.case).toBe('different-secret');
    expect(runs[2]!.stderr).toMatch(/different|other secret/);
    for (const r of runs) {
      expect(r.stdout + r.stderr).not.toContain(wrong);
      expect(r.stdout + r.stderr).not.toContain(SANDBOX_DEMO_CLIENT_SECRET);
    }
  });

  it('unusable signatures exit 2 naming the problem: not hex, wrong length, base64', async () => {
    for (const [sig, problem] of [
      [`${demoSig.slice(0, 63)}z`, /is not hexadecimal: "z" at position 64/],
      [demoSig.slice(0, 40), /has 40 hexadecimal digits; an HMAC-SHA256 has 64/],
      [Buffer.from(demoSig, 'hex').toString('base64'), /looks like base64/],
    ] as const) {
      const result = await user.run(['webhooks', 'verify', compact, '--signature', sig]);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(problem);
    }
  });
});
