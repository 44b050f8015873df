// The least a client can do for a bulk patch: the CSV split by hand (no quoting, no
// validation, no journal, no results), batches of BATCH items, CONCURRENCY requests in
// flight, one Idempotency-Key per batch. The bulk benchmark times the CLI against it.
// Usage: node raw-client.mjs BASE_URL TOKEN ACCOUNT CSV_FILE BATCH CONCURRENCY
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';

const [url, token, account, file, batchSize, concurrency] = process.argv.slice(2);
const [header, ...lines] = fs.readFileSync(file, 'utf8').trim().split('\n');
const columns = header.split(',');
const items = lines.map((line) => {
  const cells = line.split(',');
  const row = Object.fromEntries(columns.map((c, i) => [c, cells[i]]));
  return {
    campaign_id: row.campaign_id,
    name: row.name,
    configured_status: row.status === 'paused' ? 'CAMPAIGN_CONFIGURED_STATUS_PAUSED' : 'CAMPAIGN_CONFIGURED_STATUS_ACTIVE',
  };
});
const batches = [];
for (let i = 0; i < items.length; i += Number(batchSize)) batches.push(items.slice(i, i + Number(batchSize)));
let next = 0;
let failed = 0;
async function worker() {
  while (next < batches.length) {
    const batch = batches[next++];
    const res = await fetch(`${url}/v1/ads/${account}/campaigns`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify({ campaigns: batch }),
    });
    const body = await res.json();
    if (!res.ok) throw new Error(`${res.status} ${JSON.stringify(body)}`);
    failed += body.results.filter((r) => !('success' in r)).length;
  }
}
await Promise.all(Array.from({ length: Number(concurrency) }, worker));
if (failed) throw new Error(`${failed} items failed`);
