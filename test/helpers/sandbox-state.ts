// A sandbox on an injected clock with a token and an account, and the console routes that
// save, restore and dump its state: for the snapshot tests at any size.
import { onTestFinished } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { api, getToken } from './sandbox.js';

/** A sandbox on an injected clock (`clock.now` moves it), closed when the test ends. */
export async function sandboxAt(options: Parameters<typeof startSandbox>[0] = {}) {
  const clock = { now: Date.parse('2026-03-02T10:00:00Z') };
  const sandbox = await startSandbox({ port: 0, now: () => clock.now, ...options });
  onTestFinished(() => sandbox.close());
  const token = await getToken(sandbox.url);
  const account = (await api(sandbox.url, token, 'GET', '/v1/ads/ad-accounts')).body.ad_accounts[0].ad_account_id as string;
  return { sandbox, token, account, clock };
}

export const dump = async (sandbox: Sandbox) => (await fetch(`${sandbox.url}/_sandbox/state`)).text();

export const consolePost = (sandbox: Sandbox, path: string, body: unknown = {}) =>
  fetch(`${sandbox.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-sandbox-token': sandbox.consoleToken },
    body: JSON.stringify(body),
  });

/** The answer, or an error naming `what` and the server's answer. */
export const ok = <T extends { status: number; body: unknown }>(res: T, what: string): T => {
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res;
};
