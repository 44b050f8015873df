// Start-up time of typical commands against a bare `node -e 0` of the same node binary, as
// ratios (CONTRIBUTING.md, Start-up), on each supported Node line: this process's node (Node
// 20), then Node 22 and 24 (nodeLines() in lib.mjs: $PLATFORM_BENCH_NODES=/path/node22,/path/node24
// names the binaries; without it the versions .ci/run pins are installed from the npm registry
// once, under <OS temp folder>/platform-bench-node/). Every line's commands and baselines are
// timed interleaved in one group, so the machine's drifts fall on all of them alike; the sandbox
// runs on this process's node. The CLI's state folder ($XDG_STATE_HOME) is a temporary one: the
// untimed warm-up rounds fill its compile cache (Node 22+), as a user's first run does.
// NODE_EXTRA_CA_CERTS is left out of the timed processes: Node 20 reads that file at start-up
// whatever runs (+55 ms with Debian's bundle), which would hide the CLI's own cost in its baseline.
//
// Targets on Node 24: --version <= 1.3x, --help <= 1.3x, an API list against a running sandbox
// <= 2x, webhooks verify <= 1.8x. On Node 20 and 22: no worse than before the compile cache
// moved to the state folder and the V8 flags were set by Node line (the larger of two paired
// before/after runs on a 2-core machine, rounded up; Node 20 without the CA bundle).
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { bin, nodeLines, platform, printRatios, startSandbox, tempDir, timeInterleaved } from './lib.mjs';

const TARGETS = {
  20: { 'platform --version': 1.6, 'platform --help': 3, 'platform ads campaigns list -o json': 6.2, 'platform webhooks verify': 3.8 },
  22: { 'platform --version': 1.3, 'platform --help': 2.5, 'platform ads campaigns list -o json': 5.3, 'platform webhooks verify': 3.4 },
  24: { 'platform --version': 1.3, 'platform --help': 1.3, 'platform ads campaigns list -o json': 2, 'platform webhooks verify': 1.8 },
};

const lines = nodeLines();
if (process.env.NODE_EXTRA_CA_CERTS) console.log('NODE_EXTRA_CA_CERTS is set here: the timed processes run without it (see the header of this file)');
const configDir = tempDir();
const sandbox = await startSandbox({ PLATFORM_CONFIG_DIR: configDir });
try {
  const env = {
    PLATFORM_CONFIG_DIR: configDir,
    PLATFORM_BASE_URL: sandbox.url,
    NO_COLOR: '1',
    XDG_STATE_HOME: path.join(configDir, 'state'),
    NODE_EXTRA_CA_CERTS: undefined,
  };
  // Untimed: fetches and caches the token, and finds an account to list.
  const account = JSON.parse(platform(['ads', 'accounts', 'list', '-o', 'json'], env))[0].ad_account_id;

  const secret = 'bench-webhook-secret';
  const body = path.join(configDir, 'body.json');
  fs.writeFileSync(
    body,
    JSON.stringify({
      event_id: 'e1',
      event_time: 1700000000,
      event_type: 'requests.status_changed',
      meta: { user_id: 'u', resource_id: 'r', status: 'accepted' },
    }),
  );
  const signature = createHmac('sha256', secret).update(fs.readFileSync(body)).digest('hex');

  const casesOf = (node) => [
    { name: 'node -e 0', argv: [node, '-e', '0'], env },
    { name: 'platform --version', argv: [node, bin, '--version'], env },
    { name: 'platform --help', argv: [node, bin, '--help'], env },
    { name: 'platform ads campaigns list -o json', argv: [node, bin, 'ads', 'campaigns', 'list', '--account', account, '-o', 'json'], env },
    {
      name: 'platform webhooks verify',
      argv: [node, bin, 'webhooks', 'verify', body, '--signature', signature],
      env: { ...env, PLATFORM_WEBHOOK_SECRET: secret },
    },
  ];
  const cases = lines.flatMap(({ version, path: node }) => casesOf(node).map((c) => ({ ...c, name: `${version} ${c.name}` })));
  const { runs, medians } = timeInterleaved(cases);
  for (const { version } of lines) {
    const prefix = `${version} `;
    const own = new Map([...medians].filter(([name]) => name.startsWith(prefix)).map(([name, ms]) => [name.slice(prefix.length), ms]));
    console.log('');
    printRatios({ title: 'start-up', baseline: 'node -e 0', medians: own, runs, nodeVersion: version, targets: TARGETS[version.slice(1).split('.')[0]] });
  }
} finally {
  await sandbox.stop();
}
