// The least a client can do for a bulk patch: the CSV split by hand (no quoting, no
// validation, no journal, no results), batches of BATCH items, CONCURRENCY requests in
// flight, one Idempotency-Key per batch. The bulk benchmark times the CLI against it.
// With READ_FIRST "read-first" it also reads the current campaigns, as the CLI does before a
// patch (pages of 2,000, parsed, nothing compared): a batch waits until the pages read so far
// reach its last row (the input is in list order), so reads and writes overlap. That is the
// least any client that reads before it writes can do.
// Usage: node raw-client.mjs BASE_URL TOKEN ACCOUNT CSV_FILE BATCH CONCURRENCY [READ_FIRST]
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';

const [url, token, account, file, batchSize, concurrency, readFirst] = process.argv.slice(2);
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
const authorization = `Bearer ${token}`;

// Items read so far (all of them without read-first); batches waiting for more.
let read = readFirst === 'read-first' ? 0 : Infinity;
let waiting = [];
async function readAll() {
  let pageToken;
  do {
    const query = `page_limit=2000${pageToken ? `&page_token=${encodeURIComponent(pageToken)}` : ''}`;
    const res = await fetch(`${url}/v1/ads/${account}/campaigns?${query}`, { headers: { authorization } });
    const body = await res.json();
    if (!res.ok) throw new Error(`${res.status} ${JSON.stringify(body)}`);
    read += body.campaigns.length;
    pageToken = body.next_page_token?.value;
    for (const wake of waiting.splice(0)) wake();
  } while (pageToken);
  read = Infinity;
  for (const wake of waiting.splice(0)) wake();
}

let next = 0;
let failed = 0;
// When the requests begin (after start-up and the CSV split): the bulk benchmark's floor.
process.stderr.write(`first request at ${Math.round(performance.now())} ms\n`);
async function worker() {
  while (next < batches.length) {
    const at = next++;
    const batch = batches[at];
    while (read < at * Number(batchSize) + batch.length) await new Promise((resolve) => waiting.push(resolve));
    const res = await fetch(`${url}/v1/ads/${account}/campaigns`, {
      method: 'PATCH',
      headers: { authorization, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify({ campaigns: batch }),
    });
    const body = await res.json();
    if (!res.ok) throw new Error(`${res.status} ${JSON.stringify(body)}`);
    failed += body.results.filter((r) => !('success' in r)).length;
  }
}
await Promise.all([...(read === 0 ? [readAll()] : []), ...Array.from({ length: Number(concurrency) }, worker)]);
if (failed) throw new Error(`${failed} items failed`);
