// `platform sandbox ...`: its commands, flags, help and examples. Data only: command code
// loads when it runs. Each command's flags type is derived from its options here.
import { command, group, option, options, type FlagsOf } from '../spec.js';

const sandboxServeOptions = options(
  option({ flags: '--host <host>', description: 'address to listen on', default: '127.0.0.1' }),
  option({
    flags: '--public-url <url>',
    description: 'the URL other machines reach it at (--host 0.0.0.0)',
  }),
  option({ flags: '--port <port>', description: 'port (0: a free one; default 4010, or PLATFORM_SANDBOX_PORT)', kind: 'int' }),
  option({ flags: '--seed <n>', description: 'seed of the demo data', kind: 'int', default: 1 }),
  option({ flags: '--campaigns <n>', description: 'seed exactly n campaigns in the first account', kind: 'int' }),
  option({ flags: '--state <file>', description: 'keep data in this file across restarts', file: true }),
  option({ flags: '--fail-rate <p>', description: 'share of API calls answered 500 or dropped', kind: 'number', default: 0 }),
  option({ flags: '--throttle-rate <p>', description: 'share of API calls answered 429', kind: 'number', default: 0 }),
  option({ flags: '--item-fail-rate <p>', description: 'share of batch items failed, not applied', kind: 'number', default: 0 }),
  option({ flags: '--rate-limit <n>', description: 'allow n requests per second per token, then 429', kind: 'int' }),
  option({ flags: '--latency <ms>', description: 'delay every answer', kind: 'int', default: 0 }),
  option({
    flags: '--time-scale <n>',
    description: 'simulated time runs n times faster',
    kind: 'number',
    default: 1,
  }),
  option({
    flags: '--webhook-url <url>',
    description: 'deliver ride events (spec 6) here, signed',
  }),
  option({
    flags: '--webhook-basic-auth <user:password>',
    description: `deliveries send Authorization: Basic (USER:PASSWORD, or @FILE; env: PLATFORM_WEBHOOK_BASIC_AUTH)`,
  }),
  option({ flags: '--webhook-oauth-token-url <url>', description: "deliveries send a Bearer token from this receiver's token URL (client credentials)" }),
  option({
    flags: '--webhook-oauth-client <id:secret>',
    description: 'the client of --webhook-oauth-token-url (ID:SECRET, or @FILE; env: PLATFORM_WEBHOOK_OAUTH_CLIENT)',
  }),
  option({ flags: '--webhook-oauth-scopes <scopes>', description: 'scopes asked for with --webhook-oauth-token-url, space-separated' }),
  option({ flags: '--webhook-chaos <rates>', description: 'share of events sent twice and out of order' }),
  option({
    flags: '--chaos-seed <n>',
    description: 'seed of the injected faults (default: --seed)',
    kind: 'int',
  }),
  option({
    flags: '--fault <rule>',
    description: "a fault on one route: '[METHOD ]PATH=STATUS[:RATE]'",
    kind: 'repeat',
  }),
);
export type SandboxServeFlags = FlagsOf<typeof sandboxServeOptions>;

const sandboxStateOptions = options(option({ flags: '--url <url>', description: "the running sandbox's base URL (default: the profile's base URL)" }));
export type SandboxSnapshotFlags = FlagsOf<typeof sandboxStateOptions>;
const nameArg = { name: 'name', description: 'the snapshot name: letters, digits, ., _ and -', required: true };

export const sandboxSpec = group({
  name: 'sandbox',
  summary: 'Run the local emulator of the whole API',
  examples: ['platform sandbox serve', 'platform sandbox serve --port 0 --state sandbox.json', 'platform sandbox snapshot save clean'],
  subcommands: [
    command({
      name: 'serve',
      summary: 'Start the sandbox server on loopback (Ctrl-C stops it)',
      description:
        'Start a stateful emulator of the whole API on loopback (ads, OAuth, rider, delivery, webhooks), seeded with ' +
        'demo data. It prints its base URL and demo credentials; the "local" profile points at it. In full (idempotency ' +
        'keys, the faults it injects): platform help local-sandbox.',
      options: sandboxServeOptions,
      examples: [
        'platform sandbox serve',
        'platform sandbox serve --port 0 --state sandbox.json',
        'platform sandbox serve --host 0.0.0.0 --public-url http://devbox.local:4010',
        'platform sandbox serve --fail-rate 0.05 --throttle-rate 0.05',
        'platform sandbox serve --time-scale 60 --webhook-url http://127.0.0.1:4011/',
        'platform sandbox serve --webhook-url http://127.0.0.1:4011/ --webhook-chaos duplicates=0.3,reorder=0.3',
        "platform sandbox serve --chaos-seed 7 --fail-rate 0.05 --fault 'POST /v1/ads/*/campaigns=500:0.2'",
      ],
      load: () => import('./serve.js'),
    }),
    group({
      name: 'snapshot',
      summary: "Save and restore a running sandbox's whole state by name",
      examples: ['platform sandbox snapshot save clean', 'platform sandbox snapshot restore clean --url http://127.0.0.1:4010'],
      subcommands: [
        command({
          name: 'save',
          summary: "Keep the running sandbox's whole state under NAME (in memory; also on disk with serve --state)",
          args: [nameArg],
          options: sandboxStateOptions,
          examples: ['platform sandbox snapshot save clean', 'platform sandbox snapshot save before-bulk --url http://127.0.0.1:4010'],
          load: () => import('./snapshot-save.js'),
        }),
        command({
          name: 'restore',
          summary: 'Put the running sandbox back to the state saved as NAME',
          args: [nameArg],
          options: sandboxStateOptions,
          examples: ['platform sandbox snapshot restore clean', 'platform sandbox snapshot restore before-bulk --url http://127.0.0.1:4010'],
          load: () => import('./snapshot-restore.js'),
        }),
        command({
          name: 'list',
          summary: "The running sandbox's snapshots",
          options: sandboxStateOptions,
          examples: ['platform sandbox snapshot list', 'platform sandbox snapshot list -o json'],
          load: () => import('./snapshot-list.js'),
        }),
      ],
    }),
    command({
      name: 'reset',
      summary: 'Put the running sandbox back to its seeded demo data (--seed, --campaigns)',
      options: sandboxStateOptions,
      examples: ['platform sandbox reset', 'platform sandbox reset --url http://127.0.0.1:4010'],
      load: () => import('./reset.js'),
    }),
  ],
});
