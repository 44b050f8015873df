// A bounded load on a sandbox process, shared by the sandbox-load benchmark and its short
// test: `connections` clients alternate a page of campaigns and a one-item patch, for
// `seconds`, and nothing else. Loopback only.
import fs from 'node:fs';
import { Pool } from 'undici';

/** Resident set size of a process, in MB (Linux /proc). */
export function rssMb(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) / 1024;
}

export async function demoToken(url) {
  const response = await fetch(`${url}/oauth/v2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: 'sandbox-demo-client', client_secret: 'sandbox-demo-secret' }),
  });
  return (await response.json()).access_token;
}

export async function firstCampaigns(url, token) {
  const headers = { authorization: `Bearer ${token}` };
  const account = (await (await fetch(`${url}/v1/ads/ad-accounts`, { headers })).json()).ad_accounts[0].ad_account_id;
  const page = await (await fetch(`${url}/v1/ads/${account}/campaigns?page_limit=200`, { headers })).json();
  return { account, ids: page.campaigns.map((c) => c.campaign_id) };
}

/** Runs the load; resolves with the number of requests answered, by status. */
export async function load({ url, token, account, ids, connections, seconds }) {
  const pool = new Pool(url, { connections, pipelining: 1 });
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const until = Date.now() + seconds * 1000;
  const statuses = {};
  let n = 0;
  async function client() {
    while (Date.now() < until) {
      const i = n++;
      const request =
        i % 2 === 0
          ? { method: 'GET', path: `/v1/ads/${account}/campaigns?page_limit=50`, headers }
          : {
              method: 'PATCH',
              path: `/v1/ads/${account}/campaigns`,
              headers: { ...headers, 'idempotency-key': `load-${process.pid}-${i}` },
              body: JSON.stringify({ campaigns: [{ campaign_id: ids[i % ids.length], name: `Load ${i}` }] }),
            };
      const { statusCode, body } = await pool.request(request);
      await body.dump();
      statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
    }
  }
  await Promise.all(Array.from({ length: connections }, client));
  await pool.close();
  return statuses;
}

/** Sends `count` bodies of `megabytes` MB at once (a JSON body of that size); resolves with their statuses and the peak RSS seen meanwhile. */
export async function largeBodies({ url, token, account, pid, count, megabytes }) {
  const body = JSON.stringify({ campaigns: [{ campaign_id: 'x', name: 'y'.repeat(megabytes * 1024 * 1024) }] });
  let peak = rssMb(pid);
  const poll = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 20);
  const statuses = await Promise.all(
    Array.from({ length: count }, async () => {
      try {
        const response = await fetch(`${url}/v1/ads/${account}/campaigns`, {
          method: 'PATCH',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body,
        });
        await response.arrayBuffer();
        return response.status;
      } catch {
        return 'dropped';
      }
    }),
  );
  clearInterval(poll);
  return { statuses, peakMb: Math.max(peak, rssMb(pid)) };
}
