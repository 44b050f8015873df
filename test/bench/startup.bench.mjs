// Start-up time of typical commands against a bare `node -e 0`, as ratios (CONTRIBUTING.md,
// Start-up). Targets: --version <= 1.3x, --help <= 1.6x, an API list against a running
// sandbox <= 3x, webhooks verify <= 1.8x.
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { bin, platform, printRatios, startSandbox, tempDir, timeInterleaved } from './lib.mjs';

const node = process.execPath;
const configDir = tempDir();
const sandbox = await startSandbox({ PLATFORM_CONFIG_DIR: configDir });
try {
  const env = { PLATFORM_CONFIG_DIR: configDir, PLATFORM_BASE_URL: sandbox.url, NO_COLOR: '1' };
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

  const cases = [
    { name: 'node -e 0', argv: [node, '-e', '0'] },
    { name: 'platform --version', argv: [node, bin, '--version'], env },
    { name: 'platform --help', argv: [node, bin, '--help'], env },
    { name: 'platform ads campaigns list -o json', argv: [node, bin, 'ads', 'campaigns', 'list', '--account', account, '-o', 'json'], env },
    {
      name: 'platform webhooks verify',
      argv: [node, bin, 'webhooks', 'verify', body, '--signature', signature],
      env: { ...env, PLATFORM_WEBHOOK_SECRET: secret },
    },
  ];
  const { runs, medians } = timeInterleaved(cases);
  printRatios({
    title: 'start-up',
    baseline: 'node -e 0',
    medians,
    runs,
    targets: { 'platform --version': 1.3, 'platform --help': 1.6, 'platform ads campaigns list -o json': 3, 'platform webhooks verify': 1.8 },
  });
} finally {
  await sandbox.stop();
}
