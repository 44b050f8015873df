// `platform sandbox ...`: its commands, flags, help and examples. Data only: command code
// loads when it runs. Each command's flags type is derived from its options here.
import { command, group, option, options, type FlagsOf } from '../spec.js';

const sandboxServeOptions = options(
  option({ flags: '--host <host>', description: 'address to listen on', default: '127.0.0.1' }),
  option({
    flags: '--public-url <url>',
    description: 'the URL other machines reach this sandbox at (with --host 0.0.0.0): printed, and the host of report download URLs',
  }),
  option({ flags: '--port <port>', description: 'port to listen on (0 picks a free one; default 4010, or PLATFORM_SANDBOX_PORT)', kind: 'int' }),
  option({ flags: '--seed <n>', description: 'seed of the demo data', kind: 'int', default: 1 }),
  option({ flags: '--campaigns <n>', description: 'seed exactly n campaigns in the first account (benchmarks)', kind: 'int' }),
  option({ flags: '--state <file>', description: 'keep data in this file across restarts', file: true }),
  option({ flags: '--fail-rate <p>', description: 'answer this share of API calls with a 500 or a dropped connection', kind: 'number', default: 0 }),
  option({ flags: '--throttle-rate <p>', description: 'answer this share of API calls with 429 and Retry-After', kind: 'number', default: 0 }),
  option({ flags: '--item-fail-rate <p>', description: 'fail this share of batch items with a transient error (not applied)', kind: 'number', default: 0 }),
  option({ flags: '--rate-limit <n>', description: 'allow n requests per second per token, then 429', kind: 'int' }),
  option({ flags: '--latency <ms>', description: 'delay every answer', kind: 'int', default: 0 }),
  option({
    flags: '--time-scale <n>',
    description: 'run simulated time (rider trips, report jobs) n times faster than the wall clock',
    kind: 'number',
    default: 1,
  }),
  option({
    flags: '--webhook-url <url>',
    description: 'deliver ride events (spec 6) here, signed with the client secret, unless the application has its own URL',
  }),
  option({ flags: '--webhook-chaos <rates>', description: 'deliver a share of events twice and out of order: a rate 0-1, or duplicates=RATE,reorder=RATE' }),
  option({
    flags: '--chaos-seed <n>',
    description: 'seed of every injected fault (default: --seed): the Nth request to a route meets the same faults in every run',
    kind: 'int',
  }),
  option({
    flags: '--fault <rule>',
    description: "a fault on one route, '[METHOD ]PATH=STATUS[:RATE]' (* is one path segment; STATUS 400-599 or drop); repeatable",
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
        'Start a stateful emulator of the whole API on loopback: the ads API, OAuth (client\n' +
        'credentials, the browser consent page, refresh), the rider API with simulated trips,\n' +
        'delivery quotes and signed webhook deliveries, seeded with deterministic demo data.\n' +
        'It prints its base URL and demo credentials; the built-in "local" profile points at its\n' +
        'default address, so other commands work against it at once. A write with an\n' +
        'Idempotency-Key is applied once: the key is kept 24 hours per ad account (as Stripe keeps\n' +
        'keys), and a repeat from any client gets the first answer (the same key with another\n' +
        'request: 400); at most the newest 20,000 keys are kept.',
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
