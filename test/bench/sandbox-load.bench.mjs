// The sandbox under load (a process, as users run it): memory after a 30 s run at 200
// connections on list and patch, against memory after a warm-up run of the same load and length (a shorter one ends before the heap has settled); then
// 10 concurrent 31 MB bodies. Targets: within 30 MB of the warm-up; under 250 MB.
import { startSandbox } from './lib.mjs';
import { demoToken, firstCampaigns, largeBodies, load, rssMb } from './load.mjs';

const seconds = Number(process.env.LOAD_SECONDS) || 30;
const sandbox = await startSandbox({}, ['--campaigns', '2000']);
try {
  const token = await demoToken(sandbox.url);
  const { account, ids } = await firstCampaigns(sandbox.url, token);
  const warm = await load({ url: sandbox.url, token, account, ids, connections: 200, seconds });
  const afterWarmup = rssMb(sandbox.pid);
  const run = await load({ url: sandbox.url, token, account, ids, connections: 200, seconds });
  const afterRun = rssMb(sandbox.pid);
  const bodies = await largeBodies({ url: sandbox.url, token, account, pid: sandbox.pid, count: 10, megabytes: 31 });
  const total = (s) => Object.values(s).reduce((a, b) => a + b, 0);
  console.log(`sandbox under load (200 connections, list and patch; node ${process.version}, ${(await import('node:os')).cpus().length} CPUs)`);
  console.log(`warm-up ${seconds} s: ${total(warm)} requests ${JSON.stringify(warm)}; RSS after ${afterWarmup.toFixed(1)} MB`);
  console.log(`run ${seconds} s: ${total(run)} requests (${Math.round(total(run) / seconds)}/s) ${JSON.stringify(run)}; RSS after ${afterRun.toFixed(1)} MB`);
  const growth = afterRun - afterWarmup;
  console.log(`RSS growth over the run: ${growth.toFixed(1)} MB  target <= 30 MB  ${growth <= 30 ? 'ok' : 'MISSED'}`);
  const counts = bodies.statuses.reduce((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});
  console.log(
    `10 concurrent 31 MB bodies: ${JSON.stringify(counts)}; peak RSS ${bodies.peakMb.toFixed(1)} MB  target < 250 MB  ${bodies.peakMb < 250 ? 'ok' : 'MISSED'}`,
  );
} finally {
  await sandbox.stop();
}
