// A write the server refuses (4xx, 429 aside) is a definite refusal: the row says so with the
// server's reason, here a schema-validating gateway's RFC 9457 problem details (`--clear budget`
// sends `{}`, which the OpenAPI's text allows and its schema forbids). "It may have been
// applied" is said only where an attempt got no answer and no refusal followed.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { sandboxWithUser, TestUser } from '../../helpers/cli.js';
import type { Campaign } from '../../helpers/ads-rows.js';

let sandbox: Sandbox;
let account: string;
let gateway: http.Server;
let gatewayUrl: string;
/** What the gateway does with the next PATCH of campaigns: refuse it, or drop the connection first and then refuse. */
let plan: Array<'refuse' | 'drop'> = [];
let patches = 0;

const PROBLEM = {
  type: 'https://gateway.example/problems/schema',
  title: 'Unprocessable Entity',
  status: 422,
  detail: "campaigns[0].budget: must have required property 'unit'",
};

beforeAll(async () => {
  ({ sandbox, account } = await sandboxWithUser({ campaigns: 5 }));
  const target = new URL(sandbox.url);
  // A gateway in front of the API: PATCHes of campaigns meet the plan; everything else passes through.
  gateway = http.createServer((req, res) => {
    if (req.method === 'PATCH' && /\/campaigns$/.test(req.url ?? '')) {
      patches++;
      req.resume();
      const step = plan.shift() ?? 'refuse';
      if (step === 'drop') return void req.socket.destroy();
      const body = JSON.stringify(PROBLEM);
      res.writeHead(422, { 'content-type': 'application/problem+json', 'content-length': String(Buffer.byteLength(body)) }).end(body);
      return;
    }
    const upstream = http.request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
  gatewayUrl = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => gateway.close(resolve));
  await sandbox.close();
});

function userBehindGateway(): TestUser {
  return new TestUser(sandbox, { PLATFORM_ACCOUNT: account, PLATFORM_BASE_URL: gatewayUrl });
}

describe('a write refused with problem details', () => {
  it('is reported as refused, with the detail, exit 1; never as "may have been applied"', async () => {
    const user = userBehindGateway();
    const [campaign] = await user.json<Campaign[]>(['ads', 'campaigns', 'list', '--limit', '1']);
    plan = ['refuse'];
    patches = 0;
    const result = await user.run(['ads', 'campaigns', 'patch', campaign!.campaign_id, '--clear', 'budget', '-o', 'json']);
    expect(result.code).toBe(1);
    expect(patches).toBe(1);
    const rows = JSON.parse(result.stdout) as Array<{ result: string; error_code: string; error_message: string }>;
    expect(rows).toEqual([expect.objectContaining({ result: 'failed', error_code: 'HTTP 422', error_message: PROBLEM.detail })]);
    expect(result.stdout + result.stderr).not.toMatch(/may have been applied|no error details/);
  });

  it('after an attempt that got no answer, a refusal still is one: refused, not "may have been applied"', async () => {
    const user = userBehindGateway();
    const [campaign] = await user.json<Campaign[]>(['ads', 'campaigns', 'list', '--limit', '1']);
    plan = ['drop', 'refuse'];
    patches = 0;
    const result = await user.run(['ads', 'campaigns', 'patch', campaign!.campaign_id, '--clear', 'budget', '-o', 'json']);
    expect(result.code).toBe(1);
    expect(patches).toBe(2);
    const rows = JSON.parse(result.stdout) as Array<{ result: string; error_message: string }>;
    expect(rows[0]).toMatchObject({ result: 'failed', error_message: PROBLEM.detail });
    expect(result.stdout + result.stderr).not.toMatch(/may have been applied/);
  });
});
