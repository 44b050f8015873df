// Sandbox snapshots at 10,000 and 100,000 campaigns (`sandbox serve --campaigns N`, a process,
// as users run it): the time of a save and a restore over HTTP, and of the first and a later
// campaign patch after a restore (the first pays for copying the containers it writes to),
// against a plain GET of one campaign in the same run. The whole-state dump (GET /_sandbox/state)
// is what every save and restore used to cost (a JSON round trip of the whole state), timed
// after the rest. SNAPSHOT_CAMPAIGNS=N,M sets the sizes.
import { median, printRatios, startSandbox } from './lib.mjs';
import { demoToken, firstCampaigns } from './load.mjs';

const runs = Number(process.env.BENCH_RUNS) || 15;
const sizes = (process.env.SNAPSHOT_CAMPAIGNS ?? '10000,100000').split(',').map(Number);

async function timed(request) {
  const started = performance.now();
  const response = await request();
  const body = await response.text();
  const ms = performance.now() - started;
  if (response.status >= 300) throw new Error(`HTTP ${response.status}: ${body.slice(0, 300)}`);
  return ms;
}

for (const campaigns of sizes) {
  const sandbox = await startSandbox({}, ['--campaigns', String(campaigns)]);
  try {
    const token = await demoToken(sandbox.url);
    const { account, ids } = await firstCampaigns(sandbox.url, token);
    const consoleToken = (await (await fetch(`${sandbox.url}/_sandbox/session`)).json()).token;
    const api = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const control = { 'x-sandbox-token': consoleToken, 'content-type': 'application/json' };
    let n = 0;
    const patch = () =>
      fetch(`${sandbox.url}/v1/ads/${account}/campaigns`, {
        method: 'PATCH',
        headers: api,
        body: JSON.stringify({ campaigns: [{ campaign_id: ids[n++ % ids.length], name: `bench ${n}` }] }),
      });
    const cases = {
      'GET one campaign': () => fetch(`${sandbox.url}/v1/ads/${account}/campaigns?campaign_id=${ids[0]}`, { headers: api }),
      'snapshot save': () => fetch(`${sandbox.url}/_sandbox/snapshots`, { method: 'POST', headers: control, body: JSON.stringify({ name: 'bench' }) }),
      'snapshot restore': () => fetch(`${sandbox.url}/_sandbox/snapshots/bench/restore`, { method: 'POST', headers: control, body: '{}' }),
      'first patch after restore': patch,
      'later patch': patch,
    };
    const samples = new Map(Object.keys(cases).map((name) => [name, []]));
    // Each round in this order (a restore needs a save, the first patch follows the restore);
    // two untimed rounds first.
    for (let round = 0; round < runs + 2; round++) {
      for (const [name, request] of Object.entries(cases)) {
        const ms = await timed(request);
        if (round >= 2) samples.get(name).push(ms);
      }
    }
    // Last and apart: its garbage (the whole state as text) would fall on the cases above.
    const dumps = [];
    for (let round = 0; round < Math.min(runs, 5); round++) dumps.push(await timed(() => fetch(`${sandbox.url}/_sandbox/state`)));
    samples.set('whole-state dump (old cost)', dumps);
    const medians = new Map([...samples].map(([name, values]) => [name, median(values)]));
    printRatios({ title: `sandbox snapshots at ${campaigns.toLocaleString('en-US')} campaigns, over HTTP`, baseline: 'GET one campaign', medians, runs });
  } finally {
    await sandbox.stop();
  }
}
