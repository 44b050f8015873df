// `webhooks verify` as a replay guard: a validly signed body whose event_time is further than
// --tolerance from the injected clock's now, past or future, gets one warning line on stderr
// and still exits 0; within it, or with an invalid signature, nothing is said about time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import type { Clock } from '../../../src/base/io.js';
import { sign } from '../../../src/webhooks/hmac.js';
import { fastClock, sandboxOnFreePort, TestUser } from '../../helpers/cli.js';

const secret = 'verify-secret';
let sandbox: Sandbox;
let user: TestUser;
beforeAll(async () => {
  sandbox = await sandboxOnFreePort();
  user = new TestUser(sandbox, { PLATFORM_WEBHOOK_SECRET: secret });
});
afterAll(() => sandbox.close());

const EVENT_TIME = 1_700_000_000; // 2023-11-14T22:13:20Z
const body = JSON.stringify({
  event_id: 'e-1',
  event_time: EVENT_TIME,
  event_type: 'requests.status_changed',
  meta: { user_id: 'u', resource_id: 'r1', resource_type: 'request', status: 'accepted' },
  resource_href: 'http://127.0.0.1:4010/v1.2/requests/r1',
});
const signature = sign(Buffer.from(body), secret);

/** A clock standing at `seconds` after event_time (negative: before it). */
const at = (seconds: number): Clock => ({ now: () => (EVENT_TIME + seconds) * 1000, sleep: fastClock().sleep });
const verify = (clock: Clock, extra: string[] = [], sig = signature) =>
  user.run(['webhooks', 'verify', '-', '--signature', sig, ...extra], { stdin: body, clock });

describe('webhooks verify: event_time against --tolerance', () => {
  it('warns on one stderr line, exit 0, when a valid body is years old', async () => {
    const result = await verify(at(2 * 365 * 86_400));
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^valid signature/);
    expect(result.stderr.trim().split('\n')).toEqual([
      'warning: event_time 2023-11-14T22:13:20Z is 730 days old, more than --tolerance 5m: the signature is valid but this may be a replayed delivery',
    ]);
  });

  it('says nothing within the default 5 minutes; --tolerance takes 300s as well', async () => {
    expect((await verify(at(4 * 60))).stderr).toBe('');
    expect((await verify(at(299), ['--tolerance', '300s'])).stderr).toBe('');
    const past = await verify(at(301), ['--tolerance', '300s']);
    expect(past.code).toBe(0);
    expect(past.stderr).toMatch(/^warning: event_time .* is 301 s old, more than --tolerance 300s/);
  });

  it('warns when event_time is far in the future', async () => {
    const result = await verify(at(-3 * 3600));
    expect(result.code).toBe(0);
    expect(result.stderr.trim()).toBe("warning: event_time 2023-11-14T22:13:20Z is 3 h in the future, more than --tolerance 5m: check the sender's clock");
  });

  it('an invalid signature gets no time warning; -o json carries the warning; a bad --tolerance exits 2', async () => {
    const invalid = await verify(at(86_400 * 30), [], 'a'.repeat(64));
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).not.toMatch(/event_time/);
    const json = await verify(at(86_400 * 30), ['-o', 'json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout).event_time_warning).toMatch(/is 30 days old/);
    const bad = await verify(at(0), ['--tolerance', 'soon']);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split('\n')).toEqual([expect.stringMatching(/--tolerance: "soon" is not a duration/)]);
  });
});
